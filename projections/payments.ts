import type { Knex } from 'knex';
import type { AdminPaymentRow } from '../domain/contracts/admin';
import { formatCents } from '../domain/contracts/money';
import { isoOrNull, type AdminTable } from './admin-tables';
import type { RecordedEvent } from '../domain/event-store/port';
import { creatorSubscriptionStream, type CreatorSubscriptionEvent } from '../domain/creators/events';
import type {
  ChargeDisputedData,
  ChargeRefundedData,
  PaymentAttemptData,
  PaymentFailedData,
  PaymentRefundedData,
} from '../domain/payments/events';
import { paymentStream } from '../domain/payments/events';
import { flowOfReference } from '../domain/shared/money-flows';
import { tipStream, type TipGiven } from '../domain/tips/events';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';
import { forgettingAccounts } from './engine/forgetting-accounts';

/**
 * The `payments` read model (SPEC §3 payments): one row per card payment, for finance audits.
 * No card numbers: only the last 4. `amount_cents` is the integer amount; upserts keyed by the
 * payment id keep it idempotent. Creator-tier charges are rows too (id: the subscription id of
 * the first period, the renewal id of a renewal; their card's last 4 are not recorded), so
 * finance can refund any card charge; `refunded_cents` and `disputed_cents` follow its refunds
 * and chargeback. A tip paid by card is a row too (id: the tip id, request type `tip`).
 */

const at = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;

function attemptRow(d: PaymentAttemptData) {
  return {
    id: d.paymentId,
    user_id: d.userId,
    request_type: d.requestType,
    gateway_transaction_id: d.gatewayTransactionId,
    gateway_customer_id: d.gatewayCustomerId,
    amount_cents: d.amountCents,
    currency: d.currency,
    gateway_response: d.gatewayResponse ?? {},
    card_last4: d.cardLast4,
    card_holder_name: d.cardHolderName,
    email: d.email,
    correlation_id: d.correlationId,
    created_at: d.at,
    updated_at: d.at,
  };
}

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('payments', (t) => {
    t.text('id').primary();
    t.uuid('user_id').notNullable().index();
    t.uuid('creator_id').nullable();
    t.text('request_type').notNullable();
    t.text('gateway_transaction_id').nullable();
    t.text('gateway_customer_id').nullable();
    t.integer('amount_cents').notNullable();
    t.text('currency').notNullable().defaultTo('USD');
    t.text('status').notNullable();
    t.jsonb('gateway_response').nullable();
    t.string('card_last4', 4).nullable();
    t.text('card_holder_name').nullable();
    t.text('email').nullable();
    t.text('failure_reason').nullable();
    t.text('correlation_id').nullable();
    t.text('refund_transaction_id').nullable();
    t.timestamp('refunded_at', { useTz: true }).nullable();
    t.bigInteger('refunded_cents').notNullable().defaultTo(0);
    t.bigInteger('disputed_cents').notNullable().defaultTo(0);
    t.bigInteger('chargeback_fee_cents').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().index();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export const paymentsProjector: Projector = {
  name: 'payments',
  // 3: tips paid by card. 4: AccountDeleted (issue 23).
  version: 4,
  tables: ['payments'],
  eventTypes: [
    'PaymentCaptured',
    'PaymentFailed',
    'PaymentRefunded',
    'CreatorSubscriptionStarted',
    'CreatorSubscriptionRenewed',
    'CreatorSubscriptionRefunded',
    'ChargeRefunded',
    'ChargeDisputed',
    'TipGiven',
    'AccountDeleted',
  ],
  createTables,
  // Every event names its charge; two statements per batch (and one for an AccountDeleted).
  ...forgettingAccounts(rowPerEvent('payments', 'id', chargeIdOf, nextRow).applyAll, (context, userId) =>
    // Issue 23: the payer's name and email go (as their attempts replay once the key is gone); amounts and ids stay.
    context.table('payments').where({ user_id: userId }).update({ card_holder_name: null, email: null }),
  ),
};

/** The charge (row id) an event concerns. */
function chargeIdOf(event: RecordedEvent): string {
  const d = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'CreatorSubscriptionStarted':
      return String(d.subscriptionId);
    case 'CreatorSubscriptionRenewed':
      return String(d.renewalId);
    case 'CreatorSubscriptionRefunded':
      return flowOfReference(String(d.saleReference))?.id ?? String(d.saleReference);
    case 'ChargeRefunded':
    case 'ChargeDisputed':
      return (d as unknown as ChargeRefundedData).charge.chargeId;
    case 'TipGiven':
      return String(d.tipId);
    default:
      return String(d.paymentId);
  }
}

/** A tier charge's row; null for a period nothing was charged for (a trial). */
function tierChargeRow(event: RecordedEvent): Row | undefined {
  const e = { type: event.type, data: event.data } as CreatorSubscriptionEvent;
  const charge =
    e.type === 'CreatorSubscriptionStarted'
      ? {
          id: e.data.subscriptionId,
          type: 'creator_subscription',
          transactionId: e.data.transactionId,
          at: e.data.startDate,
        }
      : e.type === 'CreatorSubscriptionRenewed'
        ? { id: e.data.renewalId, type: 'creator_renewal', transactionId: e.data.transactionId, at: e.data.renewedAt }
        : null;
  const priceCents = 'priceCents' in e.data ? (e.data.priceCents ?? 0) : 0; // a decline's price was not charged
  if (!charge?.transactionId || priceCents <= 0) return undefined;
  return Object.assign({}, notRefunded, {
    id: charge.id,
    user_id: e.data.subscriberId,
    creator_id: e.data.creatorId,
    request_type: charge.type,
    gateway_transaction_id: charge.transactionId,
    gateway_customer_id: null,
    amount_cents: priceCents,
    currency: 'USD',
    status: 'succeeded',
    gateway_response: {},
    card_last4: null,
    card_holder_name: null,
    email: null,
    failure_reason: null,
    correlation_id: null,
    created_at: charge.at,
    updated_at: charge.at,
  });
}

/** A tip's card charge; none when it was paid from the balance. */
function tipChargeRow(event: RecordedEvent): Row | undefined {
  const d = event.data as TipGiven['data'];
  if (!d.transactionId) return undefined;
  return Object.assign({}, notRefunded, {
    id: d.tipId,
    user_id: d.tipperId,
    creator_id: d.creatorId,
    request_type: 'tip',
    gateway_transaction_id: d.transactionId,
    gateway_customer_id: null,
    amount_cents: d.amountCents,
    currency: 'USD',
    status: 'succeeded',
    gateway_response: {},
    card_last4: null,
    card_holder_name: null,
    email: null,
    failure_reason: null,
    correlation_id: null,
    created_at: d.givenAt,
    updated_at: d.givenAt,
  });
}

/** Status after money was given back: refunded in full, in part, or taken back by a chargeback. */
const givenBackStatus = (row: Row, refunded: number, disputed: number) =>
  disputed > 0 ? 'disputed' : refunded >= Number(row.amount_cents) ? 'refunded' : 'partially_refunded';

/** An attempt overwrites every column it carries (a refund stays); a refund updates an existing payment only. */
function nextRow(row: Row | undefined, event: RecordedEvent): Row | undefined {
  switch (event.type) {
    case 'PaymentCaptured':
      return Object.assign({}, notRefunded, row, attemptRow(event.data as PaymentAttemptData), {
        status: 'succeeded',
        failure_reason: null,
      });
    case 'PaymentFailed': {
      const d = event.data as PaymentFailedData;
      return Object.assign({}, notRefunded, row, attemptRow(d), { status: 'failed', failure_reason: d.failureReason });
    }
    case 'PaymentRefunded': {
      const d = event.data as PaymentRefundedData;
      return (
        row && {
          ...row,
          status: 'refunded',
          refund_transaction_id: d.gatewayRefundId,
          refunded_at: d.at,
          refunded_cents: row.amount_cents,
          updated_at: at(event),
        }
      );
    }
    case 'CreatorSubscriptionStarted':
    case 'CreatorSubscriptionRenewed':
      return row ?? tierChargeRow(event);
    case 'TipGiven':
      return row ?? tipChargeRow(event);
    // Totals are set, never added to, so an event applied twice changes nothing.
    case 'ChargeRefunded':
    case 'CreatorSubscriptionRefunded': {
      if (!row) return row;
      const d = event.data as Partial<ChargeRefundedData> & {
        gatewayRefundId: string;
        amountCents: number;
        at: string;
      };
      const disputed = Number(row.disputed_cents ?? 0);
      const refunded =
        d.refundedTotalCents !== undefined
          ? d.refundedTotalCents - disputed
          : Math.max(Number(row.refunded_cents ?? 0), d.amountCents); // the money-back guarantee: the whole charge
      return {
        ...row,
        status: givenBackStatus(row, refunded, disputed),
        refund_transaction_id: d.gatewayRefundId,
        refunded_at: d.at,
        refunded_cents: refunded,
        updated_at: at(event),
      };
    }
    case 'ChargeDisputed': {
      const d = event.data as ChargeDisputedData;
      if (!row) return row;
      return {
        ...row,
        status: givenBackStatus(row, Number(row.refunded_cents ?? 0), d.amountCents),
        disputed_cents: d.amountCents,
        chargeback_fee_cents: d.feeCents,
        updated_at: at(event),
      };
    }
  }
  return row;
}

/** The columns an attempt does not carry, as a new payment has them. */
/**
 * The columns a new charge starts with. Rows are built on it with Object.assign, not `{
 * ...notRefunded, … }`: V8 (Node 20) takes a slow path for a literal that spreads a shared object
 * and adds to it, tens of microseconds a row (8 s of a rebuild's 120,000 payment events).
 */
const notRefunded = {
  refund_transaction_id: null,
  refunded_at: null,
  creator_id: null,
  refunded_cents: 0,
  disputed_cents: 0,
  chargeback_fee_cents: 0,
};

/**
 * The stream whose events the console shows for a row: its payment stream, where a tier charge's
 * refunds and chargeback are too; a creator sale nothing was given back of is on its tip's or
 * subscription's stream.
 */
function historyStreamOf(row: Record<string, unknown>): string {
  const givenBack = Number(row.refunded_cents ?? 0) + Number(row.disputed_cents ?? 0) > 0;
  if (!row.creator_id || givenBack) return paymentStream(String(row.id));
  return row.request_type === 'tip'
    ? tipStream(String(row.id))
    : creatorSubscriptionStream(String(row.user_id), String(row.creator_id));
}

/** Where a charge's events are: a tier charge's subscription (member and creator), else none. */
export interface ChargeLocation {
  chargeId: string;
  subscription: { subscriberId: string; creatorId: string } | null;
}

const locationOf = (row: { id: string; user_id: string; creator_id: string | null }): ChargeLocation => ({
  chargeId: row.id,
  subscription: row.creator_id ? { subscriberId: row.user_id, creatorId: row.creator_id } : null,
});

/** The charge a finance refund names (its row id); null when there is no such charge. */
export async function chargeLocation(db: Knex, chargeId: string): Promise<ChargeLocation | null> {
  const row = await db('payments').where({ id: chargeId }).first('id', 'user_id', 'creator_id');
  return row ? locationOf(row) : null;
}

/** The charge a processor's dispute names by its transaction id. */
export async function chargeLocationByTransaction(db: Knex, transactionId: string): Promise<ChargeLocation | null> {
  const row = await db('payments')
    .where({ gateway_transaction_id: transactionId })
    .whereNot({ status: 'failed' })
    .first('id', 'user_id', 'creator_id');
  return row ? locationOf(row) : null;
}

/**
 * Sign-up charges older than `before` whose user never appeared (the sign-up process died
 * before registering them) and that were not refunded: candidates for the sign-up recovery,
 * which re-checks each on its streams.
 */
export function abandonedSignUpPayments(db: Knex, before: Date, limit = 100): Promise<string[]> {
  return db('payments')
    .where({ request_type: 'membership_signup', status: 'succeeded' })
    .where('created_at', '<', before)
    .whereNotExists(db('users').whereRaw('users.id = payments.user_id'))
    .orderBy('created_at')
    .limit(limit)
    .pluck('id');
}

/** The finance console's table of this read model (see admin-tables.ts). */
export const paymentsAdminTable: AdminTable<AdminPaymentRow> = {
  base: (db) => db('payments as p').leftJoin('users as u', 'u.id', 'p.user_id').select('p.*', 'u.email as user_email'),
  id: 'p.id',
  created: 'p.created_at',
  amount: 'p.amount_cents',
  status: 'p.status',
  users: ['p.user_id'],
  sort: {
    createdAt: 'p.created_at',
    amount: 'p.amount_cents',
    status: 'p.status',
    requestType: 'p.request_type',
    userId: 'p.user_id',
  },
  defaultSort: 'createdAt',
  view: (row) => ({
    id: row.id,
    userId: row.user_id,
    userEmail: row.user_email ?? row.email ?? null,
    requestType: row.request_type,
    amount: formatCents(row.amount_cents),
    currency: row.currency,
    status: row.status,
    cardLast4: row.card_last4,
    gatewayTransactionId: row.gateway_transaction_id,
    failureReason: row.failure_reason,
    createdAt: isoOrNull(row.created_at)!,
    streamId: historyStreamOf(row),
    creatorId: row.creator_id ?? null,
    refunded: formatCents(row.refunded_cents ?? 0),
    disputed: formatCents(row.disputed_cents ?? 0),
    chargebackFee: formatCents(row.chargeback_fee_cents ?? 0),
    refundable:
      row.status === 'failed'
        ? '0.00'
        : formatCents(
            Math.max(0, Number(row.amount_cents) - Number(row.refunded_cents ?? 0) - Number(row.disputed_cents ?? 0)),
          ),
  }),
  csv: [
    ['id', (r) => r.id],
    ['createdAt', (r) => r.createdAt],
    ['userId', (r) => r.userId],
    ['userEmail', (r) => r.userEmail],
    ['requestType', (r) => r.requestType],
    ['amount', (r) => r.amount],
    ['currency', (r) => r.currency],
    ['status', (r) => r.status],
    ['cardLast4', (r) => r.cardLast4],
    ['gatewayTransactionId', (r) => r.gatewayTransactionId],
    ['failureReason', (r) => r.failureReason],
    ['refunded', (r) => r.refunded],
    ['disputed', (r) => r.disputed],
    ['chargebackFee', (r) => r.chargebackFee],
  ],
};
