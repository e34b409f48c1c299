import type { Knex } from 'knex';
import { projectionHealth, projectionView } from '../../api/routes/health';
import type { ProjectionView } from '../../domain/contracts/system';
import { formatPosition, type EventStore } from '../../domain/event-store/port';
import { allProjectors } from '../../projections/engine/registry';
import type { Connection, OpsCommand } from './command';
import { table, thousands } from './format';

export interface ProjectionStatus extends ProjectionView {
  /** Whether some process holds the projection's advisory lock (an active runner). */
  activeRunner: boolean;
}

export interface SystemStatus {
  database: { status: 'ok' | 'down'; version?: string; sizeBytes?: number; error?: string };
  eventStore: { kind: string; status: 'ok' | 'down'; head: string | null; events: number; error?: string };
  projections: ProjectionStatus[];
  eventTypes: Array<{ type: string; count: number }>;
}

/**
 * The advisory-lock key the runner takes for a projection (projections/runner.ts): the same
 * 31-bit hash of `projection:<name>`. status.test.ts checks both agree against a real runner.
 */
export function runnerLockKey(name: string): number {
  let hash = 0;
  for (const char of `projection:${name}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash & 0x7fffffff;
}

async function heldLocks(db: Knex): Promise<Set<number>> {
  const result = await db.raw(
    `SELECT objid::bigint AS key FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = 0 AND objsubid = 1
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return new Set(result.rows.map((row: { key: string }) => Number(row.key)));
}

async function eventTypeCounts(db: Knex, store: EventStore): Promise<Array<{ type: string; count: number }>> {
  if (store.kind === 'postgres') {
    const result = await db.raw(
      `SELECT event_type AS type, count(*)::bigint AS count FROM events GROUP BY event_type ORDER BY count(*) DESC, event_type`,
    );
    return result.rows.map((row: { type: string; count: string }) => ({ type: row.type, count: Number(row.count) }));
  }
  // EventStoreDB has no count by type: read the log once.
  const counts = new Map<string, number>();
  let after = null;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 5000 });
    for (const event of batch) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
    if (batch.length < 5000) break;
    after = batch[batch.length - 1].position;
  }
  return [...counts]
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
}

/** Everything `status` prints: projections, event counts, database and event store health. */
export async function collectStatus(
  { db, store }: Pick<Connection, 'db' | 'store'>,
  registered: string[] = allProjectors.map((p) => p.name),
): Promise<SystemStatus> {
  const status: SystemStatus = {
    database: { status: 'ok' },
    eventStore: { kind: store.kind, status: 'ok', head: null, events: 0 },
    projections: [],
    eventTypes: [],
  };
  try {
    const info = await db.raw(`SELECT version() AS version, pg_database_size(current_database())::bigint AS size`);
    status.database.version = String(info.rows[0].version).split(' on ')[0];
    status.database.sizeBytes = Number(info.rows[0].size);
  } catch (error) {
    status.database = { status: 'down', error: String((error as Error).message) };
    return status;
  }
  try {
    await store.ping();
    const head = await store.headPosition();
    status.eventStore.head = head ? formatPosition(head) : null;
    status.eventTypes = await eventTypeCounts(db, store);
    status.eventStore.events = status.eventTypes.reduce((sum, t) => sum + t.count, 0);
  } catch (error) {
    status.eventStore.status = 'down';
    status.eventStore.error = String((error as Error).message);
  }
  // Registered read models, plus every follower that has a checkpoint (process managers, rebuilds in progress).
  const stored: string[] = (await db('projection_checkpoints').select('name').orderBy('name')).map(
    (row: { name: string }) => row.name,
  );
  const names = [...new Set([...registered, ...stored])];
  const locks = await heldLocks(db);
  const health = status.eventStore.status === 'ok' ? await projectionHealth(db, store, names) : [];
  status.projections = health.map((p) => ({ ...projectionView(p), activeRunner: locks.has(runnerLockKey(p.name)) }));
  return status;
}

export function renderStatus(status: SystemStatus): string {
  const db = status.database;
  const es = status.eventStore;
  const lines = [
    `Database:    ${db.status}${db.version ? `  ${db.version}` : ''}${db.sizeBytes !== undefined ? `  ${(db.sizeBytes / 1048576).toFixed(1)} MB` : ''}${db.error ? `  ${db.error}` : ''}`,
    `Event store: ${es.status}  ${es.kind}  ${thousands(es.events)} events  head ${es.head ?? '(empty)'}${es.error ? `  ${es.error}` : ''}`,
    '',
    'Projections',
    status.projections.length === 0
      ? '  (none registered)'
      : table(
          ['name', 'version', 'checkpoint', 'lag', 'state', 'runner'],
          status.projections.map((p) => [
            p.name,
            p.version,
            p.checkpoint,
            p.lag === null ? '?' : thousands(p.lag),
            p.state,
            p.activeRunner ? 'active' : 'none',
          ]),
        ),
    '',
    'Events by type',
    status.eventTypes.length === 0
      ? '  (no events)'
      : table(
          ['type', 'count'],
          status.eventTypes.map((t) => [t.type, thousands(t.count)]),
        ),
  ];
  return lines.join('\n');
}

export const statusCommand: OpsCommand = {
  name: 'status',
  args: '[--json]',
  summary: 'Projection checkpoints, lag and state; event counts by type; database and event store health',
  help: `For each projection (and process manager): its version, checkpoint, lag (events in the log
after its checkpoint), state (caught up, behind, not started, rebuilding) and whether a runner
holds it. Then the number of events of each type, and whether the database and the event store
answer. --json prints the same as JSON. Exit code 1 when the database or event store is down.`,
  async run(args, context) {
    const connection = await context.connect();
    const status = await collectStatus(connection);
    context.out(args.includes('--json') ? JSON.stringify(status, null, 2) : renderStatus(status));
    return status.database.status === 'ok' && status.eventStore.status === 'ok' ? 0 : 1;
  },
};
