import type { Knex } from 'knex';
import type { EventStore, Position } from '../domain/event-store/port';
import { applyBatch } from './apply-batch';
import { ZERO, createCheckpoint, positionOf, readCheckpoint } from './checkpoints';
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

const BATCH = 2000;

async function countEvents(db: Knex): Promise<number> {
  const result = await db.raw(`SELECT count(*)::bigint AS n FROM events`).catch(() => ({ rows: [{ n: '0' }] }));
  return Number(result.rows[0].n);
}

/**
 * Blue/green rebuild: the new copy is built from the whole log in a schema of its own while
 * the live tables keep serving; then, holding the live checkpoint's row lock (which pauses the
 * live runner), the copy catches up to the last readable event, takes the live tables' place
 * and takes over the checkpoint. The old tables are dropped afterwards.
 */
export async function rebuildProjection(
  store: EventStore,
  db: Knex,
  projector: Projector,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<{ events: number; seconds: number }> {
  const stamp = Date.now().toString(36);
  const schema = `rebuild_${projector.name.replace(/\W/g, '_')}_${stamp}`;
  const retired = `retired_${projector.name.replace(/\W/g, '_')}_${stamp}`;
  const checkpoint = `${projector.name}@rebuild`;
  const started = Date.now();
  const eventsTotal = store.kind === 'postgres' ? await countEvents(db) : 0;
  let eventsRead = 0;
  const report = (phase: RebuildProgress['phase']) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const eventsPerSecond = eventsRead / seconds;
    const remaining = Math.max(eventsTotal - eventsRead, 0);
    onProgress({ projection: projector.name, eventsRead, eventsTotal, eventsPerSecond, etaSeconds: eventsPerSecond > 0 ? remaining / eventsPerSecond : null, phase });
  };

  await db.raw(`CREATE SCHEMA "${schema}"`);
  await projector.createTables(db, schema);
  await db('projection_checkpoints').where({ name: checkpoint }).delete();
  await createCheckpoint(db, checkpoint, projector.version);

  const catchUp = async (conn: Knex | Knex.Transaction, from: Position): Promise<Position> => {
    let position = from;
    for (;;) {
      const batch = await store.readAll({ after: position, maxCount: BATCH });
      if (batch.length === 0) return position;
      position = await applyBatch(conn, projector, { schema, checkpoint }, position, batch);
      eventsRead += batch.length;
      report('building');
      if (batch.length < BATCH) return position;
    }
  };

  try {
    let position = await catchUp(db, ZERO);
    report('switching');
    await db.transaction(async (trx) => {
      await createCheckpoint(trx, projector.name, projector.version);
      await trx('projection_checkpoints').where({ name: projector.name }).forUpdate();
      position = await catchUp(trx, position);
      await trx.raw(`CREATE SCHEMA "${retired}"`);
      for (const table of projector.tables) {
        await trx.raw(`ALTER TABLE IF EXISTS public."${table}" SET SCHEMA "${retired}"`);
        await trx.raw(`ALTER TABLE "${schema}"."${table}" SET SCHEMA public`);
      }
      const built = await readCheckpoint(trx, checkpoint);
      await trx('projection_checkpoints')
        .where({ name: projector.name })
        .update({
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
    report('done');
    return { events: eventsRead, seconds: (Date.now() - started) / 1000 };
  } finally {
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db('projection_checkpoints').where({ name: checkpoint }).delete();
  }
}

