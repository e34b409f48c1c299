import type { Knex } from 'knex';
import { comparePositions, type Position, type RecordedEvent } from '../../domain/event-store/port';
import { positionOf, type CheckpointRow } from './checkpoints';
import { projectionContext, type Projector } from './projector';

/** Another runner (or a rebuild's switch-over) moved the checkpoint: re-read from the stored one. */
export class CheckpointMovedError extends Error {
  constructor(readonly stored: Position) {
    super('projection checkpoint moved');
  }
}

/** Each batch's events by type, found once: a rebuild hands one page to every read model. */
const byType = new WeakMap<RecordedEvent[], Map<string, number[]>>();

/** The events of `batch` the projector reads, in log order. */
function relevantEvents(batch: RecordedEvent[], projector: Projector): RecordedEvent[] {
  let groups = byType.get(batch);
  if (!groups) {
    groups = new Map();
    batch.forEach((event, i) => {
      const group = groups!.get(event.type);
      if (group) group.push(i);
      else groups!.set(event.type, [i]);
    });
    byType.set(batch, groups);
  }
  const indexes = Int32Array.from([...new Set(projector.eventTypes)].flatMap((type) => groups.get(type) ?? [])).sort();
  return Array.from(indexes, (i) => batch[i]);
}

/**
 * Applies a batch and moves the checkpoint in one transaction, to the batch's last event or to
 * `through`, where the log was read to (past events of other types). The checkpoint row is
 * locked and compared first, so a batch is applied once even if two runners ever race.
 */
export async function applyBatch(
  db: Knex | Knex.Transaction,
  projector: Projector,
  target: { schema: string; checkpoint: string },
  from: Position,
  batch: RecordedEvent[],
  through: Position = batch[batch.length - 1].position,
): Promise<Position> {
  const run = async (trx: Knex.Transaction) => {
    const row = await trx<CheckpointRow>('projection_checkpoints')
      .where({ name: target.checkpoint })
      .forUpdate()
      .first();
    if (!row) throw new Error(`no checkpoint row ${target.checkpoint}`);
    const stored = positionOf(row);
    if (comparePositions(stored, from) !== 0) throw new CheckpointMovedError(stored);
    const context = projectionContext(trx, target.schema);
    const relevant = relevantEvents(batch, projector);
    if (projector.applyAll && relevant.length) await projector.applyAll(context, relevant);
    else for (const event of relevant) await projector.apply(context, event);
    const applied = relevant.length;
    await trx('projection_checkpoints')
      .where({ name: target.checkpoint })
      .update({
        commit_position: through.commit.toString(),
        prepare_position: through.prepare.toString(),
        events_applied: trx.raw('events_applied + ?', [applied]),
        updated_at: trx.fn.now(),
      });
  };
  if (db.isTransaction) await run(db as Knex.Transaction);
  else await (db as Knex).transaction(run);
  return through;
}
