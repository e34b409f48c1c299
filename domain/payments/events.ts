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
