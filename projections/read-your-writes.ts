import type { Knex } from 'knex';
import type { Position } from '../domain/event-store/port';
import { projectionsReached } from './runner';

/**
 * Waits (bounded) until the named read models have applied `position`, so a query that
 * follows a command sees that command's effect. Answers false on time-out: the caller then
 * serves what is there, never an error.
 */
export async function waitForProjections(db: Knex, names: string[], position: Position | null, timeoutMs = 2000): Promise<boolean> {
  if (!position || names.length === 0) return true;
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 25)) {
    if (await projectionsReached(db, names, position)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
