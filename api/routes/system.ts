import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import {
  eventQuerySchema,
  rebuildRequestSchema,
  type EventPage,
  type RebuildJobView,
  type SystemStatusView,
} from '../../domain/contracts/system';
import { formatPosition } from '../../domain/event-store/port';
import { refuse } from '../../domain/shared/errors';
import { rebuildProjections } from '../../projections/engine/rebuild';
import { allProjectors } from '../../projections/engine/registry';
import { requireRole } from '../http/access';
import { redactEventData, redactEventMetadata } from '../http/event-redaction';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';
import { projectionHealth, projectionView } from './health';

/**
 * The admin System page's API (role admin): projection status and lag, blue/green rebuilds
 * with progress (one job at a time per process), and a browser over the whole event log.
 */
export function systemRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const staffOnly = requireRole(db, 'admin');
  let job: RebuildJobView | null = null;

  router.get('/system/status', staffOnly, async (_req, res) => {
    const head = await store.headPosition();
    const stored: string[] = (await db('projection_checkpoints').select('name').orderBy('name')).map(
      (row: { name: string }) => row.name,
    );
    const names = [...new Set([...allProjectors.map((p) => p.name), ...stored])];
    const health = await projectionHealth(db, store, names);
    const types =
      store.kind === 'postgres'
        ? (
            await db.raw(
              `SELECT event_type AS type, count(*)::bigint AS count FROM events GROUP BY event_type ORDER BY count(*) DESC, event_type`,
            )
          ).rows
        : [];
    const view: SystemStatusView = {
      database: 'ok',
      eventStore: { kind: store.kind, status: 'ok', head: head ? formatPosition(head) : null },
      projections: health.map(projectionView),
      eventTypes: types.map((row: { type: string; count: string }) => ({ type: row.type, count: Number(row.count) })),
    };
    res.json(view);
  });

  router.get('/system/rebuild', staffOnly, (_req, res) => {
    res.json({ job });
  });

  router.post('/system/rebuild', staffOnly, (req, res) => {
    const { projection } = parseWith(rebuildRequestSchema, req.body);
    const projectors = projection === 'all' ? allProjectors : allProjectors.filter((p) => p.name === projection);
    if (projectors.length === 0) throw refuse.notFound('Unknown projection');
    if (job && (job.phase === 'queued' || job.phase === 'building' || job.phase === 'switching'))
      throw refuse.conflict('A rebuild is already running');
    const current: RebuildJobView = {
      id: randomUUID(),
      target: projection,
      projection: null,
      phase: 'queued',
      eventsRead: 0,
      eventsTotal: 0,
      eventsPerSecond: 0,
      etaSeconds: null,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
      completed: [],
    };
    job = current;
    void (async () => {
      try {
        // One pass over the log for all of them, as `npm run ops -- rebuild all`.
        await rebuildProjections(store, db, projectors, (progress) => {
          current.projection = progress.projection;
          current.phase = progress.phase === 'done' ? 'switching' : progress.phase;
          current.eventsRead = progress.eventsRead;
          current.eventsTotal = progress.eventsTotal;
          current.eventsPerSecond = Math.round(progress.eventsPerSecond);
          current.etaSeconds = progress.etaSeconds === null ? null : Math.round(progress.etaSeconds);
        });
        current.completed.push(...projectors.map((projector) => projector.name));
        current.phase = 'done';
      } catch (error) {
        current.phase = 'failed';
        current.error = (error as Error).message;
        api.deps.logger.error({ err: error, projection: current.projection }, 'rebuild failed');
      } finally {
        current.finishedAt = new Date().toISOString();
      }
    })();
    res.status(202).json({ job: current });
  });

  router.get('/system/events', staffOnly, async (req, res) => {
    const query = parseWith(eventQuerySchema, req.query);
    if (store.kind !== 'postgres')
      throw refuse.unprocessable(
        'The event browser reads the PostgreSQL event log; use `npm run ops -- export` on EventStoreDB',
      );
    const rows = db('events')
      .select(
        'event_id',
        'stream_id',
        db.raw('stream_position::text AS revision'),
        db.raw('transaction_id::text AS commit'),
        db.raw('global_position::text AS prepare'),
        'event_type',
        'data',
        'metadata',
        'created_at',
      )
      .orderByRaw('transaction_id DESC, global_position DESC')
      .limit(query.limit + 1);
    if (query.type) rows.where('event_type', query.type);
    if (query.stream)
      rows.where((q) =>
        q
          .where('stream_id', query.stream!)
          .orWhere('stream_id', 'like', `${query.stream!.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`),
      );
    if (query.from) rows.where('created_at', '>=', query.from);
    if (query.to) rows.where('created_at', '<=', query.to);
    if (query.before) {
      const [commit, prepare] = query.before.split('/');
      rows.whereRaw('(transaction_id, global_position) < (?::text::xid8, ?::bigint)', [commit, prepare]);
    }
    const found = await rows;
    const page = found.slice(0, query.limit);
    const last = page[page.length - 1];
    const body: EventPage = {
      events: page.map((row) => ({
        eventId: row.event_id,
        streamId: row.stream_id,
        revision: row.revision,
        position: `${row.commit}/${row.prepare}`,
        type: row.event_type,
        createdAt: new Date(row.created_at).toISOString(),
        data: redactEventData(row.event_type, row.data),
        metadata: redactEventMetadata(row.metadata ?? {}),
      })),
      next: found.length > query.limit && last ? `${last.commit}/${last.prepare}` : null,
    };
    res.json(body);
  });

  return router;
}
