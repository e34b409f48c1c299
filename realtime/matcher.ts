import type { ServerMessage } from '../domain/contracts/chat';
import { compatibility, interestMask, type MatchProfile } from './compatibility';

/**
 * The chat matcher: pure, synchronous, one writer (the realtime service's event loop). Every
 * operation returns the effects (who waits, who is matched, which session ended) for the caller
 * to send and record; the matcher itself does no I/O and reads time only from its arguments.
 *
 * Rules (DESIGN §8):
 * - a waiting user sits in exactly one queue node; removal (leave, skip, disconnect) unlinks it
 *   in O(1) and is idempotent;
 * - a user is in at most one place: waiting, or one session. Joining while in a session ends it;
 * - when a session ends for one side, the abandoned partner is re-queued with their last request;
 * - a pair that skipped is not matched again for `skipCooldownMs` (SKIP_COOLDOWN_MS); blocked pairs
 *   never are. When a cool-down ends while both are still waiting, nobody's join would pair them:
 *   the owner calls `expireCooldowns(now)` every second or so, and that matches them;
 * - standard mode: the hard filters pick the queues first (one queue per gender identity; only
 *   the genders the joiner looks for are read), then mutual checks (looking-for genders, age
 *   ranges, orientation filter, location filter), then scoring (compatibility.ts) of at most
 *   `scanLimit` eligible candidates, oldest first; the best allowed one wins (blocks and
 *   cool-downs are looked up only for a candidate that would beat the best so far, a few per
 *   join, not every one), ties to the longest waiting. Random mode pairs with the longest-waiting
 *   allowed user;
 * - exactly one side of a session is the initiator: the one who waited (its page was ready first).
 */

export type ChatMode = 'standard' | 'random';
export type EndReason = 'skipped' | 'left' | 'disconnected' | 'rejoined';

export interface Member {
  userId: string;
  displayName: string;
  /** The chat profile's photos, shown to the partner (public URLs). */
  photos?: readonly string[];
  profile: MatchProfile;
  /** Users this member blocked or was blocked by (kept current by the service). */
  blocked: ReadonlySet<string>;
}

export interface JoinFilters {
  ageRange?: [number, number];
  orientation?: string;
  interests?: string[];
  location?: string;
}

/** A join request, compiled once. */
export interface Request {
  mode: ChatMode;
  ageMin: number;
  ageMax: number;
  orientation: string | null;
  location: string | null;
  interests: number;
}

export interface Session {
  id: string;
  mode: ChatMode;
  /** user1 waited, user2 joined; user1 is the initiator. */
  user1: Member;
  user2: Member;
  initiatorId: string;
  score: number;
  startedAt: number;
  requests: Map<string, Request>;
}

export type Effect =
  | { type: 'waiting'; userId: string }
  | { type: 'matched'; session: Session }
  | { type: 'ended'; session: Session; endedBy: string | null; reason: EndReason; at: number };

interface Entry {
  member: Member;
  request: Request;
  list: Queue;
  /** Join order across queues. */
  seq: number;
  prev: Entry | null;
  next: Entry | null;
}

/** An intrusive doubly linked FIFO: O(1) append and unlink. */
class Queue {
  head: Entry | null = null;
  tail: Entry | null = null;
  size = 0;
  push(entry: Entry) {
    entry.prev = this.tail;
    entry.next = null;
    if (this.tail) this.tail.next = entry;
    else this.head = entry;
    this.tail = entry;
    this.size++;
  }
  unlink(entry: Entry) {
    if (entry.prev) entry.prev.next = entry.next;
    else this.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else this.tail = entry.prev;
    entry.prev = entry.next = null;
    this.size--;
  }
}

/** The chat filter's age slider tops out at 65, meaning "65 and over". */
const FILTER_AGE_TOP = 65;
const NON_STRAIGHT = new Set(['gay', 'lesbian', 'bisexual', 'pansexual', 'questioning', 'asexual']);

/** The `matched` message a member of a new session gets: the peer as shown, the score, and whether they start the call. */
export const matchedMessage = (session: Session, me: Member, peer: Member): ServerMessage => ({
  type: 'matched',
  sessionId: session.id,
  data: {
    peer: { displayName: peer.displayName, photos: [...(peer.photos ?? [])] },
    compatibilityScore: session.score,
    isInitiator: session.initiatorId === me.userId,
  },
});

/** Effective request: the join filters narrow the saved age range (empty intersections fall back to the filter). */
export function compileRequest(member: Member, mode: ChatMode, filters: JoinFilters = {}): Request {
  let ageMin = member.profile.ageMin;
  let ageMax = member.profile.ageMax;
  if (filters.ageRange) {
    const low = Math.min(filters.ageRange[0], filters.ageRange[1]);
    const high = Math.max(filters.ageRange[0], filters.ageRange[1]);
    const top = high >= FILTER_AGE_TOP ? 99 : high;
    const min = Math.max(ageMin, low);
    const max = Math.min(ageMax, top);
    [ageMin, ageMax] = min <= max ? [min, max] : [low, top];
  }
  const orientation = filters.orientation && filters.orientation !== 'any' ? filters.orientation : null;
  const location = filters.location?.trim().toLowerCase() || null;
  return { mode, ageMin, ageMax, orientation, location, interests: interestMask(filters.interests ?? []) };
}

export interface MatcherOptions {
  newSessionId: () => string;
  skipCooldownMs?: number;
  /** Most eligible candidates scored per standard join. */
  scanLimit?: number;
  /** Most queue nodes looked at per join (bounds the cost when many are ineligible). */
  visitLimit?: number;
}

/** How long a pair that skipped is kept apart: long enough for "Next" to mean someone else, short enough that two people alone in the queue meet again. */
export const SKIP_COOLDOWN_MS = 60_000;

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
const GENDER_BITS = Array.from({ length: 7 }, (_, i) => 1 << i);

export class Matcher {
  private readonly waiting = new Map<string, Entry>();
  private readonly sessionsByUser = new Map<string, Session>();
  private readonly random = new Queue();
  /** Standard queues by gender bit. */
  private readonly standard = new Map<number, Queue>(GENDER_BITS.map((bit) => [bit, new Queue()]));
  /** pair → until (ms) and who. Insertion order is expiry order (constant cool-down), so sweeping stops early. */
  private readonly cooldowns = new Map<string, { until: number; a: string; b: string }>();
  private seq = 0;
  private readonly skipCooldownMs: number;
  private readonly scanLimit: number;
  private readonly visitLimit: number;

  constructor(private readonly options: MatcherOptions) {
    this.skipCooldownMs = options.skipCooldownMs ?? SKIP_COOLDOWN_MS;
    this.scanLimit = options.scanLimit ?? 32;
    this.visitLimit = options.visitLimit ?? 512;
  }

  /** Queue a member (leaving any session or earlier place in a queue first) and match if possible. */
  join(member: Member, request: Request, now: number): Effect[] {
    const effects: Effect[] = [];
    this.removeWaiting(member.userId);
    const current = this.sessionsByUser.get(member.userId);
    if (current) this.end(current, member.userId, 'rejoined', now, effects);
    this.enqueue(member, request, now, effects);
    return effects;
  }

  /** Skip: end the current session (the partner is re-queued; the pair cools down) or stop waiting. */
  skip(userId: string, sessionId: string | undefined, now: number): Effect[] {
    const effects: Effect[] = [];
    const session = this.sessionsByUser.get(userId);
    if (session && (!sessionId || session.id === sessionId)) this.end(session, userId, 'skipped', now, effects);
    else this.removeWaiting(userId);
    return effects;
  }

  /** Leave or disconnect: out of every queue and session. Idempotent. */
  leave(userId: string, reason: 'left' | 'disconnected', now: number): Effect[] {
    const effects: Effect[] = [];
    this.removeWaiting(userId);
    const session = this.sessionsByUser.get(userId);
    if (session) this.end(session, userId, reason, now, effects);
    return effects;
  }

  /**
   * Ends the cool-downs that are over. A pair that is waiting on both sides (they skipped each
   * other, then both queued again) is looked at once more: the later joiner is matched as if it
   * joined now, keeping both places in the queues if no one fits.
   */
  expireCooldowns(now: number): Effect[] {
    const effects: Effect[] = [];
    for (const [key, cooling] of this.cooldowns) {
      if (cooling.until > now) break;
      this.cooldowns.delete(key);
      const a = this.waiting.get(cooling.a);
      const b = this.waiting.get(cooling.b);
      if (a && b) this.rematch(a.seq > b.seq ? a : b, now, effects);
    }
    return effects;
  }

  sessionOf(userId: string): Session | undefined {
    return this.sessionsByUser.get(userId);
  }

  isWaiting(userId: string): boolean {
    return this.waiting.has(userId);
  }

  stats() {
    return { waiting: this.waiting.size, inSessions: this.sessionsByUser.size, cooldowns: this.cooldowns.size };
  }

  private removeWaiting(userId: string): void {
    const entry = this.waiting.get(userId);
    if (!entry) return;
    entry.list.unlink(entry);
    this.waiting.delete(userId);
  }

  private end(session: Session, endedBy: string, reason: EndReason, now: number, effects: Effect[]): void {
    this.sessionsByUser.delete(session.user1.userId);
    this.sessionsByUser.delete(session.user2.userId);
    effects.push({ type: 'ended', session, endedBy, reason, at: now });
    if (reason === 'skipped') this.coolDown(session.user1.userId, session.user2.userId, now);
    const partner = session.user1.userId === endedBy ? session.user2 : session.user1;
    this.enqueue(partner, session.requests.get(partner.userId)!, now, effects);
  }

  private coolDown(a: string, b: string, now: number): void {
    const key = pairKey(a, b);
    this.cooldowns.delete(key);
    this.cooldowns.set(key, { until: now + this.skipCooldownMs, a, b });
  }

  private allowed(a: Member, b: Member, now: number): boolean {
    if (
      a.userId === b.userId ||
      (a.blocked.size > 0 && a.blocked.has(b.userId)) ||
      (b.blocked.size > 0 && b.blocked.has(a.userId))
    )
      return false;
    // Most joins meet no cooling pair: no key string to build then.
    if (this.cooldowns.size === 0) return true;
    const cooling = this.cooldowns.get(pairKey(a.userId, b.userId));
    return cooling === undefined || cooling.until <= now;
  }

  private find(member: Member, request: Request, now: number): { entry: Entry; score: number } | null {
    return request.mode === 'random' ? this.findRandom(member, now) : this.findStandard(member, request, now);
  }

  /** Starts a session between a waiting entry (the initiator) and a member who is not waiting. */
  private pair(found: { entry: Entry; score: number }, member: Member, request: Request, now: number): Effect {
    const { entry, score } = found;
    this.removeWaiting(entry.member.userId);
    const session: Session = {
      id: this.options.newSessionId(),
      mode: request.mode,
      user1: entry.member,
      user2: member,
      initiatorId: entry.member.userId,
      score,
      startedAt: now,
      requests: new Map([
        [entry.member.userId, entry.request],
        [member.userId, request],
      ]),
    };
    this.sessionsByUser.set(entry.member.userId, session);
    this.sessionsByUser.set(member.userId, session);
    return { type: 'matched', session };
  }

  /** A waiting entry looks for a partner again (it is its own queue neighbour: `allowed` skips itself). */
  private rematch(entry: Entry, now: number, effects: Effect[]): void {
    const found = this.find(entry.member, entry.request, now);
    if (!found) return;
    this.removeWaiting(entry.member.userId);
    effects.push(this.pair(found, entry.member, entry.request, now));
  }

  private enqueue(member: Member, request: Request, now: number, effects: Effect[]): void {
    const found = this.find(member, request, now);
    if (found) {
      effects.push(this.pair(found, member, request, now));
      return;
    }
    const list = request.mode === 'random' ? this.random : this.standard.get(member.profile.genderBit)!;
    const entry: Entry = { member, request, list, seq: this.seq++, prev: null, next: null };
    list.push(entry);
    this.waiting.set(member.userId, entry);
    effects.push({ type: 'waiting', userId: member.userId });
  }

  private findRandom(member: Member, now: number): { entry: Entry; score: number } | null {
    let visited = 0;
    for (let entry = this.random.head; entry && visited < this.visitLimit; entry = entry.next, visited++) {
      if (this.allowed(member, entry.member, now))
        return { entry, score: compatibility(entry.member.profile, member.profile) };
    }
    return null;
  }

  private findStandard(member: Member, request: Request, now: number): { entry: Entry; score: number } | null {
    const me = member.profile;
    const wanted = me.lookingFor || ~0;
    // Oldest first across the wanted queues: walk them side by side.
    const cursors: (Entry | null)[] = [];
    for (const bit of GENDER_BITS) if (wanted & bit) cursors.push(this.standard.get(bit)!.head);
    let best: Entry | null = null;
    let bestScore = -1;
    let scored = 0;
    let visited = 0;
    while (scored < this.scanLimit && visited < this.visitLimit) {
      let pick = -1;
      for (let i = 0; i < cursors.length; i++) {
        const c = cursors[i];
        if (c && (pick < 0 || c.seq < cursors[pick]!.seq)) pick = i;
      }
      if (pick < 0) break;
      const entry = cursors[pick]!;
      cursors[pick] = entry.next;
      visited++;
      if (!this.mutual(member, request, entry.member, entry.request)) continue;
      const score = compatibility(me, entry.member.profile, request.interests, entry.request.interests);
      if (score > bestScore) {
        if (!this.allowed(member, entry.member, now)) continue; // blocked or cooling down: not counted
        best = entry;
        bestScore = score;
      }
      scored++;
    }
    return best ? { entry: best, score: bestScore } : null;
  }

  private mutual(a: Member, ra: Request, b: Member, rb: Request): boolean {
    const pa = a.profile;
    const pb = b.profile;
    if (pa.lookingFor && !(pa.lookingFor & pb.genderBit)) return false;
    if (pb.lookingFor && !(pb.lookingFor & pa.genderBit)) return false;
    if (pb.age !== null && (pb.age < ra.ageMin || pb.age > ra.ageMax)) return false;
    if (pa.age !== null && (pa.age < rb.ageMin || pa.age > rb.ageMax)) return false;
    if (!orientationFits(ra.orientation, pb.orientation) || !orientationFits(rb.orientation, pa.orientation))
      return false;
    if (ra.location && !pb.location.includes(ra.location)) return false;
    return !rb.location || pa.location.includes(rb.location);
  }
}

/** 'queer' is not a stored orientation: the filter takes it as any orientation but straight. */
function orientationFits(filter: string | null, orientation: string | null): boolean {
  if (!filter) return true;
  if (filter === 'queer') return orientation !== null && NON_STRAIGHT.has(orientation);
  return orientation === filter;
}
