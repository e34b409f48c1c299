import { z } from 'zod';
import { text } from './text';

/** The finance console's HTTP payloads (finance staff, role admin), shared by API and web. */

export const ADMIN_RESOURCES = ['payouts', 'conversions', 'payments', 'ledger'] as const;
export type AdminResource = (typeof ADMIN_RESOURCES)[number];

/** The kinds of ledger transaction: one per money movement the ledger posts. */
export const LEDGER_KINDS = [
  'site_plan_charge',
  'card_charge',
  'refund',
  'chargeback',
  'tier_charge',
  'message_unlock',
  'balance_spend',
  'conversion',
  'conversion_credit',
  'balance_credit',
  'earnings',
  'earnings_release',
  'earnings_reversal',
  'creator_share_reversal',
  'payout_request',
  'payout_completion',
  'payout_return',
  'tip',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Status values each table can be filtered by (the ledger filters by transaction kind). */
export const ADMIN_STATUSES: Record<AdminResource, readonly string[]> = {
  payouts: ['pending', 'processing', 'completed', 'failed', 'cancelled'],
  conversions: ['pending', 'processing', 'completed', 'failed', 'cancelled'],
  payments: ['succeeded', 'failed', 'refunded', 'partially_refunded', 'disputed'],
  ledger: LEDGER_KINDS,
};

export const ADMIN_SORT_FIELDS: Record<AdminResource, readonly [string, ...string[]]> = {
  payouts: ['createdAt', 'amount', 'netAmount', 'status', 'processedAt', 'creatorId'],
  conversions: ['createdAt', 'amount', 'netAmount', 'fee', 'status', 'userId'],
  payments: ['createdAt', 'amount', 'status', 'requestType', 'userId'],
  ledger: ['effectiveAt', 'amount', 'account', 'kind'],
};

export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const MAX_PAGE_SIZE = 100;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A date (YYYY-MM-DD, whole day) or an ISO date-time; `end` makes a date-only value inclusive. */
const dateBound = (end: boolean) =>
  text()
    .trim()
    .max(40, 'Invalid date')
    .transform((text, ctx) => {
      const valid = DATE_ONLY.test(text) || /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})?$/.test(text);
      const time = valid ? Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00.000Z` : text) : NaN;
      if (Number.isNaN(time)) {
        ctx.addIssue({ code: 'custom', message: 'Invalid date: use YYYY-MM-DD or an ISO date-time' });
        return z.NEVER;
      }
      return new Date(end && DATE_ONLY.test(text) ? time + DAY_MS - 1 : time);
    });

const amountBound = text()
  .trim()
  .transform((text, ctx) => {
    const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'Invalid amount: use a USD amount like 12.34' });
      return z.NEVER;
    }
    return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  });

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** List filters as query parameters (also what the web keeps in the URL). */
export function adminListQuerySchema(resource: AdminResource) {
  const statuses = ADMIN_STATUSES[resource] as [string, ...string[]];
  return z
    .object({
      page: optional(
        z.coerce
          .number({ error: 'page must be a number' })
          .int('page must be a whole number')
          .min(0, 'page must be 0 or more')
          .max(1_000_000, 'page too large'),
      ).default(0),
      pageSize: optional(
        z.coerce
          .number({ error: 'pageSize must be a number' })
          .int('pageSize must be a whole number')
          .min(1, 'pageSize must be 1 or more')
          .max(MAX_PAGE_SIZE, `pageSize must be at most ${MAX_PAGE_SIZE}`),
      ).default(25),
      sortField: optional(
        z.enum(ADMIN_SORT_FIELDS[resource], {
          error: `sortField must be one of ${ADMIN_SORT_FIELDS[resource].join(', ')}`,
        }),
      ),
      sortOrder: optional(z.enum(['asc', 'desc'], { error: 'sortOrder must be asc or desc' })).default('desc'),
      status: optional(z.enum(statuses, { error: `status must be one of ${statuses.join(', ')}` })),
      from: optional(dateBound(false)),
      to: optional(dateBound(true)),
      userId: optional(
        text()
          .trim()
          .min(1)
          .max(100, 'userId too long')
          .regex(/^[A-Za-z0-9_-]+$/, 'Invalid userId'),
      ),
      minAmount: optional(amountBound),
      maxAmount: optional(amountBound),
      /** Ledger only: one named account. */
      account: optional(
        text()
          .trim()
          .max(60, 'Invalid account')
          .regex(/^[a-z_]+$/, 'Invalid account'),
      ),
      /** An exact record id. */
      id: optional(
        text()
          .trim()
          .max(100, 'Invalid id')
          .regex(/^[A-Za-z0-9_:-]+$/, 'Invalid id'),
      ),
    })
    .superRefine((query, ctx) => {
      if (query.from && query.to && query.from > query.to)
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date must not be before the start date' });
      if (query.minAmount !== undefined && query.maxAmount !== undefined && query.minAmount > query.maxAmount) {
        ctx.addIssue({
          code: 'custom',
          path: ['maxAmount'],
          message: 'The maximum amount must not be below the minimum',
        });
      }
    });
}
export type AdminListQuery = z.output<ReturnType<typeof adminListQuerySchema>>;

export interface AdminPage<Row> {
  rows: Row[];
  total: number;
  page: number;
  pageSize: number;
}

export const payoutActionSchema = z.object({
  reason: optional(
    text({ error: 'A reason is required' }).trim().min(1, 'A reason is required').max(500, 'Reason too long'),
  ),
});
export const PAYOUT_ACTIONS = ['process', 'complete', 'fail', 'cancel'] as const;
export type PayoutAction = (typeof PAYOUT_ACTIONS)[number];
/** Actions that need a reason. */
export const REASON_REQUIRED: PayoutAction[] = ['fail', 'cancel'];

export interface AdminPayoutRow {
  id: string;
  creatorId: string;
  creatorEmail: string | null;
  paymentAccountId: string;
  amount: string;
  processingFee: string;
  netAmount: string;
  status: string;
  gatewayTransactionId: string | null;
  failureReason: string | null;
  staffId: string | null;
  processedAt: string | null;
  createdAt: string;
  streamId: string;
  /** Why finance may not pay it out now (the creator is banned); null otherwise. */
  heldReason: string | null;
}

export interface AdminConversionRow {
  id: string;
  /** The conversion's number (SPEC's conversion id); null for conversions recorded before numbers. */
  conversionNumber: number | null;
  userId: string;
  userEmail: string | null;
  cryptoType: string;
  cryptoAmount: string;
  exchangeRate: string;
  amount: string;
  fee: string;
  netAmount: string;
  status: string;
  transactionHash: string | null;
  failureReason: string | null;
  createdAt: string;
  streamId: string;
}

export interface AdminPaymentRow {
  id: string;
  userId: string;
  userEmail: string | null;
  requestType: string;
  amount: string;
  currency: string;
  status: string;
  cardLast4: string | null;
  gatewayTransactionId: string | null;
  failureReason: string | null;
  createdAt: string;
  streamId: string;
  /** A creator-tier charge's creator; null for a site-plan charge. */
  creatorId: string | null;
  /** Given back so far by refunds, taken back by a chargeback, its fee, and what may still be refunded. */
  refunded: string;
  disputed: string;
  chargebackFee: string;
  refundable: string;
}

/**
 * `POST /api/admin/payments/:id/refund` (finance staff): `:id` is a payments row id (a site-plan
 * payment id, a tier charge's subscription or renewal id); no amount refunds all that is left.
 */
export const refundRequestSchema = z.object({
  amountCents: z
    .number({ error: 'amountCents must be a whole number of cents' })
    .int('amountCents must be a whole number of cents')
    .positive('amountCents must be positive')
    .max(100_000_000, 'amountCents too large')
    .optional(),
  reason: text({ error: 'A reason is required' }).trim().min(1, 'A reason is required').max(500, 'Reason too long'),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

export interface RefundResponse {
  paymentId: string;
  sequence: number;
  amount: string;
  refundedTotal: string;
  full: boolean;
  gatewayRefundId: string;
}

export interface AdminLedgerRow {
  id: string;
  transactionId: string;
  account: string;
  ownerId: string | null;
  debit: string;
  credit: string;
  kind: string;
  description: string;
  userId: string | null;
  effectiveAt: string;
  streamId: string;
}

export interface StreamEventView {
  eventId: string;
  type: string;
  revision: string;
  data: unknown;
  metadata: Record<string, unknown>;
  actor: { id: string; email: string | null } | null;
  createdAt: string;
}

export interface RevenueDay {
  date: string;
  platformFees: string;
  subscriptionRevenue: string;
  conversionFees: string;
  payoutFees: string;
  /** Card refunds and chargebacks of the platform's own revenue; positive is money the platform paid. */
  refunds: string;
  /** The card processor's chargeback fees; positive is money the platform paid, like `refunds`. */
  chargebackFees: string;
}

export const revenueQuerySchema = z
  .object({ from: optional(dateBound(false)), to: optional(dateBound(true)) })
  .superRefine((query, ctx) => {
    // Zod runs this even when a bound was refused (then it is still the text): compare dates only.
    if (!(query.from instanceof Date) || !(query.to instanceof Date)) return;
    if (query.from > query.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The end date must not be before the start date' });
    if (query.to.getTime() - query.from.getTime() > 400 * DAY_MS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'At most 400 days at a time' });
  });
