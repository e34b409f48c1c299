import supertest from 'supertest';
import { createLogger } from '../../api/logger';
import type { Position } from '../../domain/event-store/port';
import { waitForProjections } from '../../projections/read-your-writes';
import { freePort } from '../net';
import { startStack, type Stack, type StackOptions } from '../stack';
import { createTestDatabase } from './test-database';

export interface TestStack extends Stack {
  /** A cookie-keeping client whose mutating calls carry the site's Origin. */
  agent(): supertest.Agent;
  /**
   * Waits until every projector and process manager has applied the whole log, including what
   * process managers append in reaction; false on time-out.
   */
  settle(timeoutMs?: number): Promise<boolean>;
  /** The newest committed event of this test's database (readable once older transactions end). */
  lastAppended(): Promise<Position | null>;
  close(): Promise<void>;
}

/**
 * The real product on a fresh database for one test file: real PostgreSQL, event store,
 * projectors, process managers, HTTP server and realtime service.
 */
export async function startTestStack(options: Partial<StackOptions> = {}): Promise<TestStack> {
  const database = await createTestDatabase();
  const stack = await startStack({
    databaseUrl: database.url,
    port: 0,
    realtimePort: await freePort(),
    logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...options,
  });
  return {
    ...stack,
    agent: () => supertest.agent(stack.url).set('Origin', stack.url),
    settle: (timeoutMs = 30_000) => settle(stack, Date.now() + timeoutMs),
    lastAppended: () => lastAppended(stack),
    async close() {
      await stack.stop();
      await database.drop();
    },
  };
}

/**
 * The newest committed event of this database. Not `headPosition()`: that is the newest
 * *readable* event, which trails while any transaction on the shared server is open, so a wait
 * for it could end before this file's own appends were applied.
 */
async function lastAppended(stack: Stack): Promise<Position | null> {
  const { rows } = await stack.db.raw(
    'SELECT transaction_id::text AS commit, global_position::text AS prepare FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1',
  );
  return rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : null;
}

async function settle(stack: Stack, deadline: number): Promise<boolean> {
  for (;;) {
    const last = await lastAppended(stack);
    const names = (await stack.db('projection_checkpoints').select('name')).map((row: { name: string }) => row.name).filter((name: string) => !name.endsWith('@rebuild'));
    if (!(await waitForProjections(stack.db, names, last, Math.max(0, deadline - Date.now())))) return false;
    const after = await lastAppended(stack);
    if (after?.commit === last?.commit && after?.prepare === last?.prepare) return true;
  }
}
