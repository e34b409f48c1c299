import type { ChatMode, JoinFilters, Member } from './matcher';

/**
 * What the realtime processes of one chat service say to each other over Redis, and on which
 * channels and keys. A published message is a batch: lines, one per message (all a turn of the
 * event loop had for that channel), each a JSON object, except signalling, which is
 * `s<TAB>userId<TAB>sessionId<TAB>text` so the text the partner receives is never encoded twice.
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
  | { t: 'skip'; p: string; u: string; sid?: string }
  | { t: 'leave'; p: string; u: string; r: 'left' | 'disconnected' }
  /** After an owner change: this member is in session `sid` with `partner` (started under the old owner). */
  | { t: 'resume'; p: string; m: WireMember; mode: ChatMode; f: JoinFilters; sid: string; partner: string };

/** To the process holding member `u`'s socket (signalling travels as a line of its own: `signalLine`). */
export type ToProcess =
  /** Waiting for a partner. */
  | { k: 'w'; u: string }
  /**
   * Matched: `peer` as shown to the member; `partner` and `pp` (the partner's process) route the
   * signalling; `init` whether this side starts the call.
   */
  | {
      k: 'm';
      u: string;
      sid: string;
      partner: string;
      pp: string;
      peer: { displayName: string; photos: string[] };
      score: number;
      init: boolean;
    }
  /** The partner ended session `sid` (skip, leave, disconnect): the member is told `skipped`. */
  | { k: 'e'; u: string; sid: string }
  /** A newer socket of the member opened on another process: this one closes. */
  | { k: 'r'; u: string };

export const signalLine = (userId: string, sessionId: string, text: string) => `s\t${userId}\t${sessionId}\t${text}`;

/** A signalling line's parts, or null for a JSON line. */
export function parseSignalLine(line: string): { userId: string; sessionId: string; text: string } | null {
  if (!line.startsWith('s\t')) return null;
  const a = line.indexOf('\t', 2);
  const b = line.indexOf('\t', a + 1);
  return { userId: line.slice(2, a), sessionId: line.slice(a + 1, b), text: line.slice(b + 1) };
}
