import supertest from 'supertest';
import { createLogger } from '../../api/logger';
import { freePort } from '../net';
import { startStack, type Stack, type StackOptions } from '../stack';
import { createTestDatabase } from './test-database';

export interface TestStack extends Stack {
  /** A cookie-keeping client whose mutating calls carry the site's Origin. */
  agent(): supertest.Agent;
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
    async close() {
      await stack.stop();
      await database.drop();
    },
  };
}
