import pino from 'pino';
import { openEventStore } from '../../domain/event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { startRealtimeServer } from '../../realtime/server';

/**
 * One realtime process of a chat cluster, for realtime/cluster.test.ts:
 * the service on the database in DATABASE_URL (sessions, members, blocks, the log) and the
 * Redis in REDIS_URL, on a free loopback port. Prints `{"port":…}` once listening; SIGTERM
 * stops it cleanly (a test's SIGKILL is the crash).
 */
async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL!;
  const store = await openEventStore({ databaseUrl });
  const db = openReadDatabase(databaseUrl, 5);
  const server = await startRealtimeServer({
    port: 0,
    db,
    store,
    redisUrl: process.env.REDIS_URL!,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
  process.once('SIGTERM', () => {
    void (async () => {
      await server.close();
      await db.destroy();
      await store.close();
      process.exit(0);
    })();
  });
}

if (require.main === module) void main();
