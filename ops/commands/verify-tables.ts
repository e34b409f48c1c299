import type { Knex } from 'knex';
import { comparePositions, type EventStore, type Position } from '../../domain/event-store/port';
import { positionOf, readCheckpoint } from '../../projections/engine/checkpoints';
import type { Projector } from '../../projections/engine/projector';

/** Row count and an order-independent hash of every row of one table. */
export interface TableDigest {
  rows: number;
  hash: string;
}

export interface ReadModelSnapshot {
  /** The checkpoint the tables were at (null: the projection never ran). */
  position: Position | null;
  /** Per table; null when the tables do not exist. */
  tables: Record<string, TableDigest> | null;
}

/**
 * Digest computed inside PostgreSQL, so a read model of millions of rows is compared without
 * loading it: count, and the sum of a 60-bit slice of each row's md5.
 */
async function digest(db: Knex, schema: string, table: string): Promise<TableDigest> {
  const result = await db.raw(
    `SELECT count(*)::bigint AS rows, coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint), 0)::text AS hash FROM "${schema}"."${table}" t`,
  );
  return { rows: Number(result.rows[0].rows), hash: result.rows[0].hash };
}

/** The live tables and their checkpoint, read in one snapshot so they belong together. */
export async function snapshotReadModel(db: Knex, projector: Projector): Promise<ReadModelSnapshot> {
  return db.transaction(
    async (trx) => {
      const row = await readCheckpoint(trx, projector.name);
      const present = await trx.raw(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY(?)`,
        [projector.tables],
      );
      if (!row || present.rows[0].n !== projector.tables.length)
        return { position: row ? positionOf(row) : null, tables: null };
      const tables: Record<string, TableDigest> = {};
      for (const table of projector.tables) tables[table] = await digest(trx, 'public', table);
      return { position: positionOf(row), tables };
    },
    { isolationLevel: 'repeatable read' },
  );
}

/** How many events the projector reads lie after `from` and up to `to` (inclusive). */
export async function relevantEventsBetween(
  store: EventStore,
  projector: Projector,
  from: Position,
  to: Position,
): Promise<number> {
  if (comparePositions(from, to) >= 0) return 0;
  let count = 0;
  let after = from;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 5000, types: projector.eventTypes, metadataKeys: [] });
    for (const event of batch) {
      if (comparePositions(event.position, to) > 0) return count;
      count++;
    }
    if (batch.length < 5000) return count;
    after = batch[batch.length - 1].position;
  }
}

export type Verification =
  | { result: 'equal'; tables: Record<string, TableDigest> }
  | { result: 'different'; differences: Array<{ table: string; before: TableDigest; after: TableDigest }> }
  | { result: 'skipped'; reason: string };

/**
 * Old and rebuilt tables must be equal when no event the projector reads arrived between
 * the two snapshots; otherwise they may rightly differ and the comparison is skipped.
 */
export async function compareSnapshots(
  store: EventStore,
  projector: Projector,
  before: ReadModelSnapshot,
  after: ReadModelSnapshot,
): Promise<Verification> {
  if (!before.tables || !before.position)
    return { result: 'skipped', reason: 'there were no previous tables to compare with' };
  if (!after.tables || !after.position) return { result: 'skipped', reason: 'the rebuilt tables are missing' };
  const arrived = await relevantEventsBetween(store, projector, before.position, after.position);
  if (arrived > 0 || comparePositions(after.position, before.position) < 0) {
    return { result: 'skipped', reason: `${arrived} event(s) for this projection arrived during the rebuild` };
  }
  const differences = projector.tables
    .filter(
      (table) =>
        before.tables![table].hash !== after.tables![table].hash ||
        before.tables![table].rows !== after.tables![table].rows,
    )
    .map((table) => ({ table, before: before.tables![table], after: after.tables![table] }));
  return differences.length ? { result: 'different', differences } : { result: 'equal', tables: after.tables };
}
