import { z } from 'zod';
import { text } from './text';

/**
 * A member's billing history and receipts (GET /api/billing/history, /api/billing/receipts/:id).
 * Amounts are fixed 2-decimal USD strings, always positive: `direction` says which way the
 * money went (a charge took it from the member, a credit gave it to them).
 */

export const BILLING_KINDS = [
  'site_plan',
  'tier_subscription',
  'message_unlock',
  'tip',
  'crypto_conversion',
  'refund',
  'chargeback',
] as const;
export type BillingKind = (typeof BILLING_KINDS)[number];

/**
 * paid: a charge was taken; credited: a credit reached the member; refunded / partially_refunded:
 * a charge given back in full or in part; failed: the money never moved; pending: not yet settled;
 * declined: one attempt at a creator-subscription renewal was refused (one row per attempt, the
 * amount it tried; no money moved and it has no receipt).
 */
export const BILLING_STATUSES = [
  'paid',
  'credited',
  'refunded',
  'partially_refunded',
  'failed',
  'pending',
  'declined',
] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

export type BillingDirection = 'charge' | 'credit';

/** How the money moved: the card on file (last 4 when known), the USD balance, or stablecoins. */
export type BillingMethod =
  { type: 'card'; cardLast4: string | null } | { type: 'usd_balance' } | { type: 'crypto'; cryptoType: string };

export interface BillingEntry {
  id: string;
  occurredAt: string;
  kind: BillingKind;
  /** What it was for, e.g. "Lively site plan, 1 month". */
  description: string;
  direction: BillingDirection;
  amount: string;
  currency: 'USD';
  method: BillingMethod;
  status: BillingStatus;
  /** Charges have a printable receipt (refunds and conversions show none of their own). */
  hasReceipt: boolean;
  /**
   * Why it did not go through, in the member's own terms, e.g. "Insufficient funds" or "Insufficient
   * USD balance: the renewal is $19.99 and your balance is $10.67": for a declined renewal attempt
   * and a failed site-plan card payment (the reason its receipt shows too); null for every other row.
   */
  detail: string | null;
}

export interface BillingHistoryPage {
  entries: BillingEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export const BILLING_PAGE_SIZE = 25;
export const billingHistoryQuerySchema = z.object({
  cursor: text().max(200).optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number from 1 to 100' })
    .int('Limit must be a number from 1 to 100')
    .min(1, 'Limit must be a number from 1 to 100')
    .max(100, 'Limit must be a number from 1 to 100')
    .optional()
    .default(BILLING_PAGE_SIZE),
});

export interface ReceiptRefund {
  id: string;
  refundedAt: string;
  amount: string;
  reason: string | null;
}

export interface Receipt {
  id: string;
  /** The receipt number printed on it, e.g. "LV-20260301-1A2B3C4D". */
  number: string;
  issuedAt: string;
  member: { name: string; email: string };
  kind: BillingKind;
  item: string;
  /** The service period the charge paid for, when it bought one. */
  periodStart: string | null;
  periodEnd: string | null;
  amount: string;
  currency: 'USD';
  method: BillingMethod;
  status: BillingStatus;
  failureReason: string | null;
  refunds: ReceiptRefund[];
  refundedAmount: string;
}
