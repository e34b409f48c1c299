import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ChatEndReason } from '../domain/chat/events';
import { BEAT_MS, BUCKET, fromWire, TTL_MS, type ClusterKeys, type ToOwner, type ToProcess } from './cluster-protocol';
import {
  compileRequest,
  matchedMessage,
  Matcher,
  type ChatMode,
  type Effect,
  type JoinFilters,
  type Member,
  type Request,
} from './matcher';
import type { RedisBus } from './redis-bus';
import type { SessionRecorder } from './session-recorder';

/** A session started under an earlier owner, known from the resumes of its members' processes. */
interface Adopted {
  sid: string;
  partner: string;
  member: Member;
  request: Request;
  since: number;
}

/**
 * The matcher of one bucket, run by whichever process holds the bucket's lease. It takes joins,
 * skips and leaves from every process's members (its inbox), runs the pure Matcher, records each
 * session once, and sends the effects to the process holding each member (its own members'
 * without Redis). It also lets go of the members of a process whose heartbeat expired: their
 * partners are told and re-queued.
 */
export class BucketOwner {
  private matcher: Matcher;
  /**
   * Which process holds each member known here, and the member as their process last sent them
   * (a rejoin uses it). A member is known from their first join until they disconnect or their
   * process dies, so "Next" (a leave and a rejoin) sends no profile.
   */
  private readonly processOf = new Map<string, string>();
  private readonly members = new Map<string, Member>();
  private readonly adopted = new Map<string, Adopted>();

  constructor(
    private readonly links: {
      /** To the process holding a member's socket. */
      toProcess(processId: string, message: ToProcess): void;
      /** Which of these processes are alive (their heartbeat key exists). */
      alive(processIds: string[]): Promise<Set<string>>;
    },
    /** Block sets of the members known here, kept current by the service's follower of the log. */
    readonly blockSets: Map<string, Set<string>>,
    private readonly recorder: SessionRecorder | null,
    private readonly options: { skipCooldownMs?: number; now: () => number },
  ) {
    this.matcher = new Matcher({ newSessionId: randomUUID, skipCooldownMs: options.skipCooldownMs });
  }

  stats() {
    return this.matcher.stats();
  }

  receive(message: ToOwner): void {
    const now = this.options.now();
    // A process no longer holding the member (their newer socket is elsewhere) speaks for nobody.
    if (message.t !== 'join' && message.t !== 'resume' && message.t !== 'rejoin') {
      const holder = this.processOf.get(message.u);
      if (holder !== undefined && holder !== message.p) return;
    }
    switch (message.t) {
      case 'join':
        return this.join(this.know(message.p, fromWire(message.m)), message.mode, message.f, now);
      case 'rejoin': {
        // Known from the same process (a member who moved came with a full join from the new one).
        const member = this.processOf.get(message.u) === message.p ? this.members.get(message.u) : undefined;
        if (!member) return this.links.toProcess(message.p, { k: 'n', u: message.u, n: message.n });
        return this.join(member, message.mode, message.f, now);
      }
      case 'skip':
        if (this.adopted.has(message.u)) return this.endAdopted(message.u, message.u, 'skipped', now);
        return this.apply(this.matcher.skip(message.u, message.sid, now));
      case 'leave':
        if (this.adopted.has(message.u)) this.endAdopted(message.u, message.u, message.r, now);
        else this.apply(this.matcher.leave(message.u, message.r, now));
        if (message.r === 'disconnected') this.forget(message.u);
        return;
      case 'resume': {
        const member = this.know(message.p, fromWire(message.m));
        const request = compileRequest(member, message.mode, message.f);
        this.adopted.set(member.userId, { sid: message.sid, partner: message.partner, member, request, since: now });
        return;
      }
    }
  }

  /** Cool-downs that ended while both sides wait: the pair may meet now. */
  expireCooldowns(): void {
    this.apply(this.matcher.expireCooldowns(this.options.now()));
  }

  /**
   * Members of processes whose heartbeat expired leave as if they disconnected (their partners
   * are told and re-queued), and are forgotten.
   */
  async sweep(): Promise<void> {
    const alive = await this.links.alive([...new Set(this.processOf.values())]);
    const now = this.options.now();
    for (const [userId, processId] of [...this.processOf]) {
      if (!alive.has(processId)) {
        if (this.adopted.has(userId)) this.endAdopted(userId, userId, 'disconnected', now);
        else this.apply(this.matcher.leave(userId, 'disconnected', now));
        this.forget(userId);
      }
    }
    // An adopted session whose other side never resumed (its process died with the old owner).
    for (const [userId, entry] of [...this.adopted])
      if (now - entry.since > TTL_MS && !this.adopted.has(entry.partner))
        this.endAdopted(userId, entry.partner, 'disconnected', now);
  }

  private join(member: Member, mode: ChatMode, filters: JoinFilters, now: number): void {
    this.endAdopted(member.userId, member.userId, 'rejoined', now);
    this.apply(this.matcher.join(member, compileRequest(member, mode, filters), now));
  }

  private know(processId: string, member: Member & { blocked: Set<string> }): Member {
    this.processOf.set(member.userId, processId);
    // Blocks that arrived since the member's process sent them are in the set the follower keeps.
    for (const id of this.blockSets.get(member.userId) ?? []) member.blocked.add(id);
    this.blockSets.set(member.userId, member.blocked);
    this.members.set(member.userId, member);
    return member;
  }

  /** A member gone (disconnected, or their process died) and out of the matcher: nothing of theirs is kept. */
  private forget(userId: string): void {
    this.processOf.delete(userId);
    this.blockSets.delete(userId);
    this.members.delete(userId);
  }

  /** Ends an adopted session: both sides' processes hear of it; the side that did not end it is queued again. */
  private endAdopted(userId: string, endedBy: string, reason: ChatEndReason, now: number): void {
    const mine = this.adopted.get(userId);
    if (!mine) return;
    const theirs = this.adopted.get(mine.partner);
    const sides = theirs?.sid === mine.sid ? [mine, theirs] : [mine];
    for (const side of sides) this.adopted.delete(side.member.userId);
    this.recorder?.endedById(mine.sid, endedBy, reason, new Date(now));
    for (const id of [userId, mine.partner]) if (id !== endedBy) this.toUser(id, { k: 'e', u: id, sid: mine.sid });
    for (const side of sides)
      if (side.member.userId !== endedBy) this.apply(this.matcher.join(side.member, side.request, now));
  }

  /** To the member's process; a member the owner no longer knows (gone) is told nothing. */
  private toUser(userId: string, message: ToProcess): void {
    const processId = this.processOf.get(userId);
    if (processId !== undefined) this.links.toProcess(processId, message);
  }

  private apply(effects: Effect[]): void {
    for (const effect of effects) {
      if (effect.type === 'waiting') this.toUser(effect.userId, { k: 'w', u: effect.userId });
      else if (effect.type === 'matched') {
        const { session } = effect;
        this.recorder?.started(session, new Date(session.startedAt));
        // The side that waits for the offer hears first: the initiator's offer never overtakes it.
        for (const [me, peer] of [
          [session.user2, session.user1],
          [session.user1, session.user2],
        ])
          this.toUser(me.userId, {
            k: 'm',
            u: me.userId,
            sid: session.id,
            partner: peer.userId,
            pp: this.processOf.get(peer.userId)!,
            text: JSON.stringify(matchedMessage(session, me, peer)),
          });
      } else {
        const { session, endedBy, reason, at } = effect;
        this.recorder?.ended(session, endedBy, reason, new Date(at));
        // The side that ended it knows; its process let go of the session when it asked.
        for (const user of [session.user1, session.user2])
          if (user.userId !== endedBy) this.toUser(user.userId, { k: 'e', u: user.userId, sid: session.id });
      }
    }
  }
}

/** Time the lease is given up early by, against the owner's own clock drifting from Redis's. */
const LEASE_MARGIN_MS = 500;

/**
 * Holds (or waits for) the bucket's lease: the process that takes it runs a fresh BucketOwner
 * on the bucket's inbox and announces itself so every process re-sends its members' state; the
 * one that loses it (a stall longer than the lease) stops at once.
 */
export class OwnerLease {
  private owner: BucketOwner | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private ticking = false;
  /**
   * Until when the lease is surely ours: its last renewal's start plus the TTL, less a margin.
   * Past it this process acts no more as owner even before its next tick notices (a stalled
   * owner must not match anyone once another process may have taken the bucket).
   */
  private heldUntil = 0;

  constructor(
    private readonly bus: RedisBus,
    private readonly keys: ClusterKeys,
    private readonly processId: string,
    private readonly makeOwner: () => BucketOwner,
    private readonly log: Logger,
  ) {}

  current(): BucketOwner | null {
    return this.owner && Date.now() < this.heldUntil ? this.owner : null;
  }

  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), BEAT_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.owner) {
      this.owner = null;
      await this.bus.unsubscribe(this.keys.inbox(BUCKET));
      await this.bus.release(this.keys.lease(BUCKET), this.processId);
    }
  }

  /** One tick at a time: a slow Redis must not stack them (a tick that overlaps is skipped). */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.renew();
    } catch (error) {
      this.log.error({ err: error, component: 'realtime-cluster' }, 'chat lease tick failed');
    } finally {
      this.ticking = false;
    }
  }

  private async renew(): Promise<void> {
    let held: boolean;
    const asked = Date.now();
    // Messages were dropped while the lease was not surely ours: start afresh, so processes re-send.
    if (this.owner && asked >= this.heldUntil) await this.stepDown();
    try {
      held = await this.bus.lease(this.keys.lease(BUCKET), this.processId, TTL_MS);
      if (held) this.heldUntil = asked + TTL_MS - LEASE_MARGIN_MS;
    } catch (error) {
      this.log.error({ err: error, component: 'realtime-cluster' }, 'chat lease check failed');
      held = false;
    }
    if (this.stopped) return;
    if (held && !this.owner) await this.takeOver();
    else if (!held && this.owner) await this.stepDown();
    const owner = this.current();
    if (owner) {
      owner.expireCooldowns();
      await owner
        .sweep()
        .catch((error) =>
          this.log.error({ err: error, component: 'realtime-cluster' }, 'chat dead-process sweep failed'),
        );
    }
  }

  private async takeOver(): Promise<void> {
    const owner = this.makeOwner();
    await this.bus.subscribe(this.keys.inbox(BUCKET), (batch) => {
      if (this.current() !== owner) return; // stalled past the lease, or stepped down
      for (const line of batch.split('\n'))
        try {
          owner.receive(JSON.parse(line) as ToOwner);
        } catch (error) {
          this.log.error({ err: error, component: 'realtime-cluster' }, 'chat owner message failed');
        }
    });
    this.owner = owner;
    this.log.info({ component: 'realtime-cluster', bucket: BUCKET }, 'this process now matches the chat bucket');
    this.bus.publish(this.keys.owners, this.processId);
  }

  private async stepDown(): Promise<void> {
    this.owner = null;
    this.log.warn({ component: 'realtime-cluster', bucket: BUCKET }, 'chat bucket lease lost: no longer matching');
    await this.bus.unsubscribe(this.keys.inbox(BUCKET));
  }
}
