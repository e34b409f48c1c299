import type { EarningsSource } from '../shared/money-flows';

/**
 * Events of a creator's account: one stream per creator (`creatorAccount-<creatorId>`), so the
 * balance that can be withdrawn lives on one stream and optimistic concurrency forbids paying
 * it out twice. Amounts are integer cents.
 */

export const creatorAccountStream = (creatorId: string): string => `creatorAccount-${creatorId}`;
export const CREATOR_ACCOUNT_PREFIX = 'creatorAccount-';

/** Which creator sale earned it: the money flows' earnings sources ('subscription', 'message_unlock'). */
export type { EarningsSource };
export type PaymentAccountType = 'stripe' | 'bank_account';
export type PayoutStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

export interface EarningsCreditedData {
  creatorId: string;
  source: EarningsSource;
  /** The sale behind the earnings (tier charge, message unlock): credited once per reference. */
  reference: string;
  payerId: string | null;
  grossCents: number;
  creatorShareCents: number;
  platformFeeCents: number;
  occurredAt: string;
  /** End of the chargeback hold: pending until then, available after. */
  availableAt: string;
}

export interface EarningsReversedData {
  creatorId: string;
  reference: string;
  creatorShareCents: number;
  platformFeeCents: number;
  reason: string;
  occurredAt: string;
}

/** Why a creator's share of a sale is taken back. */
export type ShareReversalCause = 'refund' | 'chargeback' | 'money_back';

/**
 * Part (or all) of a sale was given back to the payer: the creator's share of that part is
 * taken from pending earnings first (`fromPending`: which earnings, soonest first after the
 * sale's own), then from the available balance, and any rest is carried as a negative
 * available balance that later earnings pay off (`carriedCents`). The platform gives back its
 * fee of that part (`platformFeeCents`). `reversalId` names the refund or dispute: once each.
 */
export interface CreatorShareReversedData {
  creatorId: string;
  /** The sale's earnings reference. */
  reference: string;
  reversalId: string;
  cause: ShareReversalCause;
  grossCents: number;
  creatorShareCents: number;
  platformFeeCents: number;
  fromPending: Array<{ reference: string; cents: number }>;
  fromAvailableCents: number;
  carriedCents: number;
  reason: string;
  occurredAt: string;
}

export interface PaymentAccountAddedData {
  creatorId: string;
  paymentAccountId: string;
  type: PaymentAccountType;
  accountHolderName: string;
  bankAccountLast4: string | null;
  routingNumber: string | null;
  stripeAccountId: string | null;
  isDefault: boolean;
  isVerified: boolean;
  addedAt: string;
}

/** The payout processor verified an account that was pending verification. */
export interface PaymentAccountVerifiedData {
  creatorId: string;
  paymentAccountId: string;
  verifiedAt: string;
}

/** The payout processor refused to verify an account: it can never receive payouts. */
export interface PaymentAccountVerificationFailedData {
  creatorId: string;
  paymentAccountId: string;
  reason: string;
  failedAt: string;
}

export interface PayoutRequestedData {
  creatorId: string;
  payoutId: string;
  paymentAccountId: string;
  amountCents: number;
  processingFeeCents: number;
  netAmountCents: number;
  currency: 'USD';
  requestedAt: string;
}

export interface PayoutProcessingStartedData {
  creatorId: string;
  payoutId: string;
  gatewayTransactionId: string;
  staffId: string | null;
  startedAt: string;
}

export interface PayoutCompletedData {
  creatorId: string;
  payoutId: string;
  gatewayTransactionId: string | null;
  staffId: string | null;
  processedAt: string;
}

export interface PayoutFailedData {
  creatorId: string;
  payoutId: string;
  reason: string;
  staffId: string | null;
  failedAt: string;
}

export interface PayoutCancelledData {
  creatorId: string;
  payoutId: string;
  reason: string;
  staffId: string | null;
  cancelledAt: string;
}

export type CreatorAccountEvent =
  | { type: 'EarningsCredited'; data: EarningsCreditedData }
  | { type: 'EarningsReversed'; data: EarningsReversedData }
  | { type: 'CreatorShareReversed'; data: CreatorShareReversedData }
  | { type: 'PaymentAccountAdded'; data: PaymentAccountAddedData }
  | { type: 'PaymentAccountVerified'; data: PaymentAccountVerifiedData }
  | { type: 'PaymentAccountVerificationFailed'; data: PaymentAccountVerificationFailedData }
  | { type: 'PayoutRequested'; data: PayoutRequestedData }
  | { type: 'PayoutProcessingStarted'; data: PayoutProcessingStartedData }
  | { type: 'PayoutCompleted'; data: PayoutCompletedData }
  | { type: 'PayoutFailed'; data: PayoutFailedData }
  | { type: 'PayoutCancelled'; data: PayoutCancelledData };

export const creatorAccountEventTypes: CreatorAccountEvent['type'][] = [
  'EarningsCredited',
  'EarningsReversed',
  'CreatorShareReversed',
  'PaymentAccountAdded',
  'PaymentAccountVerified',
  'PaymentAccountVerificationFailed',
  'PayoutRequested',
  'PayoutProcessingStarted',
  'PayoutCompleted',
  'PayoutFailed',
  'PayoutCancelled',
];
