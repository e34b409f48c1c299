import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { createProxyServer } from 'http-proxy-3';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createApp } from '../api/app';
import { startMetricsServer } from '../api/routes/metrics';
import type { AppDependencies } from '../api/dependencies';
import { createHttpServer } from '../api/http/server';
import { createLogger } from '../api/logger';
import { openEventStore } from '../domain/event-store';
import type { EventStore } from '../domain/event-store/port';
import type { ProcessManager } from '../domain/shared/process-manager';
import { openReadDatabase } from '../projections/engine/database';
import { migrateToLatest } from '../projections/migrations';
import { processManagerFollower } from '../projections/engine/process-managers';
import { allProjectors } from '../projections/engine/registry';
import { ProjectionRunner } from '../projections/engine/runner';
import { startRealtimeServer, type RealtimeServer } from '../realtime/server';
import type { ChatRateLimits } from '../realtime/rate-limits';
import { personalDataKey } from './personal-data-key';
import { startTickers, type RunningTickers } from './tickers';
import { startTurn, type TurnConfig } from './turn';
import { allProcessManagers, allTickers, createPorts, startMedia } from './wiring';

export interface StackOptions {
  databaseUrl: string;
  eventStoreConnectionString?: string | null;
  port: number;
  host?: string;
  realtimePort: number;
  webRoot?: string;
  /** See AppDependencies; tests on a loaded machine give it longer. */
  memberPageBudgetMs?: number;
  allowedOrigins?: string[];
  trustProxy?: boolean;
  logger?: Logger;
  clock?: () => Date;
  /** Extra or replacement ports (tests inject sandbox settings here). */
  ports?: Record<string, unknown>;
  /** GET /metrics on its own port (0: a free one; none: not served there), on `metricsHost` (default loopback). */
  metricsPort?: number | null;
  metricsHost?: string;
  /** With it, GET /metrics also answers on the public port to `Authorization: Bearer <token>`. */
  metricsToken?: string | null;
  /** The TURN relay for chat calls (ops/turn.ts); default: none, public STUN only. */
  turn?: TurnConfig;
  /** Chat joins and skips per member per minute (default CHAT_RATE_LIMITS). */
  chatRateLimits?: Partial<ChatRateLimits>;
  /** Redis shared by the chat service's processes (REDIS_URL); unset: chat on this process alone. */
  chatRedisUrl?: string | null;
  /** The personal-data key store's own key (default: ops/personal-data-key.ts); null: events unsealed. */
  personalDataKey?: Buffer | null;
}

export interface Stack {
  url: string;
  port: number;
  store: EventStore;
  db: Knex;
  deps: AppDependencies;
  realtime: RealtimeServer;
  runner: ProjectionRunner;
  /** Every projector's and process manager's name: what has to catch up for the stack to be settled. */
  followerNames: string[];
  /** Clock-driven work (renewals, settlement checks); `runOnce()` lets tests drive it. */
  tickers: RunningTickers;
  /** Where Prometheus scrapes GET /metrics (null: no metrics port). */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

/**
 * The whole product in one process: event store, migrations, projectors and process
 * managers, the realtime service, and the HTTP server (API + web client) that forwards
 * WebSocket upgrades on /ws/ to the realtime service.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const logger = options.logger ?? createLogger();
  const clock = options.clock ?? (() => new Date());
  const store = await openEventStore({
    databaseUrl: options.databaseUrl,
    eventStoreConnectionString: options.eventStoreConnectionString ?? undefined,
    personalDataKey:
      options.personalDataKey === null
        ? undefined
        : (options.personalDataKey ?? personalDataKey(process.env.LIVELY_DATA_DIR || '.data')),
  });
  const db = openReadDatabase(options.databaseUrl, 20);
  await migrateToLatest(db);

  const ports = { ...createPorts({ db, logger }), ...options.ports };
  const managers: ProcessManager[] = allProcessManagers(ports);
  const followers = [...allProjectors, ...managers.map((m) => processManagerFollower(m, store, clock))];
  const runner = new ProjectionRunner(store, db, followers, {
    databaseUrl: options.databaseUrl,
    log: (message, fields) => logger.info({ ...fields, component: 'projections' }, message),
  });
  await runner.start();
  const tickers = startTickers(allTickers(ports), { store, db, clock, logger });
  const media = await startMedia(ports, { databaseUrl: options.databaseUrl, store, db, clock, logger });

  // The API has its own pool (generic plans, see openReadDatabase): projection work never holds
  // the connections requests wait for.
  const apiDb = openReadDatabase(options.databaseUrl, 20, { genericPlans: true });
  const realtime = await startRealtimeServer({
    port: options.realtimePort,
    db,
    store,
    clock,
    logger,
    allowedOrigins: options.allowedOrigins ?? [],
    rateLimits: options.chatRateLimits,
    redisUrl: options.chatRedisUrl ?? null,
  });
  ports.realtime = realtime; // for GET /metrics (open sockets, queue, matches)
  const turn = await startTurn(options.turn ?? { kind: 'none', reason: null, stunUrls: null }, logger);
  ports.iceServers ??= turn.iceServers; // GET /api/chat/ice-servers
  const deps: AppDependencies = {
    store,
    db: apiDb,
    logger,
    clock,
    projectionNames: allProjectors.map((p) => p.name),
    allowedOrigins: options.allowedOrigins ?? [],
    webRoot: options.webRoot,
    memberPageBudgetMs: options.memberPageBudgetMs,
    trustProxy: options.trustProxy ?? false,
    ports,
    metricsToken: options.metricsToken ?? null,
  };
  const { app, metrics } = createApp(deps);
  const server = createHttpServer(app);
  const proxy = createProxyServer({ target: `http://127.0.0.1:${realtime.port}`, ws: true, xfwd: true });
  proxy.on('error', (_error, _req, socket) => {
    if ('destroy' in socket) socket.destroy();
  });
  // Upgraded sockets leave express but still hold server.close() open: track them to end them.
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/ws/')) return socket.destroy();
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    proxy.ws(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const metricsServer =
    options.metricsPort == null
      ? null
      : await startMetricsServer(metrics.router, options.metricsPort, options.metricsHost ?? '127.0.0.1');

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop taking requests, let in-flight ones finish, then stop followers and close the stores.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const socket of upgraded) socket.destroy();
      const deadline = setTimeout(() => server.closeAllConnections(), 5000);
      await closed;
      clearTimeout(deadline);
      await metricsServer?.close();
      proxy.close();
      await realtime.close();
      await turn.stop();
      await tickers.stop();
      await media.stop();
      await runner.stop();
      await apiDb.destroy();
      await db.destroy();
      await store.close();
    })());

  return {
    url,
    port,
    store,
    db,
    deps,
    realtime,
    runner,
    followerNames: followers.map((f) => f.name),
    tickers,
    metricsUrl: metricsServer?.url ?? null,
    stop,
  };
}

export const defaultWebRoot = path.resolve(__dirname, '../web/dist');
