import type {
  CryptoConversionCompletedData,
  CryptoConversionRequestedData,
  CryptoConversionUsedData,
} from '../domain/crypto/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { ProjectionContext, Projector } from './engine/projector';

/**
 * `crypto_conversions` (SPEC §3): the member's conversion history, with whether a conversion
 * paid for a site plan (usedForSubscription, subscriptionMonths). Every update sets absolute
 * values from its event, so replays change nothing. `number` is the conversion's public id,
 * copied from the request event (null for events written before numbers existed: never guessed).
 */
export const cryptoConversionsProjector: Projector = {
  name: 'crypto_conversions',
  version: 2,
  tables: ['crypto_conversions'],
  eventTypes: ['CryptoConversionRequested', 'CryptoConversionCompleted', 'CryptoConversionFailed', 'CryptoConversionUsedForSubscription'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('crypto_conversions', (t) => {
      t.uuid('id').primary();
      t.bigInteger('number').nullable().index();
      t.text('user_id').notNullable().index();
      t.uuid('transaction_id').notNullable().unique();
      t.text('from_crypto_type').notNullable();
      t.decimal('crypto_amount', 18, 8).notNullable();
      t.bigInteger('usd_amount_cents').notNullable();
      t.bigInteger('service_fee_cents').notNullable();
      t.bigInteger('net_amount_cents').notNullable();
      t.decimal('exchange_rate', 10, 4).notNullable();
      t.text('status').notNullable();
      t.boolean('used_for_subscription').notNullable();
      t.integer('subscription_months').nullable();
      t.uuid('purchase_id').nullable();
      t.timestamp('completed_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  // Every event names the conversion by its transactionId (unique per conversion).
  ...rowPerEvent('crypto_conversions', 'transaction_id', (event) => (event.data as { transactionId: string }).transactionId, nextRow),
};

/** The conversion's row after the event; an update of a missing row does nothing, as UPDATE ... WHERE. */
function nextRow(row: Row | undefined, event: RecordedEvent): Row | undefined {
  switch (event.type) {
    case 'CryptoConversionRequested': {
      const d = event.data as CryptoConversionRequestedData;
      if (row) return row;
      return {
        id: d.conversionId,
        number: d.conversionNumber ?? null,
        user_id: d.userId,
        transaction_id: d.transactionId,
        from_crypto_type: d.cryptoType,
        crypto_amount: d.cryptoAmount,
        usd_amount_cents: d.grossCents,
        service_fee_cents: d.feeCents,
        net_amount_cents: d.netCents,
        exchange_rate: d.exchangeRate,
        status: 'pending',
        used_for_subscription: false,
        subscription_months: null,
        purchase_id: null,
        completed_at: null,
        created_at: d.requestedAt,
      };
    }
    case 'CryptoConversionCompleted': {
      const d = event.data as CryptoConversionCompletedData;
      return row && { ...row, status: 'completed', completed_at: d.completedAt };
    }
    case 'CryptoConversionFailed':
      return row && { ...row, status: 'failed' };
    case 'CryptoConversionUsedForSubscription': {
      const d = event.data as CryptoConversionUsedData;
      return row && { ...row, used_for_subscription: true, subscription_months: d.subscriptionMonths, purchase_id: d.purchaseId };
    }
  }
  return row;
}
