import path from 'node:path';
import { createServer } from 'vite';
import { createLogger } from '../api/logger';
import { openDatabaseUrl } from './commands/connect';
import { chatRateLimits, loadConfig } from './config';
import { startStack } from './stack';
import { turnConfig } from './turn';

/**
 * `npm run dev`: the whole stack's API and realtime service on PORT, and Vite's dev server
 * (hot reload) for the web client, proxying /api and /ws to PORT (web/vite.config.ts).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel });
  // vite.config.ts reads PORT for its proxy target.
  process.env.PORT = String(config.port);
  const database = await openDatabaseUrl(config, (line) => logger.info(line));
  const stack = await startStack({
    databaseUrl: database.databaseUrl,
    eventStoreConnectionString: config.eventStoreConnectionString,
    port: config.port,
    host: config.host,
    realtimePort: config.realtimePort,
    allowedOrigins: config.allowedOrigins,
    trustProxy: config.trustProxy,
    metricsPort: config.metricsPort,
    metricsHost: config.metricsHost,
    metricsToken: config.metricsToken,
    turn: turnConfig(config.dataDir),
    chatRateLimits: chatRateLimits(),
    chatRedisUrl: config.redisUrl,
    logger,
  });
  const vite = await createServer({ configFile: path.resolve(__dirname, '../web/vite.config.ts') });
  await vite.listen();
  const local = vite.resolvedUrls?.local[0] ?? `http://localhost:${vite.config.server.port}`;
  logger.info(
    { web: local, api: `http://localhost:${stack.port}/api`, eventStore: stack.store.kind },
    'Lively dev server is running: open the web URL',
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await vite.close().catch((error) => logger.error({ err: error }, 'error stopping vite'));
    await stack.stop().catch((error) => logger.error({ err: error }, 'error stopping the stack'));
    await database.stop().catch((error) => logger.error({ err: error }, 'error stopping PostgreSQL'));
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
