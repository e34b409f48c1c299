import type { Knex } from 'knex';
import type { AdminPaymentRow } from '../domain/contracts/admin';
import { formatCents } from '../domain/contracts/money';
import { isoOrNull, type AdminTable } from './admin-tables';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PaymentAttemptData, PaymentFailedData, PaymentRefundedData } from '../domain/payments/events';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';

/**
 * The `payments` read model (SPEC §3 payments): one row per card payment, for finance audits.
 * No card numbers: only the last 4. `amount_cents` is the integer amount; upserts keyed by the
 * payment id keep it idempotent.
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
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().index();
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
    t.timestamp('created_at', { useTz: true }).notNullable().index();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export const paymentsProjector: Projector = {
  name: 'payments',
  version: 1,
  tables: ['payments'],
  eventTypes: ['PaymentCaptured', 'PaymentFailed', 'PaymentRefunded'],
  createTables,
  // Every event names its payment; two statements per batch.
  ...rowPerEvent('payments', 'id', (event) => (event.data as { paymentId: string }).paymentId, nextRow),
};

/** An attempt overwrites every column it carries (a refund stays); a refund updates an existing payment only. */
function nextRow(row: Row | undefined, event: RecordedEvent): Row | undefined {
  switch (event.type) {
    case 'PaymentCaptured':
      return {
        ...notRefunded,
        ...row,
        ...attemptRow(event.data as PaymentAttemptData),
        status: 'succeeded',
        failure_reason: null,
      };
    case 'PaymentFailed': {
      const d = event.data as PaymentFailedData;
      return { ...notRefunded, ...row, ...attemptRow(d), status: 'failed', failure_reason: d.failureReason };
    }
    case 'PaymentRefunded': {
      const d = event.data as PaymentRefundedData;
      return (
        row && {
          ...row,
          status: 'refunded',
          refund_transaction_id: d.gatewayRefundId,
          refunded_at: d.at,
          updated_at: at(event),
        }
      );
    }
  }
  return row;
}

/** The columns an attempt does not carry, as a new payment has them. */
const notRefunded = { refund_transaction_id: null, refunded_at: null };

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
    streamId: `payment-${row.id}`,
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
  ],
};
