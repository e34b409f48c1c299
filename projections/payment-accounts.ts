import type { Knex } from 'knex';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { PaymentAccountView } from '../domain/contracts/payouts';
import type {
  PaymentAccountAddedData,
  PaymentAccountVerificationFailedData,
  PaymentAccountVerifiedData,
} from '../domain/payouts/events';
import { REMOVED } from '../domain/privacy/personal-data';
import type { Projector } from './engine/projector';

/**
 * The `payment_accounts` read model (SPEC §3): where a creator's payouts go; one default each.
 * verification_status is 'verified', 'pending' (until the payout processor decides) or 'failed'.
 */

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
    t.text('verification_status').notNullable().index();
    t.text('verification_failure_reason').nullable();
    t.timestamp('verified_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
}

export const paymentAccountsProjector: Projector = {
  name: 'payment_accounts',
  // 3: AccountDeleted (issue 23).
  version: 3,
  tables: ['payment_accounts'],
  // A new default account clears the creator's others, found by creator_id.
  appliesThroughIndexes: true,
  eventTypes: ['PaymentAccountAdded', 'PaymentAccountVerified', 'PaymentAccountVerificationFailed', 'AccountDeleted'],
  createTables,
  async apply({ table }, event) {
    switch (event.type) {
      case 'AccountDeleted': {
        // Issue 23: the holder's name and routing number read as PaymentAccountAdded replays once the key is gone.
        const { userId } = event.data as AccountDeletedData;
        await table('payment_accounts')
          .where({ creator_id: userId })
          .update({ account_holder_name: REMOVED, routing_number: null });
        return;
      }
      case 'PaymentAccountAdded': {
        const d = event.data as PaymentAccountAddedData;
        // A new default replaces the old one; replaying leaves the same single default.
        if (d.isDefault)
          await table('payment_accounts')
            .where({ creator_id: d.creatorId })
            .whereNot({ id: d.paymentAccountId })
            .update({ is_default: false });
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
            verification_status: d.isVerified ? 'verified' : 'pending',
            verified_at: d.isVerified ? d.addedAt : null,
            created_at: d.addedAt,
          })
          .onConflict('id')
          .ignore();
        return;
      }
      case 'PaymentAccountVerified': {
        const d = event.data as PaymentAccountVerifiedData;
        await table('payment_accounts')
          .where({ id: d.paymentAccountId })
          .update({ is_verified: true, verification_status: 'verified', verified_at: d.verifiedAt });
        return;
      }
      case 'PaymentAccountVerificationFailed': {
        const d = event.data as PaymentAccountVerificationFailedData;
        await table('payment_accounts')
          .where({ id: d.paymentAccountId })
          .update({ is_verified: false, verification_status: 'failed', verification_failure_reason: d.reason });
        return;
      }
    }
  },
};

/** Payment accounts pending verification (for the periodic check with the payout processor). */
export async function pendingPaymentAccounts(
  db: Knex,
): Promise<Array<{ creatorId: string; paymentAccountId: string }>> {
  // Before the projection's first run the table does not exist yet: nothing to check.
  if (!(await db.schema.hasTable('payment_accounts'))) return [];
  const rows = await db('payment_accounts')
    .where({ verification_status: 'pending' })
    .orderBy('created_at')
    .limit(500)
    .select('id', 'creator_id');
  return rows.map((row) => ({ creatorId: row.creator_id, paymentAccountId: row.id }));
}

// Queries: a creator's payment accounts as the creator sees them (routing number masked).

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function paymentAccountView(row: Record<string, any>): PaymentAccountView {
  return {
    id: row.id,
    type: row.type,
    accountHolderName: row.account_holder_name,
    bankAccountLast4: row.bank_account_last4,
    routingNumber: row.routing_number ? `*****${String(row.routing_number).slice(-4)}` : null,
    stripeAccountId: row.stripe_account_id,
    isDefault: row.is_default,
    isVerified: row.is_verified,
    verificationStatus: row.verification_status ?? (row.is_verified ? 'verified' : 'pending'),
    verificationFailureReason: row.verification_failure_reason ?? null,
    createdAt: iso(row.created_at)!,
  };
}

/** A creator's payment accounts, the default first, then oldest first. */
export async function paymentAccountsOfCreator(db: Knex, creatorId: string): Promise<PaymentAccountView[]> {
  const rows = await db('payment_accounts')
    .where({ creator_id: creatorId })
    .orderBy([
      { column: 'is_default', order: 'desc' },
      { column: 'created_at', order: 'asc' },
    ]);
  return rows.map(paymentAccountView);
}

export async function findPaymentAccount(db: Knex, paymentAccountId: string): Promise<PaymentAccountView | null> {
  const row = await db('payment_accounts').where({ id: paymentAccountId }).first();
  return row ? paymentAccountView(row) : null;
}
