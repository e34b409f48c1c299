import type {
  CryptoConversionCompletedData,
  CryptoConversionFailedData,
  CryptoConversionRequestedData,
  CryptoConversionUsedData,
} from '../domain/crypto/events';
import type { Projector } from './projector';

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
  async apply({ table }, event) {
    switch (event.type) {
      case 'CryptoConversionRequested': {
        const d = event.data as CryptoConversionRequestedData;
        await table('crypto_conversions')
          .insert({
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
            created_at: d.requestedAt,
          })
          .onConflict('id')
          .ignore();
        return;
      }
      case 'CryptoConversionCompleted': {
        const d = event.data as CryptoConversionCompletedData;
        await table('crypto_conversions').where({ transaction_id: d.transactionId }).update({ status: 'completed', completed_at: d.completedAt });
        return;
      }
      case 'CryptoConversionFailed': {
        const d = event.data as CryptoConversionFailedData;
        await table('crypto_conversions').where({ transaction_id: d.transactionId }).update({ status: 'failed' });
        return;
      }
      case 'CryptoConversionUsedForSubscription': {
        const d = event.data as CryptoConversionUsedData;
        await table('crypto_conversions')
          .where({ transaction_id: d.transactionId })
          .update({ used_for_subscription: true, subscription_months: d.subscriptionMonths, purchase_id: d.purchaseId });
        return;
      }
    }
  },
};
