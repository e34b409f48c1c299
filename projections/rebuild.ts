import type { Knex } from 'knex';
import type { EventStore, Position, RecordedEvent } from '../domain/event-store/port';
import { applyBatch } from './apply-batch';
import { ZERO, createCheckpoint, readCheckpoint } from './checkpoints';
import type { Projector } from './projector';

export interface RebuildProgress {
  projection: string;
  eventsRead: number;
  /** Events in the log when the rebuild started (an estimate for the ETA). */
  eventsTotal: number;
  eventsPerSecond: number;
  etaSeconds: number | null;
  phase: 'building' | 'switching' | 'done';
}

const BATCH = 5000;

async function countEvents(db: Knex): Promise<number> {
  const result = await db.raw(`SELECT count(*)::bigint AS n FROM events`).catch(() => ({ rows: [{ n: '0' }] }));
  return Number(result.rows[0].n);
}

/** One read model being built beside the live one. */
interface Build {
  projector: Projector;
  schema: string;
  retired: string;
  checkpoint: string;
}

async function prepare(db: Knex, projector: Projector, stamp: string): Promise<Build> {
  const name = projector.name.replace(/\W/g, '_');
  const build = { projector, schema: `rebuild_${name}_${stamp}`, retired: `retired_${name}_${stamp}`, checkpoint: `${projector.name}@rebuild` };
  await db.raw(`CREATE SCHEMA "${build.schema}"`);
  await projector.createTables(db, build.schema);
  await db('projection_checkpoints').where({ name: build.checkpoint }).delete();
  await createCheckpoint(db, build.checkpoint, projector.version);
  return build;
}

/**
 * Reads the log once from `from` and applies each batch to every build, the builds side by
 * side (each in its own transaction), while the next batch is already being read.
 */
async function catchUp(store: EventStore, conn: Knex | Knex.Transaction, builds: Build[], from: Position, onBatch: (events: number) => void): Promise<Position> {
  let position = from;
  let next: Promise<RecordedEvent[]> | null = store.readAll({ after: position, maxCount: BATCH });
  while (next) {
    const batch: RecordedEvent[] = await next;
    if (batch.length === 0) break;
    next = batch.length < BATCH ? null : store.readAll({ after: batch[batch.length - 1].position, maxCount: BATCH });
    const applied = await Promise.all(builds.map((b) => applyBatch(conn, b.projector, { schema: b.schema, checkpoint: b.checkpoint }, position, batch)));
    position = applied[0];
    onBatch(batch.length);
  }
  return position;
}

/** Holding the live checkpoint's row lock, the build catches up and takes the live tables' place. */
async function switchOver(store: EventStore, db: Knex, build: Build, from: Position, onBatch: (events: number) => void): Promise<void> {
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
  await db.raw(`DROP SCHEMA "${retired}" CASCADE`);
}

/**
 * Blue/green rebuild of several read models in one pass over the log: each new copy is built
 * in a schema of its own while the live tables keep serving; then, one at a time, holding the
 * live checkpoint's row lock (which pauses the live runner), a copy catches up to the last
 * readable event, takes the live tables' place and takes over the checkpoint. The old tables
 * are dropped afterwards.
 */
export async function rebuildProjections(
  store: EventStore,
  db: Knex,
  projectors: Projector[],
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<{ events: number; seconds: number }> {
  const stamp = Date.now().toString(36);
  const label = projectors.length === 1 ? projectors[0].name : `${projectors.length} read models`;
  const started = Date.now();
  const eventsTotal = store.kind === 'postgres' ? await countEvents(db) : 0;
  let eventsRead = 0;
  const report = (phase: RebuildProgress['phase']) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const eventsPerSecond = eventsRead / seconds;
    const remaining = Math.max(eventsTotal - eventsRead, 0);
    onProgress({ projection: label, eventsRead, eventsTotal, eventsPerSecond, etaSeconds: eventsPerSecond > 0 ? remaining / eventsPerSecond : null, phase });
  };
  const read = (events: number) => {
    eventsRead += events;
    report('building');
  };

  const builds: Build[] = [];
  try {
    for (const projector of projectors) builds.push(await prepare(db, projector, stamp));
    const position = await catchUp(store, db, builds, ZERO, read);
    report('switching');
    for (const build of builds) await switchOver(store, db, build, position, read);
    report('done');
    return { events: eventsRead, seconds: (Date.now() - started) / 1000 };
  } finally {
    for (const build of builds) {
      await db.raw(`DROP SCHEMA IF EXISTS "${build.schema}" CASCADE`);
      await db('projection_checkpoints').where({ name: build.checkpoint }).delete();
    }
  }
}

/** Blue/green rebuild of one read model (see rebuildProjections). */
export function rebuildProjection(store: EventStore, db: Knex, projector: Projector, onProgress?: (progress: RebuildProgress) => void): Promise<{ events: number; seconds: number }> {
  return rebuildProjections(store, db, [projector], onProgress);
}
