import type { PaymentAccountType } from './events';

/**
 * The payout processor port: registers where a creator is paid and sends transfers there.
 * The sandbox adapter (sandbox-gateway.ts) stands in for a real processor.
 */

export interface PayoutDestination {
  type: PaymentAccountType;
  stripeAccountId: string | null;
  bankAccountLast4: string | null;
  routingNumber: string | null;
}

export interface RegisteredDestination {
  /** The processor's connected-account id for stripe destinations. */
  stripeAccountId: string | null;
  /**
   * Verified destinations can receive payouts; others are pending verification until the
   * processor decides (asked with `verificationStatus`).
   */
  verified: boolean;
}

/** Where the processor's verification of a destination stands. */
export type DestinationVerification =
  { status: 'pending' } | { status: 'verified' } | { status: 'failed'; failureReason: string };

export type TransferResult =
  { status: 'submitted'; transactionId: string } | { status: 'rejected'; transactionId: string; failureReason: string };

export interface PayoutGateway {
  registerDestination(input: {
    creatorId: string;
    type: PaymentAccountType;
    accountHolderName: string;
    bankAccountLast4: string | null;
    routingNumber: string | null;
    idempotencyKey: string;
  }): Promise<RegisteredDestination>;
  /**
   * Asks whether a destination pending verification has been verified (or refused). The
   * key is the idempotency key it was registered with (the payment account id).
   */
  verificationStatus(
    input: { idempotencyKey: string; destination: PayoutDestination; registeredAt: Date },
    now: Date,
  ): Promise<DestinationVerification>;
  /** Sends the net amount; the same idempotency key never transfers twice. */
  createTransfer(input: {
    payoutId: string;
    destination: PayoutDestination;
    amountCents: number;
    currency: 'USD';
    idempotencyKey: string;
  }): Promise<TransferResult>;
}
