import type { Knex } from 'knex';
import type { PaymentAccountView } from '../domain/contracts/payouts';
import type {
  PaymentAccountAddedData,
  PaymentAccountVerificationFailedData,
  PaymentAccountVerifiedData,
} from '../domain/payouts/events';
import { REMOVED } from '../domain/privacy/personal-data';
import type { RecordedEvent } from '../domain/event-store/port';
import { forgettingAccounts } from './engine/forgetting-accounts';
import { KeyedRows, type Row } from './engine/keyed-rows';
import type { ProjectionContext, Projector } from './engine/projector';

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
  // Two or four statements a batch (cut at each AccountDeleted), not one or two an event; an
  // event applied alone is a batch of one.
  ...forgettingAccounts(applyAccounts, forgetHolder),
};

/** Issue 23: the holder's name and routing number read as PaymentAccountAdded replays once the key is gone. */
function forgetHolder({ table }: ProjectionContext, userId: string) {
  return table('payment_accounts')
    .where({ creator_id: userId })
    .update({ account_holder_name: REMOVED, routing_number: null });
}

function addedRow(d: PaymentAccountAddedData) {
  return {
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
    verification_failure_reason: null,
    verified_at: d.isVerified ? d.addedAt : null,
    created_at: d.addedAt,
  };
}

/** What a verification decision sets on its account. */
function decided(event: RecordedEvent): Row {
  if (event.type === 'PaymentAccountVerified')
    return {
      is_verified: true,
      verification_status: 'verified',
      verified_at: (event.data as PaymentAccountVerifiedData).verifiedAt,
    };
  const d = event.data as PaymentAccountVerificationFailedData;
  return { is_verified: false, verification_status: 'failed', verification_failure_reason: d.reason };
}

/**
 * A run of payment-account events (no AccountDeleted) in four statements: the accounts it names,
 * and every account of a creator it adds a default for, read once; each event applied in memory
 * in order, as one by one; the changed rows written back. Object.assign rather than spreads: see
 * `row` in billing-history.ts.
 */
async function applyAccounts(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const defaults = events
    .filter((event) => event.type === 'PaymentAccountAdded' && (event.data as PaymentAccountAddedData).isDefault)
    .map((event) => (event.data as PaymentAccountAddedData).creatorId);
  const { rows: stored } = defaults.length
    ? await context.trx.raw(`SELECT id, creator_id FROM ${context.ref('payment_accounts')} WHERE creator_id = ANY(?)`, [
        [...new Set(defaults)],
      ])
    : { rows: [] };
  const named = events.map((event) => (event.data as { paymentAccountId: string }).paymentAccountId);
  const rows = await KeyedRows.load(context, 'payment_accounts', 'id', [...named, ...stored.map((r: Row) => r.id)]);
  // Each creator's accounts known so far: stored ones of the creators above, and those added in the run.
  const accountsOf = new Map<string, Set<string>>();
  const know = (creatorId: string, id: string) =>
    accountsOf.set(creatorId, (accountsOf.get(creatorId) ?? new Set()).add(id));
  for (const row of stored as Array<{ id: string; creator_id: string }>) know(row.creator_id, row.id);
  for (const event of events) {
    const id = (event.data as { paymentAccountId: string }).paymentAccountId;
    if (event.type !== 'PaymentAccountAdded') {
      rows.change(id, (row) => row && Object.assign({}, row, decided(event)));
      continue;
    }
    const d = event.data as PaymentAccountAddedData;
    // A new default replaces the old one (as the one-by-one update of the creator's others).
    if (d.isDefault)
      for (const other of accountsOf.get(d.creatorId) ?? [])
        if (other !== id)
          rows.change(other, (row) => (row?.is_default ? Object.assign({}, row, { is_default: false }) : row));
    rows.change(id, (row) => row ?? addedRow(d));
    know(d.creatorId, id);
  }
  await rows.store();
}

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
