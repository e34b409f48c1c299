import type { Knex } from 'knex';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../../domain/event-store/port';
import { applyBatch } from './apply-batch';
import { ZERO, createCheckpoint, readCheckpoint } from './checkpoints';
import { PROJECTION_METADATA_KEYS, type Projector } from './projector';

export interface RebuildResult {
  /** Events read and applied: those of the types the read models apply. */
  events: number;
  seconds: number;
  /** Seconds spent building the copies, making their deferred indexes, and switching them in. */
  phases: { building: number; indexing: number; switching: number };
}

export interface RebuildProgress {
  projection: string;
  /** Events read of the types the rebuilt read models apply (the only ones a rebuild reads). */
  eventsRead: number;
  /** Such events in the log when the rebuild started (an estimate for the ETA). */
  eventsTotal: number;
  eventsPerSecond: number;
  etaSeconds: number | null;
  phase: 'building' | 'switching' | 'done';
}

/** Events a rebuild reads at a time. */
export const REBUILD_PAGE = 20_000;
const BATCH = REBUILD_PAGE;

/** What a rebuild reads of the log: the events its projectors apply, with the metadata they read. */
interface LogSlice {
  types: string[];
  metadataKeys: readonly string[];
}

const typesOf = (projectors: Projector[]) => [...new Set(projectors.flatMap((projector) => projector.eventTypes))];
export const logSliceOf = (projectors: Projector[]): LogSlice => ({
  types: typesOf(projectors),
  metadataKeys: PROJECTION_METADATA_KEYS,
});
const sliceFor = (builds: Build[]) => logSliceOf(builds.map((build) => build.projector));

async function countEvents(db: Knex, types: string[]): Promise<number> {
  const result = await db
    .raw(`SELECT count(*)::bigint AS n FROM events WHERE event_type = ANY(?)`, [types])
    .catch(() => ({ rows: [{ n: '0' }] }));
  return Number(result.rows[0].n);
}

/** One read model being built beside the live one. */
interface Build {
  projector: Projector;
  schema: string;
  retired: string;
  checkpoint: string;
  /** Its non-unique indexes and append-only tables' keys, dropped while the copy is built and made again at the end. */
  deferredIndexes: DeferredIndex[];
}

interface DeferredIndex {
  table: string;
  statement: string;
}

async function prepare(db: Knex, projector: Projector, stamp: string): Promise<Build> {
  const name = projector.name.replace(/\W/g, '_');
  const schema = `rebuild_${name}_${stamp}`;
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await projector.createTables(db, schema);
  const deferredIndexes = [
    ...(await dropPrimaryKeys(db, schema, projector.appendOnlyTables ?? [])),
    ...(projector.appliesThroughIndexes ? [] : await dropSecondaryIndexes(db, schema)),
  ];
  // Autovacuum would keep vacuuming the growing copy; it is analyzed once when complete.
  for (const table of projector.tables)
    await db.raw(`ALTER TABLE IF EXISTS "${schema}"."${table}" SET (autovacuum_enabled = false)`);
  const build = {
    projector,
    schema,
    retired: `retired_${name}_${stamp}`,
    checkpoint: `${projector.name}@rebuild`,
    deferredIndexes,
  };
  await db('projection_checkpoints').where({ name: build.checkpoint }).delete();
  await createCheckpoint(db, build.checkpoint, projector.version);
  return build;
}

/** Drops the primary keys of append-only tables and returns the statements that add them again. */
async function dropPrimaryKeys(db: Knex, schema: string, tables: string[]): Promise<DeferredIndex[]> {
  const statements: DeferredIndex[] = [];
  for (const table of tables) {
    const ref = `"${schema}"."${table}"`;
    const { rows } = await db.raw(
      `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = ?::regclass AND contype = 'p'`,
      [ref],
    );
    for (const row of rows) {
      await db.raw(`ALTER TABLE ${ref} DROP CONSTRAINT "${row.name}"`);
      statements.push({ table, statement: `ALTER TABLE ${ref} ADD CONSTRAINT "${row.name}" ${row.definition}` });
    }
  }
  return statements;
}

/**
 * Drops the schema's non-unique indexes and returns their definitions: building an index over
 * a full table once is several times cheaper than keeping it current row by row. Unique
 * indexes stay (ON CONFLICT and keyed lookups need them).
 */
async function dropSecondaryIndexes(db: Knex, schema: string): Promise<DeferredIndex[]> {
  const { rows } = await db.raw(
    `SELECT i.relname AS name, t.relname AS table, pg_get_indexdef(x.indexrelid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = i.relnamespace
      WHERE n.nspname = ? AND NOT x.indisunique`,
    [schema],
  );
  for (const row of rows) await db.raw(`DROP INDEX "${schema}"."${row.name}"`);
  return rows.map((row: { table: string; definition: string }) => ({ table: row.table, statement: row.definition }));
}

/** At most `slots` tasks at a time; a finished task hands its slot to the next in line. */
function limiter(slots: number) {
  let free = slots;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/**
 * Completes a built copy: its deferred indexes made again, then autovacuum back on and fresh
 * statistics, so the first queries on the new tables are planned well. Builds share `limit`
 * (one statement per core of a small server), and one that is done completes while the
 * others still apply the log.
 */
async function completeTables(db: Knex, build: Build, limit: ReturnType<typeof limiter>): Promise<void> {
  // Each index sort gets 256 MB (default: 64 MB), so less of it spills to temporary files.
  const run = (statement: string) =>
    limit(() =>
      db.transaction(async (trx) => {
        await trx.raw(`SET LOCAL maintenance_work_mem = '256MB'`);
        await trx.raw(statement);
      }),
    );
  // The table with the most index work (each index build reads the whole table) is queued
  // first: the last index to finish ends the rebuild. A table is analyzed once its own are made.
  const bytes = await tableSizes(db, build.schema);
  const indexesOf = (table: string) => build.deferredIndexes.filter((index) => index.table === table);
  const work = (table: string) => (bytes.get(table) ?? 0) * indexesOf(table).length;
  const tables = [...build.projector.tables].sort((a, b) => work(b) - work(a));
  await Promise.all(
    tables.map(async (table) => {
      const ref = `"${build.schema}"."${table}"`;
      await Promise.all(indexesOf(table).map((index) => run(index.statement)));
      await run(`ALTER TABLE IF EXISTS ${ref} RESET (autovacuum_enabled)`);
      await run(`ANALYZE ${ref}`);
    }),
  );
}

async function tableSizes(db: Knex, schema: string): Promise<Map<string, number>> {
  const { rows } = await db.raw(
    `SELECT c.relname AS name, pg_relation_size(c.oid)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ? AND c.relkind = 'r'`,
    [schema],
  );
  return new Map(rows.map((row: { name: string; bytes: string }) => [row.name, Number(row.bytes)]));
}

/**
 * A page of the log, with the position it was read through: every event up to the head seen
 * before the read, as the read skips events of other types.
 */
interface Page {
  events: RecordedEvent[];
  through: Position | null;
}

async function readPage(store: EventStore, after: Position, slice: LogSlice): Promise<Page> {
  const head = await store.headPosition();
  const events = await store.readAll({ after, maxCount: BATCH, ...slice });
  const last = events.length ? events[events.length - 1].position : after;
  // A full page may stop before the head; a short one read all of it.
  const through = events.length < BATCH && head && comparePositions(head, last) > 0 ? head : last;
  return { events, through };
}

/**
 * The log read once for several builds: page k+1 is read after page k, as soon as the fastest
 * build asks for it, and a build may run at most AHEAD pages ahead of the slowest, which
 * bounds the pages kept in memory. Builds thus never wait for each other batch by batch.
 */
function sharedPages(store: EventStore, from: Position, slice: LogSlice, readers: number) {
  const AHEAD = 4;
  const pages = new Map<number, Promise<Page>>();
  const next = new Array<number>(readers).fill(0);
  let waiting: Array<() => void> = [];
  let failed: unknown = null;
  const wakeAll = () => {
    const woken = waiting;
    waiting = [];
    woken.forEach((wake) => wake());
  };
  const page = (k: number): Promise<Page> => {
    let found = pages.get(k);
    if (!found) {
      const end: Page = { events: [], through: null };
      found =
        k === 0
          ? readPage(store, from, slice)
          : page(k - 1).then((previous) =>
              previous.events.length < BATCH ? end : readPage(store, previous.through!, slice),
            );
      found.catch(() => undefined); // a failed read surfaces in take()
      pages.set(k, found);
    }
    return found;
  };
  return {
    async take(reader: number): Promise<Page> {
      while (!failed && next[reader] - Math.min(...next) > AHEAD)
        await new Promise<void>((resolve) => waiting.push(resolve));
      if (failed) throw failed;
      const k = next[reader];
      const found = await page(k);
      if (found.events.length === BATCH) void page(k + 1); // read ahead while this page is applied
      return found;
    },
    /** The reader is done with its page; returns the number of pages every reader is done with. */
    done(reader: number): number {
      const k = next[reader]++;
      if (next.every((n) => n > k)) pages.delete(k);
      wakeAll();
      return Math.min(...next);
    },
    /** One build failed: the others stop at their next page. */
    fail(error: unknown) {
      failed ??= error;
      wakeAll();
    },
  };
}

/**
 * Reads the log once from `from` (the events the builds apply) and applies it to every build,
 * each build batch by batch in its own transactions at its own pace (see sharedPages), and
 * hands each build, once it has read the whole log, to `onBuilt` with the position it reached.
 * Progress counts the events every build has applied.
 */
async function catchUp(
  store: EventStore,
  conn: Knex | Knex.Transaction,
  builds: Build[],
  from: Position,
  onEvents: (events: number) => void,
  onBuilt: (build: Build, position: Position) => Promise<void> = async () => undefined,
): Promise<void> {
  const log = sharedPages(store, from, sliceFor(builds), builds.length);
  const pageSizes: number[] = [];
  let reported = 0;
  const runs = builds.map(async (build, reader) => {
    let position = from;
    try {
      for (let k = 0; ; k++) {
        const { events: batch, through } = await log.take(reader);
        pageSizes[k] = batch.length;
        if (through && comparePositions(through, position) > 0)
          position = await applyBatch(
            conn,
            build.projector,
            { schema: build.schema, checkpoint: build.checkpoint },
            position,
            batch,
            through,
          );
        for (const everyoneDone = log.done(reader); reported < everyoneDone; reported++) onEvents(pageSizes[reported]);
        if (batch.length < BATCH) return await onBuilt(build, position);
      }
    } catch (error) {
      log.fail(error);
      throw error;
    }
  });
  const settled = await Promise.allSettled(runs);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw (failure as PromiseRejectedResult).reason;
}

/** Holding the live checkpoint's row lock, the build catches up and takes the live tables' place. */
async function switchOver(
  store: EventStore,
  db: Knex,
  build: Build,
  from: Position,
  onBatch: (events: number) => void,
): Promise<void> {
  const { projector, schema, retired, checkpoint } = build;
  await db.transaction(async (trx) => {
    await createCheckpoint(trx, projector.name, projector.version);
    await trx('projection_checkpoints').where({ name: projector.name }).forUpdate();
    await catchUp(store, trx, [build], from, onBatch);
    await trx.raw(`CREATE SCHEMA "${retired}"`);
    for (const table of projector.tables) {
      await trx.raw(`ALTER TABLE IF EXISTS public."${table}" SET SCHEMA "${retired}"`);
      await trx.raw(`ALTER TABLE "${schema}"."${table}" SET SCHEMA public`);
    }
    const built = await readCheckpoint(trx, checkpoint);
    await trx('projection_checkpoints').where({ name: projector.name }).update({
      version: projector.version,
      commit_position: built!.commit_position,
      prepare_position: built!.prepare_position,
      events_applied: built!.events_applied,
      state: 'running',
      updated_at: trx.fn.now(),
    });
    await trx('projection_checkpoints').where({ name: checkpoint }).delete();
  });
}

/** Drops the live tables a switch-over replaced. */
async function retire(db: Knex, build: Build): Promise<void> {
  await db.raw(`DROP SCHEMA "${build.retired}" CASCADE`);
}

/**
 * Blue/green rebuild of several read models in one pass over the log: each new copy is built
 * in a schema of its own while the live tables keep serving. As soon as a copy is complete,
 * holding the live checkpoint's row lock (which pauses the live runner), it catches up to the
 * last readable event, takes the live tables' place and takes over the checkpoint, while the
 * other copies are still being built. Switch-overs go one at a time, and so do the drops of
 * the old tables, each after its switch-over.
 */
export async function rebuildProjections(
  store: EventStore,
  db: Knex,
  projectors: Projector[],
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<RebuildResult> {
  const stamp = Date.now().toString(36);
  const label = projectors.length === 1 ? projectors[0].name : `${projectors.length} read models`;
  const started = Date.now();
  const eventsTotal = store.kind === 'postgres' ? await countEvents(db, typesOf(projectors)) : 0;
  let eventsRead = 0;
  const report = (phase: RebuildProgress['phase']) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const eventsPerSecond = eventsRead / seconds;
    const remaining = Math.max(eventsTotal - eventsRead, 0);
    onProgress({
      projection: label,
      eventsRead,
      eventsTotal,
      eventsPerSecond,
      etaSeconds: eventsPerSecond > 0 ? remaining / eventsPerSecond : null,
      phase,
    });
  };
  const read = (events: number) => {
    eventsRead += events;
    report('building');
  };

  const builds: Build[] = [];
  try {
    for (const projector of projectors) builds.push(await prepare(db, projector, stamp));
    const indexing = limiter(2);
    const switching = limiter(1);
    const dropping = limiter(1);
    let built = 0;
    let completed = 0;
    let lastBuilt = started;
    let lastCompleted = started;
    await catchUp(store, db, builds, ZERO, read, async (build, position) => {
      if (++built === builds.length) lastBuilt = Date.now();
      await completeTables(db, build, indexing);
      lastCompleted = Date.now();
      if (++completed === builds.length) report('switching');
      await switching(() => switchOver(store, db, build, position, read));
      await dropping(() => retire(db, build)); // the next switch-over need not wait for it
    });
    report('done');
    // Each phase counts from the end of the one before for the last copy (earlier ones overlap).
    const phases = {
      building: (lastBuilt - started) / 1000,
      indexing: (lastCompleted - lastBuilt) / 1000,
      switching: (Date.now() - lastCompleted) / 1000,
    };
    return { events: eventsRead, seconds: (Date.now() - started) / 1000, phases };
  } finally {
    for (const build of builds) {
      await db.raw(`DROP SCHEMA IF EXISTS "${build.schema}" CASCADE`);
      await db('projection_checkpoints').where({ name: build.checkpoint }).delete();
    }
  }
}

/** Blue/green rebuild of one read model (see rebuildProjections). */
export function rebuildProjection(
  store: EventStore,
  db: Knex,
  projector: Projector,
  onProgress?: (progress: RebuildProgress) => void,
): Promise<RebuildResult> {
  return rebuildProjections(store, db, [projector], onProgress);
}
