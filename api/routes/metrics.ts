import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type Express, type RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EventStore, NewEvent } from '../../domain/event-store/port';
import type { Api } from '../kit';
import { projectionHealth } from './health';

/** What the realtime service reports (realtime/server.ts), when the stack hands it over as a port. */
interface RealtimeFigures {
  openSockets(): number;
  stats?(): { waiting?: number; inSessions?: number; recorderBacklog?: number; recorderFailures?: number };
}

type AppendListener = (events: NewEvent[]) => void;
const appendListeners = new WeakMap<EventStore, Set<AppendListener>>();

/**
 * Calls `listener` with the events of every successful append on `store`: the small hook in
 * the append path that counts events by type without touching the adapters.
 */
export function onAppend(store: EventStore, listener: AppendListener): void {
  let listeners = appendListeners.get(store);
  if (!listeners) {
    const registered = new Set<AppendListener>();
    listeners = registered;
    appendListeners.set(store, registered);
    const append = store.append.bind(store);
    (store as { append: EventStore['append'] }).append = async (streamId, events, options) => {
      const result = await append(streamId, events, options);
      for (const notify of registered) notify(events);
      return result;
    };
  }
  listeners.add(listener);
}

/** A bounded route label: the route pattern, never the raw URL (ids would explode the series). */
function routeLabel(req: Parameters<RequestHandler>[0]): string {
  const path = req.route?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  if (path) return 'web';
  return req.originalUrl.startsWith('/api/') ? 'unmatched' : 'static';
}

/**
 * Prometheus metrics (GET /metrics at the root of the metrics port, see `metricsApp`): HTTP request durations by route and status,
 * events appended by type, projection lag per projection, open chat sockets, the chat queue,
 * matches made, plus Node.js process metrics. One registry per app, so test stacks in one
 * process do not collide.
 */
export function createMetrics(api: Api): { middleware: RequestHandler; router: Router; registry: Registry } {
  const { deps } = api;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'lively_' });
  const realtime = () => deps.ports.realtime as RealtimeFigures | undefined;

  const http = new Histogram({
    name: 'lively_http_request_duration_seconds',
    help: 'HTTP request durations by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const appended = new Counter({
    name: 'lively_events_appended_total',
    help: 'Events appended by this process, by type',
    labelNames: ['type'],
    registers: [registry],
  });
  const matches = new Counter({
    name: 'lively_chat_matches_total',
    help: 'Chat matches made (ChatSessionStarted events written by this process)',
    registers: [registry],
  });
  onAppend(deps.store, (events) => {
    for (const event of events) {
      appended.inc({ type: event.type });
      if (event.type === 'ChatSessionStarted') matches.inc();
    }
  });

  new Gauge({
    name: 'lively_projection_lag_events',
    help: 'Events in the log after each projection checkpoint (-1: unknown on this event store, behind)',
    labelNames: ['projection'],
    registers: [registry],
    async collect() {
      this.reset();
      const stored: string[] = (await deps.db('projection_checkpoints').select('name'))
        .map((row: { name: string }) => row.name)
        .filter((name: string) => !name.endsWith('@rebuild'));
      const names = [...new Set([...deps.projectionNames, ...stored])];
      for (const projection of await projectionHealth(deps.db, deps.store, names)) {
        this.set({ projection: projection.name }, projection.lag ?? (projection.caughtUp ? 0 : -1));
      }
    },
  });
  const gauge = (name: string, help: string, read: (figures: RealtimeFigures) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const figures = realtime();
        const value = figures ? read(figures) : undefined;
        if (value !== undefined) this.set(value);
      },
    });
  gauge('lively_chat_open_sockets', 'Open chat WebSockets', (r) => r.openSockets());
  gauge('lively_chat_queue_waiting', 'Members waiting in the chat matching queue', (r) => r.stats?.().waiting);
  gauge('lively_chat_in_sessions', 'Members in a chat session', (r) => r.stats?.().inSessions);
  gauge(
    'lively_chat_recorder_backlog',
    'Chat session events queued for the event store',
    (r) => r.stats?.().recorderBacklog,
  );

  const middleware: RequestHandler = (req, res, next) => {
    const stop = http.startTimer();
    res.on('finish', () => stop({ method: req.method, route: routeLabel(req), status: String(res.statusCode) }));
    next();
  };
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return { middleware, router, registry };
}

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * /metrics on the public port: figures about the whole product (routes, volumes, process) are
 * for the operator, so only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise), and
 * with no token configured not at all (404; the metrics port serves them).
 */
export function metricsOnPublicPort(router: Router, token: string | null): RequestHandler {
  return (req, res, next) => {
    if (req.path !== '/metrics') return next();
    if (!token) return void res.status(404).json({ error: 'Not found', code: 'NOT_FOUND' });
    const given = /^Bearer (.+)$/.exec(req.get('Authorization') ?? '')?.[1] ?? '';
    if (!sameSecret(given, token))
      return void res
        .status(401)
        .set('WWW-Authenticate', 'Bearer')
        .json({ error: 'Unauthorized', code: 'UNAUTHORIZED' });
    router(req, res, next);
  };
}

/** The app of the metrics port (METRICS_PORT, on loopback by default): GET /metrics and nothing else. */
export function metricsApp(router: Router): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(router);
  app.use((_req, res) => void res.status(404).json({ error: 'Not found', code: 'NOT_FOUND' }));
  return app;
}

/** Listens with `metricsApp` on host:port (0: a free port); its URL and how to stop it. */
export async function startMetricsServer(
  router: Router,
  port: number,
  host: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(metricsApp(router));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}
