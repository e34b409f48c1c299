import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import uWS from 'uWebSockets.js';
import { CHAT_ERRORS, clientMessageSchema, type ServerMessage } from '../domain/contracts/chat';
import type { ChatUserBlocked } from '../domain/chat/events';
import { ACCOUNT_DEACTIVATED_TEXT } from '../domain/contracts/safety';
import { isBlocking } from '../domain/safety/commands';
import { DEACTIVATING_EVENTS, type UserUnblocked } from '../domain/safety/events';
import type { EventStore, Position, Subscription } from '../domain/event-store/port';
import { SESSION_COOKIE } from '../projections/sessions';
import { ChatCluster } from './cluster';
import { compileRequest, matchedMessage, Matcher, type Effect, type Member } from './matcher';
import { cookieValue, DatabaseDirectory, type Admission, type MemberDirectory } from './members';
import { PresenceRecorder } from './presence-recorder';
import { CHAT_RATE_LIMITS, PerUserRateLimit, type ChatRateLimits } from './rate-limits';
import { SessionRecorder } from './session-recorder';

export interface RealtimeServer {
  port: number;
  openSockets(): number;
  /** Matcher and recorder figures (for the benchmark and health). */
  stats(): {
    sockets: number;
    waiting: number;
    inSessions: number;
    recorderBacklog: number;
    recorderFailures: number;
    /** In a cluster (REDIS_URL): whether this process runs the matcher (waiting and inSessions are its figures). */
    owner?: boolean;
  };
  /** The last event of the log the service has taken in: its blocks are current up to there. */
  followed(): Position | null;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  port: number;
  host?: string;
  db?: Knex;
  store?: EventStore;
  clock?: () => Date;
  logger?: Logger;
  /** Who may open a chat socket; by default the read models behind `db`. */
  directory?: MemberDirectory;
  /** Origins whose pages may open a chat socket; when empty, the origin the request was addressed to. */
  allowedOrigins?: string[];
  skipCooldownMs?: number;
  /** Joins and skips per user per minute (default CHAT_RATE_LIMITS). */
  rateLimits?: Partial<ChatRateLimits>;
  /**
   * Redis of the shared chat service: with it this process is one of several that behave as one
   * (realtime/cluster.ts), as REDIS_URL sets it; none (null or unset): matching on this process alone.
   */
  redisUrl?: string | null;
  /** Prefix of the cluster's Redis keys and channels (default `lively:chat`). */
  clusterPrefix?: string;
}

interface SocketData {
  closed: boolean;
  userId: string;
  token: string;
  /** Open order (a later socket of the same user wins). */
  opened: number;
  /** Set once the session is checked (right after open). */
  member: Member | null;
  /** Messages received before that, replayed after it; null once admitted. */
  early: { raw: ArrayBuffer; isBinary: boolean }[] | null;
}
type Socket = uWS.WebSocket<SocketData>;

/** The service's own cap on one client message; the socket's hard cap is higher so an oversized message still gets an answer. */
export const MAX_MESSAGE_BYTES = 32 * 1024;
const MAX_EARLY_MESSAGES = 8;
const MALFORMED = JSON.stringify({ type: 'error', error: CHAT_ERRORS.malformed } satisfies ServerMessage);
const WAITING = JSON.stringify({ type: 'waiting' } satisfies ServerMessage);
const HEARTBEAT_ACK = JSON.stringify({ type: 'heartbeat_ack' } satisfies ServerMessage);
/** How often ended skip cool-downs are swept (a pair alone in the queue meets again within this). */
const COOLDOWN_SWEEP_MS = 1000;
const SOCKET_LIMITS = { maxPayloadLength: 128 * 1024, maxBackpressure: 256 * 1024, idleTimeout: 120 } as const;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * A socket opened by a page of another site would carry the member's cookie (cross-site
 * WebSocket hijacking): the handshake's Origin must be allowed, as for mutating HTTP calls
 * (api/http/origin-check.ts). None configured: the host the request was addressed to, by either
 * scheme (behind a TLS proxy the socket itself is plain). uWS reads a missing header as ''.
 */
export function originAllowed(origin: string, host: string, allowedOrigins: readonly string[]): boolean {
  if (allowedOrigins.length > 0) return allowedOrigins.includes(origin);
  return host !== '' && (origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * The realtime service on uWebSockets.js: the chat socket /ws/chat?userId=… (SPEC §7), reached
 * through the web origin's /ws/ path (the API server forwards upgrades here). Matching is the
 * pure Matcher on this event loop; session events are written by the SessionRecorder off the
 * hot path.
 */
export async function startRealtimeServer(options: RealtimeOptions): Promise<RealtimeServer> {
  const log = options.logger ?? pino({ level: 'silent' });
  const clock = options.clock ?? (() => new Date());
  const directory = options.directory ?? (options.db ? new DatabaseDirectory(options.db) : null);
  const allowedOrigins = options.allowedOrigins ?? [];
  const recorder = options.store ? new SessionRecorder(options.store, log) : null;
  const presence = options.store ? new PresenceRecorder(options.store, log) : null;
  const matcher = new Matcher({ newSessionId: randomUUID, skipCooldownMs: options.skipCooldownMs });
  const redisUrl = options.redisUrl ?? null;
  /** In a cluster, the matcher above stays unused: the bucket owner's runs (whichever process that is). */
  let cluster: ChatCluster | null = null;
  /** The one open chat socket of each user. */
  const sockets = new Map<string, Socket>();
  /** Block sets of connected users, shared with their Member objects so a new block applies at once. */
  const blockSets = new Map<string, Set<string>>();
  /**
   * Blocks and unblocks that arrive while a member's admission reads their block list from the
   * database: the follower records them here too, so a change between that read and `admitted` is not lost.
   */
  const arriving = new Map<string, ArrivingBlocks>();
  const startAdmission = (userId: string) => {
    const entry = arriving.get(userId) ?? { admissions: 0, blocked: new Set<string>(), unblocked: new Set<string>() };
    entry.admissions++;
    arriving.set(userId, entry);
    return entry.blocked;
  };
  const endAdmission = (userId: string) => {
    const entry = arriving.get(userId);
    if (entry && --entry.admissions === 0) arriving.delete(userId);
  };
  let open = 0;
  let opening = 0;

  /** Writes one message now; a client that stopped reading (send dropped) cannot follow a chat: closed. */
  const write = (ws: Socket, text: string): void => {
    if (ws.getUserData().closed) return;
    if (ws.send(text) === 2) {
      log.warn(
        { userId: ws.getUserData().userId, buffered: ws.getBufferedAmount() },
        'chat socket over its backpressure limit: closing',
      );
      ws.getUserData().closed = true;
      ws.end(1013, 'Too slow');
    }
  };

  /**
   * Messages to sockets other than the one being served wait in an outbox until the end of the
   * event-loop turn, then go out corked, one write per socket for all its messages (uWS cannot
   * cork a second socket inside a handler, so each would be a syscall of its own). A socket's
   * messages keep their order: once it has an outbox, everything for it goes through it.
   */
  const outbox = new Map<Socket, string[]>();
  let serving: Socket | null = null;
  const flush = () => {
    const boxes = [...outbox];
    outbox.clear();
    for (const [ws, texts] of boxes) flushOne(ws, texts);
  };
  const flushOne = (ws: Socket, texts: string[]) => {
    if (ws.getUserData().closed) return;
    if (texts.length === 1) return write(ws, texts[0]);
    ws.cork(() => {
      for (const text of texts) write(ws, text);
    });
  };
  const deliver = (ws: Socket | undefined, text: string): void => {
    if (!ws || ws.getUserData().closed) return;
    const queued = outbox.get(ws);
    if (queued) queued.push(text);
    else if (ws === serving) write(ws, text);
    else {
      if (outbox.size === 0) setImmediate(flush);
      outbox.set(ws, [text]);
    }
  };
  const send = (ws: Socket | undefined, message: ServerMessage): void => deliver(ws, JSON.stringify(message));
  /** Says why, then closes (what waits in the socket's outbox goes first). */
  const closeWith = (ws: Socket, error: string, code: number, reason: string) => {
    const queued = outbox.get(ws);
    outbox.delete(ws);
    flushOne(ws, [...(queued ?? []), JSON.stringify({ type: 'error', error } satisfies ServerMessage)]);
    if (ws.getUserData().closed) return;
    ws.getUserData().closed = true;
    ws.end(code, reason);
  };
  const toUser = (userId: string, message: ServerMessage) => send(sockets.get(userId), message);

  const apply = (effects: Effect[]) => {
    for (const effect of effects) {
      if (effect.type === 'waiting') deliver(sockets.get(effect.userId), WAITING);
      else if (effect.type === 'matched') {
        const { session } = effect;
        recorder?.started(session, new Date(session.startedAt));
        for (const [me, peer] of [
          [session.user1, session.user2],
          [session.user2, session.user1],
        ]) {
          toUser(me.userId, matchedMessage(session, me, peer));
        }
      } else {
        const { session, endedBy, reason, at } = effect;
        recorder?.ended(session, endedBy, reason, new Date(at));
        for (const user of [session.user1, session.user2])
          if (user.userId !== endedBy) toUser(user.userId, { type: 'skipped', sessionId: session.id });
      }
    }
  };

  const now = options.clock ? () => clock().getTime() : Date.now;
  const sweep = setInterval(() => {
    if (cluster) return; // the bucket owner sweeps its own
    try {
      apply(matcher.expireCooldowns(now()));
    } catch (error) {
      log.error({ err: error, component: 'realtime' }, 'chat cool-down sweep failed');
    }
  }, COOLDOWN_SWEEP_MS);
  sweep.unref();

  // Rate limits: joins and skips per user per minute; a refused one is not carried out.
  const limits = { ...CHAT_RATE_LIMITS, ...options.rateLimits };
  const joins = new PerUserRateLimit(limits.joinsPerMinute);
  const skips = new PerUserRateLimit(limits.skipsPerMinute);
  const limitSweep = setInterval(() => {
    joins.sweep(now());
    skips.sweep(now());
  }, 60_000);
  limitSweep.unref();

  const handle = (ws: Socket, raw: ArrayBuffer, isBinary: boolean) => {
    const data = ws.getUserData();
    if (!data.member) return deliver(ws, MALFORMED);
    if (raw.byteLength > MAX_MESSAGE_BYTES) return send(ws, { type: 'error', error: CHAT_ERRORS.tooLarge });
    let text: string;
    let parsed: unknown;
    try {
      if (isBinary) throw new Error('binary');
      text = decoder.decode(raw);
      parsed = JSON.parse(text);
    } catch {
      return deliver(ws, MALFORMED);
    }
    const me = data.member;
    // Fast path for what a chat sends most (heartbeats, signalling); the schema decides the rest.
    const type = typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;
    if (type === 'heartbeat') return deliver(ws, HEARTBEAT_ACK);
    if (type === 'offer' || type === 'answer' || type === 'ice_candidate') {
      const message = parsed as { sessionId?: unknown; data?: unknown };
      if (typeof message.sessionId !== 'string' || message.sessionId.length < 1 || message.sessionId.length > 100)
        return deliver(ws, MALFORMED);
      return relay(
        me,
        type,
        message.sessionId,
        message.data,
        Object.keys(message).length === 3 && 'data' in message ? text : null,
      );
    }
    const result = clientMessageSchema.safeParse(parsed);
    if (!result.success) return deliver(ws, MALFORMED);
    const message = result.data;
    switch (message.type) {
      case 'join_queue':
        if (!joins.take(me.userId, now())) return send(ws, { type: 'error', error: CHAT_ERRORS.tooManyJoins });
        if (cluster) return cluster.join(me, message.mode, message.filters);
        return apply(matcher.join(me, compileRequest(me, message.mode, message.filters), now()));
      case 'skip':
        if (!skips.take(me.userId, now())) return send(ws, { type: 'error', error: CHAT_ERRORS.tooManySkips });
        if (cluster) return cluster.skip(me.userId, message.sessionId);
        return apply(matcher.skip(me.userId, message.sessionId, now()));
      case 'leave':
        return leaveChat(me.userId, 'left');
      default:
        return;
    }
  };

  /**
   * Signalling goes to the partner of the current session only; a stale session's message is
   * dropped. A message that is exactly {type, sessionId, data} is already the server message:
   * its text is forwarded as it came.
   */
  const relay = (
    me: Member,
    type: 'offer' | 'answer' | 'ice_candidate',
    sessionId: string,
    data: unknown,
    asIs: string | null,
  ) => {
    if (cluster) return cluster.relay(me.userId, type, sessionId, data, asIs);
    const session = matcher.sessionOf(me.userId);
    if (!session || session.id !== sessionId) return;
    const partner = session.user1.userId === me.userId ? session.user2 : session.user1;
    deliver(sockets.get(partner.userId), asIs ?? JSON.stringify({ type, sessionId, data } satisfies ServerMessage));
  };

  /** Admission finished: the socket becomes the user's chat socket, or says why not and closes. */
  const admitted = (ws: Socket, admission: Admission) => {
    const data = ws.getUserData();
    if (data.closed) return;
    if (!admission.ok || admission.refusal) {
      const [error, code] = !admission.ok
        ? [admission.reason, admission.status.startsWith('401') ? 4401 : 4403]
        : [admission.refusal!, 4003];
      return closeWith(ws, error, code, 'Chat not available');
    }
    const blocked = blockSets.get(admission.member.userId) ?? (admission.member.blocked as Set<string>);
    const changed = arriving.get(admission.member.userId);
    for (const id of changed?.unblocked ?? []) blocked.delete(id);
    for (const id of changed?.blocked ?? []) blocked.add(id);
    data.member = { ...admission.member, blocked };
    data.token = ''; // not needed any more: an idle socket holds as little as possible
    // One chat socket per user: the newest opened replaces the older (the older leaves its chat),
    // whichever session check finished first.
    const older = sockets.get(data.userId);
    if (older && older.getUserData().opened > data.opened)
      return closeWith(ws, 'Chat was opened in another window.', 4000, 'Replaced');
    if (older) {
      sockets.delete(data.userId);
      leaveChat(data.userId, 'disconnected');
      closeWith(older, 'Chat was opened in another window.', 4000, 'Replaced');
    } else presence?.online(data.userId, clock());
    sockets.set(data.userId, ws);
    blockSets.set(data.userId, blocked);
    ws.cork(() => {
      serving = ws;
      send(ws, { type: 'connected', userId: data.userId });
      // Messages that arrived while the session was being checked, in order.
      const early = data.early;
      data.early = null;
      for (const message of early ?? []) if (!data.closed) receive(ws, message.raw, message.isBinary);
      serving = null;
    });
  };

  /** Out of the queue and any session (the partner is told and re-queued). */
  const leaveChat = (userId: string, reason: 'left' | 'disconnected') => {
    if (cluster) cluster.leave(userId, reason);
    else apply(matcher.leave(userId, reason, now()));
  };

  /**
   * In a cluster the member is claimed for this process before the socket is admitted (an older
   * socket of theirs on another process closes); a socket gone meanwhile lets the claim go.
   */
  const attach = async (ws: Socket, admission: Admission) => {
    const data = ws.getUserData();
    if (!cluster || !admission.ok || admission.refusal || data.closed) return;
    await cluster.attach(data.userId);
    if (data.closed && !sockets.has(data.userId)) cluster.detach(data.userId);
  };

  const receive = (ws: Socket, message: ArrayBuffer, isBinary: boolean) => {
    try {
      handle(ws, message, isBinary);
    } catch (error) {
      log.error({ err: error, component: 'realtime' }, 'chat message failed');
      send(ws, { type: 'error', error: 'An error occurred' });
    }
  };

  const app = uWS.App();
  app.ws<SocketData>('/ws/*', {
    ...SOCKET_LIMITS,
    // The upgrade is synchronous: uWS's own cork() may close a socket upgraded later, from a
    // promise (uNetworking/uWebSockets#1928: the HTTP state it reads after an in-place realloc
    // is WebSocket memory). The session is checked right after open; until then the socket
    // holds its messages, and a refused socket gets the reason and a 44xx close code.
    upgrade: (res, req, context) => {
      const url = req.getUrl();
      const query = req.getQuery() ?? '';
      const token = cookieValue(req.getHeader('cookie'), SESSION_COOKIE);
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const origin = req.getHeader('origin');
      const host = req.getHeader('host');
      if (url !== '/ws/chat') return void res.writeStatus('404 Not Found').end('Not found');
      if (!originAllowed(origin, host, allowedOrigins))
        return void res.writeStatus('403 Forbidden').end('Cross-origin request refused');
      if (!directory) return void res.writeStatus('503 Service Unavailable').end('Chat is not available');
      const userId = new URLSearchParams(query).get('userId');
      // Refusals that need no lookup stay HTTP refusals.
      if (!token) return void res.writeStatus('401 Unauthorized').end('Unauthorized');
      if (!userId) return void res.writeStatus('403 Forbidden').end('Forbidden');
      res.upgrade<SocketData>(
        { closed: false, userId, token, opened: ++opening, member: null, early: [] },
        key,
        protocol,
        extensions,
        context,
      );
    },
    open: (ws) => {
      open++;
      const data = ws.getUserData();
      startAdmission(data.userId);
      directory!
        .admit(data.token, data.userId)
        .then(async (admission) => {
          await attach(ws, admission);
          admitted(ws, admission);
        })
        .finally(() => endAdmission(data.userId))
        .catch((error) => {
          log.error({ err: error, component: 'realtime' }, 'chat admission failed');
          if (!data.closed) closeWith(ws, 'An error occurred', 1011, 'Internal error');
        });
    },
    message: (ws, message, isBinary) => {
      const data = ws.getUserData();
      if (data.early) {
        // Not admitted yet: keep a copy (uWS reuses the buffer), a few messages at most.
        if (data.early.length >= MAX_EARLY_MESSAGES || message.byteLength > MAX_MESSAGE_BYTES)
          return send(ws, { type: 'error', error: CHAT_ERRORS.malformed });
        data.early.push({ raw: message.slice(0), isBinary });
        return;
      }
      serving = ws;
      receive(ws, message, isBinary);
      serving = null;
    },
    close: (ws) => {
      open--;
      const data = ws.getUserData();
      data.closed = true;
      outbox.delete(ws);
      if (sockets.get(data.userId) !== ws) return;
      sockets.delete(data.userId);
      blockSets.delete(data.userId);
      presence?.offline(data.userId, clock());
      try {
        if (cluster) cluster.detach(data.userId);
        else apply(matcher.leave(data.userId, 'disconnected', now()));
      } catch (error) {
        log.error({ err: error, component: 'realtime' }, 'chat leave failed');
      }
    },
  });
  app.get('/health', (res) => {
    res.end('ok');
  });

  // One process alone: whoever shows online from before its restart is not any more. In a cluster
  // the other processes' members are online: a restart leaves them be.
  if (presence && options.db && !redisUrl) await presence.settleAfterRestart(options.db, clock());
  if (redisUrl)
    cluster = await ChatCluster.join({
      redisUrl,
      prefix: options.clusterPrefix,
      recorder,
      log,
      skipCooldownMs: options.skipCooldownMs,
      now,
      deliver: (userId, text) => deliver(sockets.get(userId), text),
      memberOf: (userId) => sockets.get(userId)?.getUserData().member ?? null,
      replaced: (userId) => {
        const ws = sockets.get(userId);
        if (ws) closeWith(ws, 'Chat was opened in another window.', 4000, 'Replaced');
      },
    });
  const follower =
    options.store && directory
      ? await followChatEvents(
          options.store,
          directory,
          sockets,
          { blockSets, arriving, owned: cluster?.ownerBlockSets },
          log,
          (userId) => {
            // Suspended or banned: the open chat ends now (the partner is told as for a disconnect).
            const ws = sockets.get(userId);
            if (ws) closeWith(ws, ACCOUNT_DEACTIVATED_TEXT, 4403, 'Account deactivated');
          },
        )
      : null;

  const listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) => {
    app.listen(options.host ?? '127.0.0.1', options.port, (socket) =>
      socket ? resolve(socket) : reject(new Error(`realtime: cannot listen on ${options.port}`)),
    );
  });
  return {
    port: uWS.us_socket_local_port(listenSocket),
    openSockets: () => open,
    stats: () => ({
      sockets: open,
      ...(cluster ? cluster.stats() : matcher.stats()),
      recorderBacklog: recorder?.backlog() ?? 0,
      recorderFailures: recorder?.failed() ?? 0,
    }),
    followed: () => follower?.followed() ?? null,
    async close() {
      clearInterval(sweep);
      clearInterval(limitSweep);
      uWS.us_listen_socket_close(listenSocket);
      app.close();
      await cluster?.close();
      await follower?.subscription.close();
      await recorder?.drain();
      await presence?.drain();
    },
  };
}

/** A connected member's profile, preferences or photos changed: what their next join uses (and shows the partner). */
const RELOADING_EVENTS = new Set([
  'ChatProfileSaved',
  'ChatPreferencesSaved',
  'ChatProfileImageAdded',
  'ChatProfileImageRemoved',
  'ChatProfileImagesReordered',
]);

/** What the follower saw change in a member's blocks while their admission was reading them. */
interface ArrivingBlocks {
  admissions: number;
  blocked: Set<string>;
  unblocked: Set<string>;
}

/**
 * Keeps connected members current: a new block or a lifted one applies to the matcher at once
 * (blocked pairs are never matched; a pair is free again once neither blocks the other); a saved profile,
 * preferences or photos are used from the member's next join; a suspended or banned member is
 * `deactivated` (their socket closes) within moments of the event.
 */
async function followChatEvents(
  store: EventStore,
  directory: MemberDirectory,
  sockets: Map<string, Socket>,
  blocks: {
    blockSets: Map<string, Set<string>>;
    arriving: Map<string, Omit<ArrivingBlocks, 'admissions'>>;
    /** In a cluster's owning process: the block sets of the members its matcher holds (from any process). */
    owned?: Map<string, Set<string>>;
  },
  log: Logger,
  deactivated: (userId: string) => void,
): Promise<{ subscription: Subscription; followed(): Position | null }> {
  // A deleted account's socket closes like a suspended one's (issue 23).
  const deactivating = new Set<string>([...DEACTIVATING_EVENTS, 'AccountDeleted']);
  let followed = await store.headPosition();
  const subscription = store.subscribeToAll({ after: followed });
  void (async () => {
    try {
      for await (const event of subscription) {
        if (event.type === 'ChatUserBlocked' || event.type === 'UserBlocked') {
          const { blockerId, blockedId } = (event as unknown as ChatUserBlocked).data;
          for (const [who, whom] of [
            [blockerId, blockedId],
            [blockedId, blockerId],
          ]) {
            blocks.blockSets.get(who)?.add(whom);
            blocks.owned?.get(who)?.add(whom);
            blocks.arriving.get(who)?.blocked.add(whom);
            blocks.arriving.get(who)?.unblocked.delete(whom);
          }
        } else if (event.type === 'UserUnblocked') {
          const { blockerId, blockedId } = (event as unknown as UserUnblocked).data;
          const concerned = [blockerId, blockedId].some(
            (id) => blocks.blockSets.has(id) || blocks.arriving.has(id) || blocks.owned?.has(id),
          );
          // The pair stays apart while the other one still blocks them (a block list of its own).
          if (concerned && !(await isBlocking(store, blockedId, blockerId)))
            for (const [who, whom] of [
              [blockerId, blockedId],
              [blockedId, blockerId],
            ]) {
              blocks.blockSets.get(who)?.delete(whom);
              blocks.owned?.get(who)?.delete(whom);
              blocks.arriving.get(who)?.blocked.delete(whom);
              blocks.arriving.get(who)?.unblocked.add(whom);
            }
        } else if (deactivating.has(event.type)) {
          deactivated((event.data as { userId: string }).userId);
        } else if (RELOADING_EVENTS.has(event.type)) {
          const userId = (event.data as { userId: string }).userId;
          const blocked = blocks.blockSets.get(userId);
          const member = blocked ? await directory.load(userId, blocked) : null;
          const ws = sockets.get(userId);
          if (member && ws && !ws.getUserData().closed) ws.getUserData().member = member;
        }
        followed = event.position;
      }
    } catch (error) {
      log.error({ err: error, component: 'realtime' }, 'chat event subscription ended');
    }
  })();
  return { subscription, followed: () => followed };
}
