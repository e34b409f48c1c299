import { createHash } from 'node:crypto';
import { CHARGEBACK_FEE_CENTS } from '../contracts/money';
import {
  GatewayTimeoutError,
  PaymentDeclinedError,
  type CardOnFile,
  type ChargeRequest,
  type ChargeResult,
  type GatewayDispute,
  type PaymentGateway,
} from './gateway';

/**
 * The built-in sandbox card processor. It accepts the browser's development placeholder
 * tokens (SPEC §4: `dev_tok_` followed by a random suffix) and refuses every other token as
 * invalid. Documented tokens (the suffix may continue after the keyword, e.g. `dev_tok_decline_x1`):
 *
 * - `dev_tok_<anything else>`     a good card: the customer is created and every charge succeeds.
 * - `dev_tok_decline…`            the card is refused when saved: 'Your card was declined.'
 * - `dev_tok_insufficient…`       the customer is created, every charge declines: 'Insufficient funds'.
 * - `dev_tok_renewal_fails…`      the customer is created and the first charge (the sign-up charge,
 *                                 idempotency key starting with `signup:`) succeeds; every later
 *                                 charge declines ('Your card was declined.'): for testing renewals.
 * - `dev_tok_dispute…`            the customer is created and every charge succeeds, then is disputed
 *                                 (a chargeback of the whole charge, fee CHARGEBACK_FEE_CENTS)
 *                                 `disputeDelayMs` later (default 5 s): `disputes()` lists it from then on.
 * - a suffix ending in `_1234` (four digits) sets the card's last 4; otherwise they are 4242.
 *
 * Injectable fault (tests): `timeoutAfterRefund(n)` makes the next n refund calls do their work
 * (move the money, or find the answer of the same idempotency key) and then throw
 * GatewayTimeoutError, as a processor whose answer is lost on the way back; a retry with the same
 * key gets the first answer and moves nothing.
 *
 * Its answers are stateless, so they survive restarts: the behaviour and last 4 are encoded in
 * the customer id (`cus_sbx_<behaviour>_<last4>_<nonce>`), and ids are derived from the
 * idempotency key, so the same key always gets the same answer. Each instance also keeps a
 * journal of the money it moved (like a processor's dashboard), so tests can check that no
 * charge is left standing: `netChargedCents()`, `standingCharges()`. A refund of a charge this
 * instance took may not exceed what is left of it (a charge from before a restart is unknown
 * to the journal and refunds as before).
 */

export const SANDBOX_DECLINED = 'Your card was declined.';
export const SANDBOX_INSUFFICIENT = 'Insufficient funds';
export const SANDBOX_INVALID_TOKEN = 'Invalid payment token';
/** Idempotency-key prefix of the first charge of a new customer (see `dev_tok_renewal_fails`). */
export const FIRST_CHARGE_KEY_PREFIX = 'signup:';

type Behaviour = 'ok' | 'insufficient' | 'renewalfails' | 'dispute';

const TOKEN = /^dev_tok_([A-Za-z0-9_-]{1,120})$/;
const CUSTOMER = /^cus_sbx_(ok|insufficient|renewalfails|dispute)_(\d{4})_([0-9a-f]{16})$/;

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);

function parseToken(paymentToken: string): { behaviour: Behaviour | 'decline'; last4: string } {
  const match = TOKEN.exec(paymentToken.trim());
  if (!match) throw new PaymentDeclinedError(SANDBOX_INVALID_TOKEN);
  const suffix = match[1];
  const last4 = /_(\d{4})$/.exec(suffix)?.[1] ?? '4242';
  if (suffix.startsWith('decline')) return { behaviour: 'decline', last4 };
  if (suffix.startsWith('insufficient')) return { behaviour: 'insufficient', last4 };
  if (suffix.startsWith('renewal_fails')) return { behaviour: 'renewalfails', last4 };
  if (suffix.startsWith('dispute')) return { behaviour: 'dispute', last4 };
  return { behaviour: 'ok', last4 };
}

function parseCustomer(customerId: string): { behaviour: Behaviour; last4: string } | null {
  const match = CUSTOMER.exec(customerId);
  return match ? { behaviour: match[1] as Behaviour, last4: match[2] } : null;
}

export const SANDBOX_REFUND_TOO_LARGE = 'Refund exceeds the amount left on the charge';

interface JournalCharge {
  transactionId: string;
  customerId: string;
  amountCents: number;
  refundedCents: number;
}

/** How long after its charge the sandbox disputes a `dev_tok_dispute` card's charge. */
export const SANDBOX_DISPUTE_DELAY_MS = 5_000;
export const SANDBOX_DISPUTE_REASON = 'fraudulent';

export class SandboxGateway implements PaymentGateway {
  private readonly charges = new Map<string, JournalCharge>();
  /** Refund answers by idempotency key: a repeated refund moves no money. */
  private readonly refunds = new Map<string, ChargeResult>();
  private readonly raisedDisputes = new Map<string, GatewayDispute>();
  private refundTimeouts = 0;

  constructor(private readonly options: { disputeDelayMs?: number; clock?: () => Date } = {}) {}

  /** The next `count` refunds are made, then their answer is lost (GatewayTimeoutError). */
  timeoutAfterRefund(count = 1): void {
    this.refundTimeouts = count;
  }

  async disputes(): Promise<GatewayDispute[]> {
    const now = (this.options.clock?.() ?? new Date()).toISOString();
    return [...this.raisedDisputes.values()].filter((dispute) => dispute.at <= now);
  }

  /** Charged minus refunded over every charge this instance took, in cents. */
  netChargedCents(customerId?: string): number {
    return this.standingCharges(customerId).reduce((sum, charge) => sum + charge.amountCents - charge.refundedCents, 0);
  }

  /** The charges not fully refunded. */
  standingCharges(customerId?: string): JournalCharge[] {
    return [...this.charges.values()]
      .filter(
        (charge) => charge.refundedCents < charge.amountCents && (!customerId || charge.customerId === customerId),
      )
      .map((charge) => ({ ...charge }));
  }

  async createCustomer(input: {
    email: string;
    name: string;
    paymentToken: string;
    idempotencyKey: string;
  }): Promise<CardOnFile> {
    return this.saveCard(input.paymentToken, input.idempotencyKey);
  }

  async updateCard(input: { customerId: string; paymentToken: string; idempotencyKey: string }): Promise<CardOnFile> {
    // The behaviour lives in the id, so a new card gets a new customer id: store the returned one.
    return this.saveCard(input.paymentToken, `${input.customerId}:${input.idempotencyKey}`);
  }

  async authorize(input: { customerId: string; idempotencyKey: string }): Promise<ChargeResult> {
    const customer = parseCustomer(input.customerId);
    const transactionId = `auth_sbx_${digest('authorize', input.idempotencyKey)}`;
    if (!customer)
      return {
        status: 'declined',
        transactionId,
        cardLast4: '0000',
        failureReason: 'No such customer',
        raw: { sandbox: true },
      };
    return { status: 'succeeded', transactionId, cardLast4: customer.last4, raw: { sandbox: true, amountCents: 0 } };
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const transactionId = `ch_sbx_${digest('charge', request.idempotencyKey)}`;
    const raw = {
      sandbox: true,
      amountCents: request.amountCents,
      currency: request.currency,
      description: request.description,
      customerId: request.customerId,
    };
    const customer = parseCustomer(request.customerId);
    if (!customer)
      return { status: 'declined', transactionId, cardLast4: '0000', failureReason: 'No such customer', raw };
    if (!Number.isInteger(request.amountCents) || request.amountCents <= 0) {
      return { status: 'declined', transactionId, cardLast4: customer.last4, failureReason: 'Invalid amount', raw };
    }
    const failureReason =
      customer.behaviour === 'insufficient'
        ? SANDBOX_INSUFFICIENT
        : customer.behaviour === 'renewalfails' && !request.idempotencyKey.startsWith(FIRST_CHARGE_KEY_PREFIX)
          ? SANDBOX_DECLINED
          : null;
    if (failureReason) return { status: 'declined', transactionId, cardLast4: customer.last4, failureReason, raw };
    // The same key is the same charge: the journal counts it once.
    if (!this.charges.has(transactionId)) {
      this.charges.set(transactionId, {
        transactionId,
        customerId: request.customerId,
        amountCents: request.amountCents,
        refundedCents: 0,
      });
      if (customer.behaviour === 'dispute') this.raiseDispute(transactionId, request.amountCents);
    }
    return { status: 'succeeded', transactionId, cardLast4: customer.last4, raw };
  }

  async refund(input: { transactionId: string; amountCents: number; idempotencyKey: string }): Promise<ChargeResult> {
    const result = this.refunds.get(input.idempotencyKey) ?? this.makeRefund(input);
    // An injected fault: the refund was made (or answered again), but its answer is lost.
    if (this.refundTimeouts > 0) {
      this.refundTimeouts--;
      throw new GatewayTimeoutError();
    }
    return result;
  }

  private makeRefund(input: { transactionId: string; amountCents: number; idempotencyKey: string }): ChargeResult {
    const transactionId = `re_sbx_${digest('refund', input.idempotencyKey)}`;
    const raw = { sandbox: true, refunded: input.transactionId, amountCents: input.amountCents };
    const charge = this.charges.get(input.transactionId);
    const result: ChargeResult =
      charge && charge.refundedCents + input.amountCents > charge.amountCents
        ? { status: 'declined', transactionId, cardLast4: '0000', failureReason: SANDBOX_REFUND_TOO_LARGE, raw }
        : { status: 'succeeded', transactionId, cardLast4: '0000', raw };
    if (charge && result.status === 'succeeded') charge.refundedCents += input.amountCents;
    this.refunds.set(input.idempotencyKey, result);
    return result;
  }

  private raiseDispute(transactionId: string, amountCents: number): void {
    const now = this.options.clock?.() ?? new Date();
    const at = new Date(now.getTime() + (this.options.disputeDelayMs ?? SANDBOX_DISPUTE_DELAY_MS)).toISOString();
    const disputeId = `dp_sbx_${digest('dispute', transactionId)}`;
    const fee = CHARGEBACK_FEE_CENTS;
    this.raisedDisputes.set(disputeId, {
      disputeId,
      transactionId,
      amountCents,
      feeCents: fee,
      reason: SANDBOX_DISPUTE_REASON,
      at,
    });
  }

  private saveCard(paymentToken: string, idempotencyKey: string): CardOnFile {
    const { behaviour, last4 } = parseToken(paymentToken);
    if (behaviour === 'decline') throw new PaymentDeclinedError(SANDBOX_DECLINED);
    return {
      customerId: `cus_sbx_${behaviour}_${last4}_${digest('customer', paymentToken, idempotencyKey)}`,
      cardLast4: last4,
      cardBrand: 'Visa',
    };
  }
}

export function createSandboxGateway(): PaymentGateway {
  return new SandboxGateway();
}
