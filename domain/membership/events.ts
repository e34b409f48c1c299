import type { DomainEvent } from '../shared/command-handler';

/** The site membership of one user lives on `membership-<userId>`. Dates are ISO strings. */
export const membershipStream = (userId: string) => `membership-${userId}`;

export type MembershipSource = 'card' | 'crypto';

export interface MembershipActivatedData {
  userId: string;
  periodStart: string;
  periodEnd: string;
  source: MembershipSource;
  /** The payment (card) or conversion (crypto) that paid for the period: activates once. */
  paymentId: string;
  /** When it was paid; the users read model's lastPaymentDate. */
  activatedAt: string;
}

export type MembershipActivated = DomainEvent<'MembershipActivated', MembershipActivatedData>;

/** Days a member keeps access after a declined renewal before the membership expires. */
export const RENEWAL_GRACE_DAYS = 3;

/** No further renewals; access continues until `accessUntil` (the paid period's end). */
export interface MembershipCanceledData {
  userId: string;
  accessUntil: string;
  canceledAt: string;
}

/** A canceled member subscribed again before the paid period ended: renewals resume, no charge. */
export interface MembershipResumedData {
  userId: string;
  periodEnd: string;
  resumedAt: string;
}

/** The monthly renewal was paid: the next period follows the previous one without a gap. */
export interface MembershipRenewedData {
  userId: string;
  paymentId: string;
  periodStart: string;
  periodEnd: string;
  renewedAt: string;
}

/** The renewal of the period ending at `periodEnd` was declined: access until `graceEndsAt`. */
export interface MembershipPastDueData {
  userId: string;
  paymentId: string;
  periodEnd: string;
  failureReason: string;
  graceEndsAt: string;
  at: string;
}

/**
 * Access ended: after a cancellation (the paid period ran out), an unpaid renewal (grace ran
 * out), or the payment of the period given back in full (refunded: a refund or a chargeback).
 */
export interface MembershipExpiredData {
  userId: string;
  reason: 'canceled' | 'unpaid' | 'refunded';
  expiredAt: string;
}

/** A card payment for membership was declined: nothing changes but the next attempt is a new charge. */
export interface MembershipChargeDeclinedData {
  userId: string;
  paymentId: string;
  failureReason: string;
  at: string;
}

export type MembershipCanceled = DomainEvent<'MembershipCanceled', MembershipCanceledData>;
export type MembershipResumed = DomainEvent<'MembershipResumed', MembershipResumedData>;
export type MembershipRenewed = DomainEvent<'MembershipRenewed', MembershipRenewedData>;
export type MembershipPastDue = DomainEvent<'MembershipPastDue', MembershipPastDueData>;
export type MembershipExpired = DomainEvent<'MembershipExpired', MembershipExpiredData>;
export type MembershipChargeDeclined = DomainEvent<'MembershipChargeDeclined', MembershipChargeDeclinedData>;

export type MembershipEvent =
  | MembershipActivated
  | MembershipCanceled
  | MembershipResumed
  | MembershipRenewed
  | MembershipPastDue
  | MembershipExpired
  | MembershipChargeDeclined;
