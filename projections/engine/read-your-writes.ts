import type { Knex } from 'knex';
import type { Position } from '../../domain/event-store/port';
import { projectionsReached } from './runner';

/**
 * Waits (bounded) until the named read models have applied `position`, so a query that
 * follows a command sees that command's effect. Answers false on time-out: the caller then
 * serves what is there, never an error.
 */
export async function waitForProjections(
  db: Knex,
  names: string[],
  position: Position | null,
  timeoutMs = 2000,
): Promise<boolean> {
  if (!position || names.length === 0) return true;
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 25)) {
    if (await projectionsReached(db, names, position)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * The newest committed event of the PostgreSQL log. Not `headPosition()`, the newest readable
 * one: that trails while any transaction on the server is open, even in another database.
 */
export async function newestCommitted(db: Knex): Promise<Position | null> {
  const { rows } = await db.raw(
    'SELECT transaction_id::text AS commit, global_position::text AS prepare FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1',
  );
  return rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : null;
}

/**
 * Waits (bounded) until every named projector and process manager has applied the newest
 * committed event. Answers that event and whether they all did. The names come from the
 * caller, not from the checkpoints table: a follower that has not made its checkpoint yet
 * (the runner starts them one by one) has applied nothing, and must be waited for.
 */
export async function waitForEveryCheckpoint(
  db: Knex,
  names: string[],
  timeoutMs: number,
): Promise<{ newest: Position | null; reached: boolean }> {
  const newest = await newestCommitted(db);
  return { newest, reached: await waitForProjections(db, names, newest, timeoutMs) };
}
