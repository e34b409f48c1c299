import type { ChatMode, JoinFilters, Member } from './matcher';

/**
 * What the realtime processes of one chat service say to each other over Redis, and on which
 * channels and keys. A published message is a batch: lines, one per message (all a turn of the
 * event loop had for that channel), each a JSON object, except signalling, which is
 * `s<TAB>userId<TAB>sessionId<TAB>text` so the text the partner receives is never encoded twice,
 * and matches (`matchedLine`), for the same reason.
 *
 * - `<prefix>:bucket:<b>`: the inbox of the bucket's matcher owner (joins, skips, leaves, resumes);
 * - `<prefix>:process:<id>`: a process's inbox: the owner's effects for its members (waiting,
 *   matched, ended) and their partners' signalling; the member each line is for is in it.
 *   Per-process rather than per-member channels: a member's channel cost a SUBSCRIBE per socket,
 *   Redis memory per member and a publish per message (a small run measured 3.75x one
 *   process's CPU per match); a process's inbox lets all of a turn's lines for it share one publish;
 * - `<prefix>:owners`: a process that took a bucket's lease says so: every process re-sends the
 *   state of its members (the new owner starts with an empty matcher);
 * - `<prefix>:alive:<id>` (a key with a TTL): the process is alive while it exists;
 * - `<prefix>:owner:<b>` (a key with a TTL): the lease; its value is the owning process;
 * - `<prefix>:member:<userId>`: the process holding the member's newest socket (an older one
 *   elsewhere is told to close).
 */
export interface ClusterKeys {
  inbox(bucket: string): string;
  process(processId: string): string;
  owners: string;
  heartbeat(processId: string): string;
  lease(bucket: string): string;
  member(userId: string): string;
}

/** The keys' and channels' prefix unless a service sharing the Redis chooses another. */
export const DEFAULT_PREFIX = 'lively:chat';

export function clusterKeys(prefix: string): ClusterKeys {
  return {
    inbox: (bucket) => `${prefix}:bucket:${bucket}`,
    process: (processId) => `${prefix}:process:${processId}`,
    owners: `${prefix}:owners`,
    heartbeat: (processId) => `${prefix}:alive:${processId}`,
    lease: (bucket) => `${prefix}:owner:${bucket}`,
    member: (userId) => `${prefix}:member:${userId}`,
  };
}

/** One bucket for now: the matcher's one instance serves every mode (see README, sizing). */
export const BUCKET = '0';
/** A heartbeat or lease not renewed for this long is gone: a dead process's members are let go within it plus one sweep. */
export const TTL_MS = 3000;
/** Heartbeats, lease renewals and the owner's dead-process sweep. */
export const BEAT_MS = 1000;

/** A member as the owner's matcher needs it (blocks as a list: JSON has no sets). */
export interface WireMember {
  userId: string;
  displayName: string;
  photos?: readonly string[];
  profile: Member['profile'];
  blocked: string[];
}

export const toWire = (member: Member): WireMember => ({
  userId: member.userId,
  displayName: member.displayName,
  photos: member.photos,
  profile: member.profile,
  blocked: [...member.blocked],
});

export const fromWire = (wire: WireMember): Member & { blocked: Set<string> } => ({
  ...wire,
  blocked: new Set(wire.blocked),
});

/** To the bucket owner. `p`: the sending process (the one holding the member's socket). */
export type ToOwner =
  | { t: 'join'; p: string; m: WireMember; mode: ChatMode; f: JoinFilters }
  /**
   * A join of a member whose profile this process already sent the owner (it has not changed
   * since): the owner uses the one it holds, with the blocks its follower of the log kept current.
   * Most joins are these: "Next" is a leave and a join. An owner that does not hold the member
   * answers `k: 'n'` with `n`, the process's count of the member's joins, and gets the full join.
   */
  | { t: 'rejoin'; p: string; u: string; n: number; mode: ChatMode; f: JoinFilters }
  | { t: 'skip'; p: string; u: string; sid?: string }
  | { t: 'leave'; p: string; u: string; r: 'left' | 'disconnected' }
  /** After an owner change: this member is in session `sid` with `partner` (started under the old owner). */
  | { t: 'resume'; p: string; m: WireMember; mode: ChatMode; f: JoinFilters; sid: string; partner: string };

/**
 * To the process holding member `u`'s socket (signalling and matches travel as lines of their
 * own: `signalLine`, `matchedLine`).
 */
export type ToProcess =
  /** Waiting for a partner. */
  | { k: 'w'; u: string }
  /**
   * Matched: `text` is the member's `matched` message, made by the owner (the process only
   * forwards it); `partner` and `pp` (the partner's process) route the signalling.
   */
  | { k: 'm'; u: string; sid: string; partner: string; pp: string; text: string }
  /** The owner does not hold the member's profile for their rejoin `n`: send the full join. */
  | { k: 'n'; u: string; n: number }
  /** The partner ended session `sid` (skip, leave, disconnect): the member is told `skipped`. */
  | { k: 'e'; u: string; sid: string }
  /** A newer socket of the member opened on another process: this one closes. */
  | { k: 'r'; u: string };

export const signalLine = (userId: string, sessionId: string, text: string) => `s\t${userId}\t${sessionId}\t${text}`;

/**
 * A match as a line: `m<TAB>userId<TAB>sessionId<TAB>partner<TAB>partner's process<TAB>text`, so
 * the member's message is encoded once, by the owner, and neither parsed nor encoded again.
 */
export const matchedLine = (m: Extract<ToProcess, { k: 'm' }>) =>
  `m\t${m.u}\t${m.sid}\t${m.partner}\t${m.pp}\t${m.text}`;

/** A match line's message, or null for another line. */
export function parseMatchedLine(line: string): Extract<ToProcess, { k: 'm' }> | null {
  if (!line.startsWith('m\t')) return null;
  const a = line.indexOf('\t', 2);
  const b = line.indexOf('\t', a + 1);
  const c = line.indexOf('\t', b + 1);
  const d = line.indexOf('\t', c + 1); // the text is last: JSON escapes any tab in it
  return {
    k: 'm',
    u: line.slice(2, a),
    sid: line.slice(a + 1, b),
    partner: line.slice(b + 1, c),
    pp: line.slice(c + 1, d),
    text: line.slice(d + 1),
  };
}

/** A signalling line's parts, or null for a JSON line. */
export function parseSignalLine(line: string): { userId: string; sessionId: string; text: string } | null {
  if (!line.startsWith('s\t')) return null;
  const a = line.indexOf('\t', 2);
  const b = line.indexOf('\t', a + 1);
  return { userId: line.slice(2, a), sessionId: line.slice(a + 1, b), text: line.slice(b + 1) };
}
