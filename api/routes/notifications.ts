import { setTimeout as sleep } from 'node:timers/promises';
import { Router, type Response } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import {
  markNotificationsReadSchema,
  notificationsQuerySchema,
  type NotificationsPush,
  type NotificationsReadResult,
} from '../../domain/contracts/notifications';
import type { EventStore } from '../../domain/event-store/port';
import { markNotificationsRead } from '../../domain/notifications/commands';
import { refuse } from '../../domain/shared/errors';
import { waitForProjections } from '../../projections/engine/read-your-writes';
import {
  newestNotificationCursor,
  notificationNews,
  notificationsPage,
  notificationsProgress,
  notificationsProjector,
  unreadNotificationCount,
  unreadNotificationIds,
} from '../../projections/notifications';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** The top bar's notifications: a page, read marks, and a live stream (server-sent events). */
export function notificationRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const timing = { ...STREAM_TIMING, ...(api.deps.ports.notificationStreams as Partial<StreamTiming> | undefined) };
  const streams = new NotificationStreams(db, store, api.deps.logger, timing);

  // A malformed query is a 400 once signed in; signed out, the gate's 401 is the answer all the same.
  api.pageRead('/notifications', [api.requireUser], async (req, read) =>
    notificationsPage(read, parseWith(notificationsQuerySchema, req.query)),
  );

  router.post('/notifications/read', api.requireUser, async (req, res) => {
    const { ids } = parseWith(markNotificationsReadSchema, req.body);
    const userId = req.userId!;
    // Only what is still unread is worth an event: a second click writes nothing.
    const unread = ids ? await unreadNotificationIds(db, userId, ids) : null;
    const worthMarking = unread ? unread.length > 0 : (await unreadNotificationCount(db, userId)) > 0;
    if (worthMarking) {
      const result = await markNotificationsRead(store, { userId, ids: unread ?? undefined }, api.context(req));
      await waitForProjections(db, [notificationsProjector.name], result.position, 2000);
    }
    const body: NotificationsReadResult = { unreadCount: await unreadNotificationCount(db, userId) };
    res.json(body);
  });

  router.get('/notifications/stream', api.requireUser, async (req, res) => {
    // It takes no parameters; refusing them keeps a malformed request from holding a stream open.
    if (Object.keys(req.query).length > 0) throw refuse.validation('The notification stream takes no parameters');
    await streams.open(req.userId!, res);
  });
  return router;
}

interface StreamTiming {
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
  /** A stream ends after this long and the browser reconnects, so a closed session stops it. */
  maxStreamMs: number;
}

/** Defaults; a stack may replace them through the `notificationStreams` port (tests). */
const STREAM_TIMING: StreamTiming = { heartbeatMs: 25_000, maxStreamMs: 15 * 60_000 };
/** After an append, how long and how often to look whether the read model has applied it. */
const SETTLING_MS = 3000;
const SETTLING_POLL_MS = 100;
/** Without any append, the read model's progress is still looked at this often. */
const IDLE_WAIT_MS = 5000;
/** A client that does not read its stream is dropped rather than buffered for. */
const MAX_BUFFERED_BYTES = 1 << 20;

interface StreamClient {
  userId: string;
  res: Response;
  /** Cursor of the newest notification sent. */
  after: string | null;
  unreadCount: number;
}

/** Waits `ms`, or less when the loop is stopped. */
const delay = (ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => undefined);

/**
 * Every open notification stream of this API process, served by one loop: it wakes when the
 * event store reports an append (or every few seconds), looks whether the notifications read
 * model moved on (one checkpoint row), and then asks in ONE query, for all open streams, what
 * arrived since each was last sent. Works whether or not this process runs the projectors, and
 * holds no database connection per client.
 */
class NotificationStreams {
  private readonly clients = new Set<StreamClient>();
  private loop: AbortController | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Knex,
    private readonly store: EventStore,
    private readonly logger: Logger,
    private readonly timing: StreamTiming,
  ) {}

  async open(userId: string, res: Response): Promise<void> {
    let client: StreamClient | null = null;
    let closed = false;
    res.on('close', () => {
      closed = true;
      if (client) this.clients.delete(client);
      if (this.clients.size === 0) this.stop();
    });
    const [after, unreadCount] = await Promise.all([
      newestNotificationCursor(this.db, userId),
      unreadNotificationCount(this.db, userId),
    ]);
    if (closed) return;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no', // nginx and the like: pass each event on at once
    });
    res.write('retry: 3000\n\n');
    client = { userId, res, after, unreadCount };
    // The first event carries the count, so a notification that arrived between the page's
    // load and this connection is not missed.
    this.send(client, { unreadCount, items: [] });
    const ending = setTimeout(() => res.end(), this.timing.maxStreamMs);
    res.once('close', () => clearTimeout(ending));
    this.clients.add(client);
    this.start();
  }

  private send(client: StreamClient, push: NotificationsPush): void {
    const { res } = client;
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) return void res.end();
    res.write(`event: notifications\ndata: ${JSON.stringify(push)}\n\n`);
  }

  private start(): void {
    if (this.loop) return;
    const loop = new AbortController();
    this.loop = loop;
    this.heartbeat = setInterval(() => {
      for (const { res } of this.clients) if (!res.writableEnded) res.write(': heartbeat\n\n');
    }, this.timing.heartbeatMs);
    void this.follow(loop.signal);
  }

  private stop(): void {
    this.loop?.abort();
    this.loop = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private async follow(signal: AbortSignal): Promise<void> {
    let seen: string | null = null;
    let settlingUntil = 0;
    while (!signal.aborted) {
      try {
        const progress = await notificationsProgress(this.db);
        if (progress !== seen) {
          seen = progress;
          await this.push();
          settlingUntil = Date.now() + SETTLING_MS;
        }
        if (Date.now() < settlingUntil) await delay(SETTLING_POLL_MS, signal);
        else if (await this.store.waitForAppend(IDLE_WAIT_MS, signal)) settlingUntil = Date.now() + SETTLING_MS;
      } catch (error) {
        this.logger.warn({ err: error, component: 'notification-streams' }, 'notification stream update failed');
        await delay(1000, signal);
      }
    }
  }

  private async push(): Promise<void> {
    const clients = [...this.clients];
    if (clients.length === 0) return;
    const news = await notificationNews(
      this.db,
      clients.map(({ userId, after }) => ({ userId, after })),
    );
    news.forEach((update, index) => {
      const client = clients[index];
      if (update.items.length > 0 || update.unreadCount !== client.unreadCount)
        this.send(client, { unreadCount: update.unreadCount, items: update.items });
      client.after = update.after;
      client.unreadCount = update.unreadCount;
    });
  }
}
