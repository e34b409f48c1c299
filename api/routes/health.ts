import { Router } from 'express';
import type { Knex } from 'knex';
import type { ProjectionView } from '../../domain/contracts/system';
import { formatPosition, type EventStore } from '../../domain/event-store/port';
import { positionOf, type CheckpointRow } from '../../projections/engine/checkpoints';
import type { Api } from '../kit';

export interface ProjectionHealth {
  name: string;
  version: number;
  state: string;
  checkpoint: string;
  /** Events in the log after the checkpoint (PostgreSQL log), or whether it is behind the head. */
  lag: number | null;
  caughtUp: boolean;
}

/** A projection's health as the System page and `ops status` show it. */
export function projectionView(p: ProjectionHealth): ProjectionView {
  const state = p.name.endsWith('@rebuild')
    ? 'rebuilding'
    : p.state === 'not started'
      ? 'not started'
      : p.caughtUp
        ? 'caught up'
        : 'behind';
  return { name: p.name, version: p.version, checkpoint: p.checkpoint, lag: p.lag, state };
}

/** Per projection: its checkpoint and how far it is behind the head of the log. */
export async function projectionHealth(db: Knex, store: EventStore, names: string[]): Promise<ProjectionHealth[]> {
  const rows = await db<CheckpointRow>('projection_checkpoints').whereIn('name', names);
  const head = await store.headPosition();
  return Promise.all(
    names.map(async (name) => {
      const row = rows.find((r) => r.name === name);
      if (!row)
        return { name, version: 0, state: 'not started', checkpoint: '0/0', lag: null, caughtUp: head === null };
      const position = positionOf(row);
      let lag: number | null = null;
      if (store.kind === 'postgres') {
        const result = await db.raw(
          `SELECT count(*)::int AS lag FROM events
            WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
              AND (transaction_id, global_position) > (?::text::xid8, ?::bigint)`,
          [position.commit.toString(), position.prepare.toString()],
        );
        lag = result.rows[0].lag;
      }
      const caughtUp =
        lag !== null
          ? lag === 0
          : head === null || (head.commit <= position.commit && head.prepare <= position.prepare);
      return { name, version: row.version, state: row.state, checkpoint: formatPosition(position), lag, caughtUp };
    }),
  );
}

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'down'> {
  try {
    await probe();
    return 'ok';
  } catch {
    return 'down';
  }
}

export function healthRoutes(api: Api): Router {
  const router = Router();
  router.get('/health', async (_req, res) => {
    const { db, store, projectionNames } = api.deps;
    const database = await check(() => db.raw('SELECT 1'));
    const eventStore = await check(() => store.ping());
    const projections = database === 'ok' ? await projectionHealth(db, store, projectionNames).catch(() => []) : [];
    const healthy = database === 'ok' && eventStore === 'ok';
    res.status(healthy ? 200 : 503).json({
      status: healthy ? 'healthy' : 'unhealthy',
      ready: healthy && projections.every((p) => p.caughtUp),
      database,
      eventStore: { kind: store.kind, status: eventStore },
      projections,
    });
  });
  return router;
}
