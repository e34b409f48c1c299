import type { Knex } from 'knex';
import type { PaymentAccountAddedData } from '../domain/payouts/events';
import type { Projector } from './projector';

/** The `payment_accounts` read model (SPEC §3): where a creator's payouts go; one default each. */

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('payment_accounts', (t) => {
    t.text('id').primary();
    t.text('creator_id').notNullable().index();
    t.text('type').notNullable();
    t.text('stripe_account_id').nullable();
    t.text('bank_account_last4').nullable();
    t.text('account_holder_name').notNullable();
    t.text('routing_number').nullable();
    t.boolean('is_default').notNullable();
    t.boolean('is_verified').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
}

export const paymentAccountsProjector: Projector = {
  name: 'payment_accounts',
  version: 1,
  tables: ['payment_accounts'],
  eventTypes: ['PaymentAccountAdded'],
  createTables,
  async apply({ table }, event) {
    const d = event.data as PaymentAccountAddedData;
    // A new default replaces the old one; replaying leaves the same single default.
    if (d.isDefault) await table('payment_accounts').where({ creator_id: d.creatorId }).whereNot({ id: d.paymentAccountId }).update({ is_default: false });
    await table('payment_accounts')
      .insert({
        id: d.paymentAccountId,
        creator_id: d.creatorId,
        type: d.type,
        stripe_account_id: d.stripeAccountId,
        bank_account_last4: d.bankAccountLast4,
        account_holder_name: d.accountHolderName,
        routing_number: d.routingNumber,
        is_default: d.isDefault,
        is_verified: d.isVerified,
        created_at: d.addedAt,
      })
      .onConflict('id')
      .ignore();
  },
};
