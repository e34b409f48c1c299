import type { ModerationAction, ReportReason, ReportTargetType } from '../contracts/safety';
import type { DomainEvent } from '../shared/command-handler';

/**
 * Facts of trust and safety. Streams:
 * - `blockList-<userId>`: whom a member blocked and unblocked (the chat's older `ChatUserBlocked`
 *   on `chatMember-<userId>` counts as a block too: see `commands.ts`);
 * - `reportsAgainst-<userId>`: every report about an account or its content, their resolution,
 *   content removed; one stream per reported account, so "one open report per reporter and
 *   target" and "N distinct reporters within T" are decided on one stream;
 * - `standing-<userId>`: warnings, suspensions, bans and reinstatements of an account.
 * Every staff action names the staff member in its data (`staffId`).
 */

export const blockListStream = (userId: string) => `blockList-${userId}`;
export const reportsStream = (targetUserId: string) => `reportsAgainst-${targetUserId}`;
export const standingStream = (userId: string) => `standing-${userId}`;

/** Same fields as the chat's `ChatUserBlocked`, so read models treat both alike. */
export type UserBlocked = DomainEvent<
  'UserBlocked',
  { blockerId: string; blockedId: string; reason: string | null; blockedAt: string }
>;
export type UserUnblocked = DomainEvent<'UserUnblocked', { blockerId: string; blockedId: string; unblockedAt: string }>;
export type BlockEvent = UserBlocked | UserUnblocked;

export type ReportFiled = DomainEvent<
  'ReportFiled',
  {
    reportId: string;
    reporterId: string;
    targetType: ReportTargetType;
    targetId: string;
    /** The account the report is about (the post's creator, the message's sender, the chat partner). */
    targetUserId: string;
    reason: ReportReason;
    details: string | null;
    filedAt: string;
  }
>;
/** This report made N distinct members report the account within the window: it is suspended pending review. */
export type ReportThresholdReached = DomainEvent<
  'ReportThresholdReached',
  { targetUserId: string; reportId: string; reporterIds: string[]; windowHours: number; at: string }
>;
export type ReportResolved = DomainEvent<
  'ReportResolved',
  {
    reportId: string;
    targetUserId: string;
    action: ModerationAction;
    days: number | null;
    reason: string;
    staffId: string;
    resolvedAt: string;
  }
>;
export type ContentRemoved = DomainEvent<
  'ContentRemoved',
  {
    targetType: 'post' | 'message';
    targetId: string;
    targetUserId: string;
    reportId: string;
    staffId: string;
    reason: string;
    removedAt: string;
  }
>;
export type ReportEvent = ReportFiled | ReportThresholdReached | ReportResolved | ContentRemoved;

export type UserWarned = DomainEvent<
  'UserWarned',
  { userId: string; staffId: string; reason: string; reportId: string | null; at: string }
>;
export type UserSuspended = DomainEvent<
  'UserSuspended',
  {
    userId: string;
    /** Null for an automatic suspension. */
    staffId: string | null;
    reason: string;
    /** Null: until staff review it (automatic). */
    days: number | null;
    until: string | null;
    automatic: boolean;
    reportId: string | null;
    at: string;
  }
>;
export type UserBanned = DomainEvent<
  'UserBanned',
  { userId: string; staffId: string; reason: string; reportId: string | null; at: string }
>;
export type UserReinstated = DomainEvent<
  'UserReinstated',
  { userId: string; staffId: string; reason: string; at: string }
>;
export type StandingEvent = UserWarned | UserSuspended | UserBanned | UserReinstated;

/** The event types after which an account may not be used: its sessions and sockets end. */
export const DEACTIVATING_EVENTS = ['UserSuspended', 'UserBanned'] as const;
