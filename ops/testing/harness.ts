import supertest from 'supertest';
import { createLogger } from '../../api/logger';
import type { Position } from '../../domain/event-store/port';
import { newestCommitted, waitForEveryCheckpoint } from '../../projections/engine/read-your-writes';
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
    metricsPort: 0,
    logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...options,
  });
  return {
    ...stack,
    agent: () => supertest.agent(stack.url).set('Origin', stack.url),
    settle: (timeoutMs = 30_000) => settle(stack, Date.now() + timeoutMs),
    lastAppended: () => newestCommitted(stack.db),
    async close() {
      await stack.stop();
      await database.drop();
    },
  };
}

/** Until nothing more is appended: process managers append in reaction to what they apply. */
async function settle(stack: Stack, deadline: number): Promise<boolean> {
  for (;;) {
    const { newest, reached } = await waitForEveryCheckpoint(
      stack.db,
      stack.followerNames,
      Math.max(0, deadline - Date.now()),
    );
    if (!reached) return false;
    const after = await newestCommitted(stack.db);
    if (after?.commit === newest?.commit && after?.prepare === newest?.prepare) return true;
  }
}
