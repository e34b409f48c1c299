import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PaymentAttemptData, PaymentFailedData, PaymentRefundedData } from '../domain/payments/events';
import type { Projector } from './projector';

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
    gateway_response: JSON.stringify(d.gatewayResponse ?? {}),
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
  async apply(context, event) {
    switch (event.type) {
      case 'PaymentCaptured': {
        const row = { ...attemptRow(event.data as PaymentAttemptData), status: 'succeeded', failure_reason: null };
        await context.table('payments').insert(row).onConflict('id').merge();
        return;
      }
      case 'PaymentFailed': {
        const d = event.data as PaymentFailedData;
        await context.table('payments').insert({ ...attemptRow(d), status: 'failed', failure_reason: d.failureReason }).onConflict('id').merge();
        return;
      }
      case 'PaymentRefunded': {
        const d = event.data as PaymentRefundedData;
        await context
          .table('payments')
          .where({ id: d.paymentId })
          .update({ status: 'refunded', refund_transaction_id: d.gatewayRefundId, refunded_at: d.at, updated_at: at(event) });
        return;
      }
    }
  },
};
