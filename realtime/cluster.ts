import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ServerMessage } from '../domain/contracts/chat';
import { BucketOwner, OwnerLease } from './bucket-owner';
import {
  BEAT_MS,
  BUCKET,
  clusterKeys,
  DEFAULT_PREFIX,
  matchedLine,
  parseMatchedLine,
  parseSignalLine,
  signalLine,
  toWire,
  TTL_MS,
  type ClusterKeys,
  type ToOwner,
  type ToProcess,
} from './cluster-protocol';
import type { ChatMode, JoinFilters, Member } from './matcher';
import { connectRedisBus, type RedisBus } from './redis-bus';
import type { SessionRecorder } from './session-recorder';

/** What this process knows of one of its connected members: enough to relay and to re-send after an owner change. */
interface LocalMember {
  state: 'idle' | 'waiting' | 'session';
  join: { mode: ChatMode; filters: JoinFilters } | null;
  /** `pp`: the process holding the partner's socket, where signalling goes. */
  session: { sid: string; partner: string; pp: string } | null;
  /** The member (profile) the owner was last sent in full: while it is the current one, joins are rejoins. */
  sent: Member | null;
  /** Joins sent so far: the owner's answer to a rejoin it cannot serve names the join. */
  joins: number;
}

export interface ClusterOptions {
  redisUrl: string;
  /** Key and channel prefix: services sharing one Redis keep apart by it. */
  prefix?: string;
  recorder: SessionRecorder | null;
  log: Logger;
  skipCooldownMs?: number;
  now: () => number;
  /** Writes a server message to the member's socket on this process. */
  deliver(userId: string, text: string): void;
  /** The member's socket here, for their current profile (re-sent joins use it). */
  memberOf(userId: string): Member | null;
  /** A newer socket of the member opened on another process: this one closes. */
  replaced(userId: string): void;
}

/**
 * One realtime process's part in the shared chat service (REDIS_URL). Joins, skips and leaves of
 * the members connected here go to the bucket owner's inbox; what the owner decides comes back on
 * this process's inbox and goes to the sockets; signalling goes straight to the partner's process.
 * When this process owns the bucket, its own members' messages skip Redis both ways.
 */
export class ChatCluster {
  readonly processId = randomUUID();
  private readonly members = new Map<string, LocalMember>();
  /** Block sets of the members the owner half knows; the follower of the log keeps them current. */
  readonly ownerBlockSets = new Map<string, Set<string>>();
  /** A member's profile as the owner reads it, encoded once per Member object (its blocks go apart: they change in place). */
  private readonly encoded = new WeakMap<Member, string>();
  private heartbeat: NodeJS.Timeout | null = null;
  private lease: OwnerLease | null = null;

  private constructor(
    private readonly bus: RedisBus,
    private readonly keys: ClusterKeys,
    private readonly options: ClusterOptions,
  ) {}

  static async join(options: ClusterOptions): Promise<ChatCluster> {
    const bus = await connectRedisBus(options.redisUrl, options.log);
    const cluster = new ChatCluster(bus, clusterKeys(options.prefix ?? DEFAULT_PREFIX), options);
    await cluster.start();
    return cluster;
  }

  /** The matcher's figures when this process owns the bucket (else nothing waits here). */
  stats(): { waiting: number; inSessions: number; owner: boolean } {
    const owner = this.lease?.current();
    return owner ? { ...owner.stats(), owner: true } : { waiting: 0, inSessions: 0, owner: false };
  }

  /** The member's socket is admitted here; an older socket of theirs on another process is told to close. */
  async attach(userId: string): Promise<void> {
    if (this.members.has(userId)) return;
    this.members.set(userId, { state: 'idle', join: null, session: null, sent: null, joins: 0 });
    const previous = await this.bus.swap(this.keys.member(userId), this.processId);
    if (previous && previous !== this.processId) this.toProcess(previous, { k: 'r', u: userId });
  }

  /** The member's socket here closed: out of the queue and any session. */
  detach(userId: string): void {
    if (!this.members.delete(userId)) return;
    this.toOwner({ t: 'leave', p: this.processId, u: userId, r: 'disconnected' });
    void this.bus.release(this.keys.member(userId), this.processId).catch(() => undefined);
  }

  join(member: Member, mode: ChatMode, filters: JoinFilters = {}): void {
    const local = this.members.get(member.userId);
    if (!local) return;
    Object.assign(local, { state: 'waiting', join: { mode, filters }, session: null });
    this.sendJoin(local, member, mode, filters);
  }

  skip(userId: string, sessionId: string | undefined): void {
    const local = this.members.get(userId);
    if (local && (!sessionId || local.session?.sid === sessionId))
      Object.assign(local, { state: 'idle', session: null });
    this.toOwner({ t: 'skip', p: this.processId, u: userId, sid: sessionId });
  }

  leave(userId: string, reason: 'left' | 'disconnected'): void {
    const local = this.members.get(userId);
    if (local) Object.assign(local, { state: 'idle', session: null });
    this.toOwner({ t: 'leave', p: this.processId, u: userId, r: reason });
  }

  /** Signalling to the partner of the member's current session; a stale session's message is dropped. */
  relay(
    userId: string,
    type: 'offer' | 'answer' | 'ice_candidate',
    sessionId: string,
    data: unknown,
    asIs: string | null,
  ) {
    const session = this.members.get(userId)?.session;
    if (!session || session.sid !== sessionId) return;
    // A line per message: a client's own text may hold a newline (JSON allows it between tokens).
    const text =
      asIs !== null && !asIs.includes('\n') ? asIs : JSON.stringify({ type, sessionId, data } satisfies ServerMessage);
    const line = signalLine(session.partner, sessionId, text);
    if (session.pp === this.processId) this.fromProcess(line);
    else this.bus.send(this.keys.process(session.pp), line);
  }

  async close(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.lease?.stop();
    await this.bus.del(this.keys.heartbeat(this.processId)).catch(() => undefined);
    await this.bus.close();
  }

  private async start(): Promise<void> {
    const beat = () =>
      this.bus
        .beat(this.keys.heartbeat(this.processId), '1', TTL_MS)
        .catch((error) => this.options.log.error({ err: error, component: 'realtime-cluster' }, 'heartbeat failed'));
    await beat();
    this.heartbeat = setInterval(() => void beat(), BEAT_MS);
    this.heartbeat.unref();
    await this.bus.subscribe(this.keys.process(this.processId), (batch) => {
      for (const line of batch.split('\n')) this.fromProcess(line);
    });
    await this.bus.subscribe(this.keys.owners, (ownerId) => this.resend(ownerId));
    this.lease = new OwnerLease(
      this.bus,
      this.keys,
      this.processId,
      () => {
        this.ownerBlockSets.clear();
        return new BucketOwner(
          {
            toProcess: (processId, message) => this.toProcess(processId, message),
            alive: (processIds) => this.alive(processIds),
          },
          this.ownerBlockSets,
          this.options.recorder,
          { skipCooldownMs: this.options.skipCooldownMs, now: this.options.now },
        );
      },
      this.options.log,
    );
    await this.lease.start();
  }

  /** Which of these processes still beat (this one does). */
  private async alive(processIds: string[]): Promise<Set<string>> {
    const others = processIds.filter((id) => id !== this.processId);
    const existing = await this.bus.existing(others.map(this.keys.heartbeat));
    return new Set([this.processId, ...others.filter((id) => existing.has(this.keys.heartbeat(id)))]);
  }

  /** A new owner starts empty: it hears again who waits here and who is in which session. */
  private resend(ownerId: string): void {
    this.options.log.info({ component: 'realtime-cluster', owner: ownerId }, 'chat bucket has a new owner');
    for (const [userId, local] of this.members) {
      local.sent = null; // the new owner holds no profile yet
      const member = this.options.memberOf(userId);
      if (!member || !local.join || local.state === 'idle') continue;
      const { mode, filters } = local.join;
      if (local.state === 'waiting') this.sendJoin(local, member, mode, filters);
      else if (local.session) {
        local.sent = member;
        this.toOwner({
          t: 'resume',
          p: this.processId,
          m: { ...JSON.parse(this.encode(member)), blocked: [...member.blocked] },
          mode,
          f: filters,
          sid: local.session.sid,
          partner: local.session.partner,
        });
      }
    }
  }

  /**
   * A join carries the member's profile (encoded once per Member object) unless the owner was
   * sent this very profile before: then it names the member only (a rejoin).
   */
  private sendJoin(local: LocalMember, member: Member, mode: ChatMode, filters: JoinFilters): void {
    const owner = this.lease?.current();
    if (owner) return owner.receive({ t: 'join', p: this.processId, m: toWire(member), mode, f: filters });
    local.joins++;
    if (local.sent === member)
      return this.bus.send(
        this.keys.inbox(BUCKET),
        JSON.stringify({ t: 'rejoin', p: this.processId, u: member.userId, n: local.joins, mode, f: filters }),
      );
    local.sent = member;
    const blocked = JSON.stringify([...member.blocked]);
    const profile = this.encode(member).slice(0, -1); // the object without its closing brace: the blocks go in
    const f = JSON.stringify(filters);
    this.bus.send(
      this.keys.inbox(BUCKET),
      `{"t":"join","p":"${this.processId}","mode":"${mode}","f":${f},"m":${profile},"blocked":${blocked}}}`,
    );
  }

  private encode(member: Member): string {
    let text = this.encoded.get(member);
    if (text === undefined) {
      const { userId, displayName, photos, profile } = member;
      text = JSON.stringify({ userId, displayName, photos, profile });
      this.encoded.set(member, text);
    }
    return text;
  }

  /** One line of this process's inbox. */
  private fromProcess(line: string): void {
    const signal = parseSignalLine(line);
    if (signal) {
      if (this.members.get(signal.userId)?.session?.sid === signal.sessionId)
        this.options.deliver(signal.userId, signal.text);
      return;
    }
    const matched = parseMatchedLine(line);
    if (matched) return this.receive(matched);
    try {
      this.receive(JSON.parse(line) as ToProcess);
    } catch (error) {
      this.options.log.error({ err: error, component: 'realtime-cluster' }, 'chat cluster message failed');
    }
  }

  /** What the owner said about a member here (through Redis, or directly when the owner is this process). */
  private receive(message: ToProcess): void {
    const local = this.members.get(message.u);
    if (!local) return;
    switch (message.k) {
      case 'w':
        local.state = 'waiting';
        return this.options.deliver(message.u, WAITING);
      case 'm':
        local.state = 'session';
        local.session = { sid: message.sid, partner: message.partner, pp: message.pp };
        return this.options.deliver(message.u, message.text);
      case 'n': {
        // The owner is new or let the member go: it gets the profile again, if that join still stands.
        local.sent = null;
        const member = this.options.memberOf(message.u);
        if (member && local.joins === message.n && local.state === 'waiting' && local.join)
          this.sendJoin(local, member, local.join.mode, local.join.filters);
        return;
      }
      case 'e':
        if (local.session?.sid !== message.sid) return;
        Object.assign(local, { state: 'idle', session: null });
        return this.options.deliver(
          message.u,
          JSON.stringify({ type: 'skipped', sessionId: message.sid } satisfies ServerMessage),
        );
      case 'r':
        return this.options.replaced(message.u);
    }
  }

  private toOwner(message: ToOwner): void {
    const owner = this.lease?.current();
    if (owner) owner.receive(message);
    else this.bus.send(this.keys.inbox(BUCKET), JSON.stringify(message));
  }

  private toProcess(processId: string, message: ToProcess): void {
    if (processId === this.processId) this.receive(message);
    else
      this.bus.send(this.keys.process(processId), message.k === 'm' ? matchedLine(message) : JSON.stringify(message));
  }
}

const WAITING = JSON.stringify({ type: 'waiting' } satisfies ServerMessage);
