import { existsSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '../api/logger';
import { chatRateLimits, loadConfig } from './config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './database/embedded-postgres';
import { DEMO_LOGIN, SIZES, logIsEmpty, seed } from './commands/seed';
import { defaultWebRoot, startStack } from './stack';
import { turnConfig } from './turn';

/** `npm start`: the whole product on one machine, on embedded PostgreSQL unless DATABASE_URL is set. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel });
  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    const dataDir = path.resolve(config.dataDir, 'postgres');
    logger.info({ dataDir, port: config.embeddedPostgresPort }, 'starting embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({
      dataDir,
      port: config.embeddedPostgresPort,
      log: (line) => logger.debug({ component: 'postgres' }, line.trim()),
    });
    await embedded.createDatabase('lively');
    databaseUrl = embedded.url('lively');
  }
  if (!existsSync(path.join(defaultWebRoot, 'index.html'))) logger.warn('web client not built: run `npm run build`');
  // A newcomer's first start shows a living product: the small demo dataset (README "Demo data").
  if (!config.eventStoreConnectionString && process.env.LIVELY_SEED !== 'false' && (await logIsEmpty(databaseUrl))) {
    logger.info('empty event log: seeding the small demo dataset (set LIVELY_SEED=false to skip)');
    const report = await seed(databaseUrl, SIZES.small, (line) => logger.info({ component: 'seed' }, line));
    logger.info(
      { events: report.events, failures: report.failures.length, demoLogin: DEMO_LOGIN.email },
      'demo data ready',
    );
  }
  const stack = await startStack({
    databaseUrl,
    eventStoreConnectionString: config.eventStoreConnectionString,
    port: config.port,
    host: config.host,
    realtimePort: config.realtimePort,
    webRoot: defaultWebRoot,
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
  logger.info(
    { url: `http://localhost:${stack.port}`, metrics: stack.metricsUrl, eventStore: stack.store.kind },
    'Lively is running',
  );

  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    logger.info({ signal }, 'shutting down');
    await stack.stop().catch((error) => logger.error({ err: error }, 'error while stopping'));
    await embedded?.stop().catch((error) => logger.error({ err: error }, 'error stopping PostgreSQL'));
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
