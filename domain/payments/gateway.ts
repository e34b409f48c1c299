/**
 * The card processor port. Card data never reaches the server: the browser hands over a
 * payment token, the gateway turns it into a customer with a card on file, and later charges
 * go to that customer. The sandbox adapter (sandbox-gateway.ts) behaves like a real processor.
 */

export interface CardOnFile {
  customerId: string;
  cardLast4: string;
  cardBrand: string;
}

export interface ChargeRequest {
  customerId: string;
  amountCents: number;
  currency: 'USD';
  description: string;
  /** The same key never charges twice (the processor answers with the first result). */
  idempotencyKey: string;
}

export type ChargeResult =
  | { status: 'succeeded'; transactionId: string; cardLast4: string; raw: Record<string, unknown> }
  | {
      status: 'declined';
      transactionId: string;
      cardLast4: string;
      failureReason: string;
      raw: Record<string, unknown>;
    };

export interface PaymentGateway {
  /** Saves the tokenized card for a new customer; throws PaymentDeclinedError when the card is refused. */
  createCustomer(input: {
    email: string;
    name: string;
    paymentToken: string;
    idempotencyKey: string;
  }): Promise<CardOnFile>;
  /** Replaces the card on file (e.g. age verification with another card). */
  updateCard(input: { customerId: string; paymentToken: string; idempotencyKey: string }): Promise<CardOnFile>;
  /** A zero-value authorization proving the card holder is an adult card owner (age verification). */
  authorize(input: { customerId: string; idempotencyKey: string }): Promise<ChargeResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(input: { transactionId: string; amountCents: number; idempotencyKey: string }): Promise<ChargeResult>;
  /**
   * Chargebacks raised up to now, oldest first (polled, like a processor's list of disputes):
   * the product records each once, by its id. Optional: a test double without disputes omits it.
   */
  disputes?(): Promise<GatewayDispute[]>;
}

/** A dispute the processor lost: the card holder's bank took the charge back (a chargeback). */
export interface GatewayDispute {
  disputeId: string;
  /** The disputed charge. */
  transactionId: string;
  amountCents: number;
  /** What the processor charges for it. */
  feeCents: number;
  reason: string;
  at: string;
}

/** The processor did not answer in time: whether it acted is unknown; retry with the same idempotency key. */
export class GatewayTimeoutError extends Error {
  constructor() {
    super('The card processor did not answer in time');
    this.name = 'GatewayTimeoutError';
  }
}

export class PaymentDeclinedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PaymentDeclinedError';
  }
}
