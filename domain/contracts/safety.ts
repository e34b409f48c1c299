import { z } from 'zod';
import { text } from './text';

/**
 * Trust and safety payloads (issue 20): blocks, reports, the moderation queue and the staff
 * actions on accounts. Shared by the API and the web client.
 */

const UUID_MESSAGE = 'Invalid user id';
const uuid = (required: string, invalid: string) =>
  text({ error: required }).trim().min(1, required).pipe(z.uuid(invalid));

const reasonText = (required: string) =>
  text({ error: required }).trim().min(1, required).max(500, 'Reason too long (500 characters at most)');

// ---- Blocks ----

/** POST /api/blocks. */
export const blockUserSchema = z.object({
  userId: uuid('User id is required', UUID_MESSAGE),
  reason: text({ error: 'Reason too long' }).trim().max(500, 'Reason too long').optional(),
});
export type BlockUserRequest = z.infer<typeof blockUserSchema>;

/** One entry of GET /api/blocks (newest first). */
export interface BlockedUser {
  userId: string;
  /** The blocked member's name as others see it (chat display name, else first name). */
  name: string;
  reason: string | null;
  createdAt: string;
}

/** POST /api/blocks (201) and DELETE /api/blocks/:userId (200). */
export interface BlockResult {
  message: 'User blocked' | 'User unblocked';
  userId: string;
}

/** The 403 when one of two members blocked the other (messages, likes, comments). */
export const BLOCKED_MESSAGE = "You can't message this user";
export const BLOCKED_INTERACTION = "You can't interact with this creator's posts";

// ---- Reports ----

export const REPORT_TARGET_TYPES = ['user', 'post', 'message', 'chat_session'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASONS = [
  'harassment',
  'underage',
  'non_consensual',
  'spam',
  'impersonation',
  'illegal',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What the report dialog shows for each reason. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  harassment: 'Harassment or bullying',
  underage: 'May be under 18',
  non_consensual: 'Non-consensual content',
  spam: 'Spam or scam',
  impersonation: 'Impersonation',
  illegal: 'Illegal content',
  other: 'Something else',
};

const CHAT_ROOM = /^[A-Za-z0-9_-]{1,100}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /api/reports. Users, posts and messages are uuids; a chat session is its room id. */
export const reportRequestSchema = z
  .object({
    targetType: z.enum(REPORT_TARGET_TYPES, { error: 'Choose what you are reporting' }),
    targetId: text({ error: 'Target id is required' }).trim().min(1, 'Target id is required').max(100, 'Invalid id'),
    reason: z.enum(REPORT_REASONS, { error: 'Choose a reason' }),
    details: text({ error: 'Details too long' })
      .trim()
      .max(1000, 'Details too long (1000 characters at most)')
      .optional(),
  })
  .superRefine((report, ctx) => {
    const pattern = report.targetType === 'chat_session' ? CHAT_ROOM : UUID;
    if (!pattern.test(report.targetId)) ctx.addIssue({ code: 'custom', path: ['targetId'], message: 'Invalid id' });
  });
export type ReportRequest = z.infer<typeof reportRequestSchema>;

/** POST /api/reports (201). */
export interface ReportReceipt {
  message: 'Report received';
  reportId: string;
}

/** A second open report of the same target by the same member: 409. */
export const DUPLICATE_REPORT = 'You already reported this. Our team is reviewing it.';

// ---- Account standing ----

export const ACCOUNT_STANDINGS = ['active', 'suspended', 'banned'] as const;
export type AccountStandingStatus = (typeof ACCOUNT_STANDINGS)[number];

export interface AccountStanding {
  status: AccountStandingStatus;
  /** End of a suspension; null while banned, active, or suspended pending review (no end yet). */
  suspendedUntil: string | null;
  /** Suspended automatically (reports from several members) until staff review it. */
  pendingReview: boolean;
}

// ---- Moderation (staff, role admin) ----

export const REPORT_STATUSES = ['open', 'resolved'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const MODERATION_ACTIONS = ['dismiss', 'remove_content', 'warn', 'suspend', 'ban'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** Everything staff did to an account, as the queue lists a target's last actions. */
export const ACCOUNT_ACTIONS = ['warn', 'suspend', 'ban', 'reinstate', 'remove_content', 'auto_suspend'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export const MODERATION_PAGE_SIZE = 25;

const optionalFilter = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** GET /api/admin/reports?status=&targetType=&cursor=&limit= */
export const moderationQuerySchema = z.object({
  status: optionalFilter(z.enum(REPORT_STATUSES, { error: 'Status must be open or resolved' })),
  targetType: optionalFilter(z.enum(REPORT_TARGET_TYPES, { error: 'Invalid target type' })),
  cursor: text().max(200, 'Invalid cursor').optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number from 1 to 100' })
    .int('Limit must be a number from 1 to 100')
    .min(1, 'Limit must be a number from 1 to 100')
    .max(100, 'Limit must be a number from 1 to 100')
    .optional()
    .default(MODERATION_PAGE_SIZE),
});
export type ModerationQuery = z.infer<typeof moderationQuerySchema>;

export interface PersonRef {
  id: string;
  name: string;
}

/** One thing staff did to an account. */
export interface AccountActionEntry {
  action: AccountAction;
  reason: string;
  /** The staff member; null for an automatic suspension. */
  staff: PersonRef | null;
  days: number | null;
  at: string;
}

/** What the reported thing was, as the moderator needs to judge it. */
export type ReportContext =
  | { kind: 'user' }
  | { kind: 'post'; title: string | null; content: string; createdAt: string; removed: boolean }
  | { kind: 'message'; content: string; sentAt: string; recipient: PersonRef; removed: boolean }
  | {
      kind: 'chat_session';
      participants: PersonRef[];
      mode: 'standard' | 'random';
      startedAt: string;
      endedAt: string | null;
      durationSeconds: number | null;
    }
  /** The post, message or session is not (or no longer) in the read models. */
  | { kind: 'missing' };

export interface ModerationReport {
  id: string;
  status: ReportStatus;
  targetType: ReportTargetType;
  targetId: string;
  reason: ReportReason;
  details: string | null;
  createdAt: string;
  reporter: PersonRef;
  /** The account the report is about (the post's creator, the message's sender, the chat partner). */
  targetUser: PersonRef & {
    standing: AccountStanding;
    /** Reports against this account before this one. */
    earlierReports: number;
    /** Newest first, at most 5. */
    lastActions: AccountActionEntry[];
  };
  context: ReportContext;
  resolution: {
    action: ModerationAction;
    reason: string;
    days: number | null;
    staff: PersonRef;
    resolvedAt: string;
  } | null;
}

export interface ModerationPage {
  reports: ModerationReport[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

const days = z.coerce
  .number({ error: 'Days must be a whole number from 1 to 3650' })
  .int('Days must be a whole number from 1 to 3650')
  .min(1, 'Days must be a whole number from 1 to 3650')
  .max(3650, 'Days must be a whole number from 1 to 3650');

/** POST /api/admin/reports/:id/resolve; `days` is required for suspend. */
export const resolveReportSchema = z
  .object({
    action: z.enum(MODERATION_ACTIONS, { error: 'Choose an action' }),
    days: days.optional(),
    reason: reasonText('Reason is required'),
  })
  .refine((body) => body.action !== 'suspend' || body.days !== undefined, {
    message: 'Days are required to suspend',
    path: ['days'],
  });
export type ResolveReportRequest = z.infer<typeof resolveReportSchema>;

/** POST /api/admin/users/:id/suspend */
export const suspendUserSchema = z.object({ days, reason: reasonText('Reason is required') });
/** POST /api/admin/users/:id/ban and /reinstate */
export const staffReasonSchema = z.object({ reason: reasonText('Reason is required') });
export type SuspendUserRequest = z.infer<typeof suspendUserSchema>;
export type StaffReasonRequest = z.infer<typeof staffReasonSchema>;

/** The answer of every staff action: the account's standing afterwards. */
export interface ModerationResult {
  message: string;
  userId: string;
  standing: AccountStanding;
}

/** POST /api/admin/reports/:id/resolve answers the report as the queue shows it now. */
export interface ResolveReportResult {
  message: string;
  report: ModerationReport;
}

/** A banned creator's unpaid payouts: the finance console's hold reason, and the 409 when staff try to pay one out. */
export const PAYOUT_HELD_REASON = 'Held: the creator is banned (trust and safety)';
/** A suspended or banned member's sockets close with this. */
export const ACCOUNT_DEACTIVATED_TEXT = 'Your account has been deactivated. Please contact support.';
