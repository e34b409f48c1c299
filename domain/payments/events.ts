import type { DomainEvent } from '../shared/command-handler';

/**
 * Card payments, one stream per payment: `payment-<paymentId>`. Card numbers never reach the
 * server; only the last 4 are kept. Amounts are integer cents.
 */
export const paymentStream = (paymentId: string) => `payment-${paymentId}`;

export type PaymentRequestType = 'membership_signup' | 'membership_renewal' | 'membership_subscribe' | (string & {});

export interface PaymentAttemptData {
  paymentId: string;
  userId: string;
  requestType: PaymentRequestType;
  gatewayTransactionId: string;
  gatewayCustomerId: string;
  amountCents: number;
  currency: 'USD';
  cardLast4: string;
  cardHolderName: string | null;
  email: string | null;
  /** The processor's answer (no card data). */
  gatewayResponse: Record<string, unknown>;
  correlationId: string | null;
  at: string;
}

export type PaymentCapturedData = PaymentAttemptData;
export interface PaymentFailedData extends PaymentAttemptData {
  failureReason: string;
}
export interface PaymentRefundedData {
  paymentId: string;
  userId: string;
  gatewayRefundId: string;
  amountCents: number;
  reason: string;
  at: string;
}

export type PaymentCaptured = DomainEvent<'PaymentCaptured', PaymentCapturedData>;
export type PaymentFailed = DomainEvent<'PaymentFailed', PaymentFailedData>;
export type PaymentRefunded = DomainEvent<'PaymentRefunded', PaymentRefundedData>;
export type PaymentEvent = PaymentCaptured | PaymentFailed | PaymentRefunded;

/**
 * Refunds by finance staff and chargebacks (issue 21). They apply to any card charge, each on
 * the charge's `payment-<chargeId>` stream: a site-plan charge's payment id, or a tier charge's
 * subscription id (the tier charge itself is recorded by CreatorSubscriptionStarted on the
 * subscription's stream). Each event carries the charge's facts, so the stream stands alone.
 */
export interface CardChargeFacts {
  chargeId: string;
  /** The member who paid. */
  userId: string;
  /** 'site_plan', 'tier_subscription', 'tip', or null for a charge of no flow. */
  flow: 'site_plan' | 'tier_subscription' | 'tip' | null;
  gatewayTransactionId: string;
  amountCents: number;
  /** A creator sale: the creator and the earnings reference of the sale; null otherwise. */
  creatorId: string | null;
  saleReference: string | null;
  /** The subscription stream of a tier charge (what a full refund ends); null otherwise (a tip buys nothing to end). */
  subscriptionStreamId: string | null;
  chargedAt: string;
}

/** A staff refund reserved its sequence and amount; the gateway call follows (key `refund:<chargeId>:<sequence>`). */
export interface RefundRequestedData {
  charge: CardChargeFacts;
  sequence: number;
  amountCents: number;
  reason: string;
  staffId: string | null;
  at: string;
}

/** The processor refunded it: `refundedTotalCents` of the charge are given back so far. */
export interface ChargeRefundedData {
  charge: CardChargeFacts;
  sequence: number;
  gatewayRefundId: string;
  amountCents: number;
  refundedTotalCents: number;
  /** Nothing of the charge is left: what it bought ends. */
  full: boolean;
  reason: string;
  staffId: string | null;
  at: string;
}

/** The processor refused the refund: the reserved amount is refundable again. */
export interface RefundDeclinedData {
  chargeId: string;
  sequence: number;
  failureReason: string;
  at: string;
}

/** The card holder's bank took the money back (a dispute lost): the amount and the processor's fee. */
export interface ChargeDisputedData {
  charge: CardChargeFacts;
  disputeId: string;
  amountCents: number;
  feeCents: number;
  reason: string;
  at: string;
}

export type RefundRequested = DomainEvent<'RefundRequested', RefundRequestedData>;
export type ChargeRefunded = DomainEvent<'ChargeRefunded', ChargeRefundedData>;
export type RefundDeclined = DomainEvent<'RefundDeclined', RefundDeclinedData>;
export type ChargeDisputed = DomainEvent<'ChargeDisputed', ChargeDisputedData>;
export type ChargeAdjustmentEvent = RefundRequested | ChargeRefunded | RefundDeclined | ChargeDisputed;
