import { formatCents } from '../domain/contracts/money';
import type { AdminConversionRow } from '../domain/contracts/admin';
import { isoOrNull, type AdminTable } from './admin-tables';
import type {
  CryptoConversionCompletedData,
  CryptoConversionFailedData,
  CryptoConversionRequestedData,
  CryptoConversionSubmittedData,
} from '../domain/crypto/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { REMOVED } from '../domain/privacy/personal-data';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';
import { forgettingAccounts } from './engine/forgetting-accounts';

/**
 * `crypto_transactions` (SPEC §3): one row per conversion with its status
 * (pending -> processing -> completed | failed). USD in integer cents. Status updates only
 * move forward, so replays change nothing.
 */
export const cryptoTransactionsProjector: Projector = {
  name: 'crypto_transactions',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['crypto_transactions'],
  eventTypes: [
    'CryptoConversionRequested',
    'CryptoConversionSubmitted',
    'CryptoConversionCompleted',
    'CryptoConversionFailed',
    'AccountDeleted',
  ],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('crypto_transactions', (t) => {
      t.uuid('id').primary();
      t.text('user_id').notNullable().index();
      t.uuid('wallet_id').nullable();
      t.text('wallet_address').notNullable();
      t.text('transaction_type').notNullable();
      t.text('status').notNullable().index();
      t.text('crypto_type').notNullable();
      t.decimal('crypto_amount', 18, 8).notNullable();
      t.bigInteger('usd_amount_cents').notNullable();
      t.decimal('exchange_rate', 10, 4).notNullable();
      t.bigInteger('service_fee_cents').notNullable();
      t.decimal('service_fee_percent', 5, 2).notNullable();
      t.bigInteger('net_usd_cents').notNullable();
      t.text('transaction_hash').nullable();
      t.text('gateway_transaction_id').nullable();
      t.text('failure_reason').nullable();
      t.timestamp('processed_at', { useTz: true }).nullable();
      t.timestamp('created_at', { useTz: true }).notNullable().index();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  ...forgettingAccounts(
    rowPerEvent(
      'crypto_transactions',
      'id',
      (event) => (event.data as { transactionId: string }).transactionId,
      nextRow,
    ).applyAll,
    // Issue 23: the address reads REMOVED (as CryptoConversionRequested replays once the key is gone); amounts stay.
    (context, userId) =>
      context.table('crypto_transactions').where({ user_id: userId }).update({ wallet_address: REMOVED }),
  ),
};

/** The transaction's row after the event (the same object when the event changes nothing). */
function nextRow(row: Row | undefined, event: RecordedEvent): Row | undefined {
  switch (event.type) {
    case 'CryptoConversionRequested': {
      const d = event.data as CryptoConversionRequestedData;
      if (row) return row;
      return {
        id: d.transactionId,
        user_id: d.userId,
        wallet_id: d.walletId,
        wallet_address: d.walletAddress,
        transaction_type: 'conversion',
        status: 'pending',
        crypto_type: d.cryptoType,
        crypto_amount: d.cryptoAmount,
        usd_amount_cents: d.grossCents,
        exchange_rate: d.exchangeRate,
        service_fee_cents: d.feeCents,
        service_fee_percent: formatCents(d.feeBasisPoints),
        net_usd_cents: d.netCents,
        transaction_hash: null,
        gateway_transaction_id: null,
        failure_reason: null,
        processed_at: null,
        created_at: d.requestedAt,
        updated_at: d.requestedAt,
      };
    }
    case 'CryptoConversionSubmitted': {
      const d = event.data as CryptoConversionSubmittedData;
      if (row?.status !== 'pending') return row;
      return {
        ...row,
        status: 'processing',
        gateway_transaction_id: d.gatewayTransactionId,
        updated_at: d.submittedAt,
      };
    }
    case 'CryptoConversionCompleted': {
      const d = event.data as CryptoConversionCompletedData;
      return (
        row && {
          ...row,
          status: 'completed',
          transaction_hash: d.transactionHash,
          processed_at: d.completedAt,
          updated_at: d.completedAt,
        }
      );
    }
    case 'CryptoConversionFailed': {
      const d = event.data as CryptoConversionFailedData;
      return (
        row && {
          ...row,
          status: 'failed',
          failure_reason: d.failureReason,
          processed_at: d.failedAt,
          updated_at: d.failedAt,
        }
      );
    }
  }
  return row;
}

/** Conversions handed to the processor and not settled yet (for the settlement check). */
export async function processingConversions(
  db: import('knex').Knex,
): Promise<Array<{ transactionId: string; gatewayTransactionId: string }>> {
  // Before the projection's first run the table does not exist yet: nothing to check.
  if (!(await db.schema.hasTable('crypto_transactions'))) return [];
  const rows = await db('crypto_transactions')
    .where({ status: 'processing' })
    .whereNotNull('gateway_transaction_id')
    .orderBy('created_at')
    .limit(500);
  return rows.map((row) => ({ transactionId: row.id, gatewayTransactionId: row.gateway_transaction_id }));
}

/** The finance console's table of this read model (see admin-tables.ts). */
export const conversionsAdminTable: AdminTable<AdminConversionRow> = {
  base: (db) =>
    db('crypto_transactions as c')
      .joinRaw('left join users u on u.id::text = c.user_id')
      .leftJoin('crypto_conversions as n', 'n.transaction_id', 'c.id')
      .select('c.*', 'u.email as user_email', 'n.number as conversion_number'),
  id: 'c.id',
  created: 'c.created_at',
  amount: 'c.usd_amount_cents',
  status: 'c.status',
  users: ['c.user_id'],
  sort: {
    createdAt: 'c.created_at',
    amount: 'c.usd_amount_cents',
    netAmount: 'c.net_usd_cents',
    fee: 'c.service_fee_cents',
    status: 'c.status',
    userId: 'c.user_id',
  },
  defaultSort: 'createdAt',
  view: (row) => ({
    id: row.id,
    conversionNumber: row.conversion_number === null ? null : Number(row.conversion_number),
    userId: row.user_id,
    userEmail: row.user_email ?? null,
    cryptoType: row.crypto_type,
    cryptoAmount: String(row.crypto_amount),
    exchangeRate: String(row.exchange_rate),
    amount: formatCents(row.usd_amount_cents),
    fee: formatCents(row.service_fee_cents),
    netAmount: formatCents(row.net_usd_cents),
    status: row.status,
    transactionHash: row.transaction_hash,
    failureReason: row.failure_reason,
    createdAt: isoOrNull(row.created_at)!,
    streamId: `cryptoTransaction-${row.id}`,
  }),
  csv: [
    ['id', (r) => r.id],
    ['conversionNumber', (r) => r.conversionNumber],
    ['createdAt', (r) => r.createdAt],
    ['userId', (r) => r.userId],
    ['userEmail', (r) => r.userEmail],
    ['cryptoType', (r) => r.cryptoType],
    ['cryptoAmount', (r) => r.cryptoAmount],
    ['exchangeRate', (r) => r.exchangeRate],
    ['usdAmount', (r) => r.amount],
    ['serviceFee', (r) => r.fee],
    ['netAmount', (r) => r.netAmount],
    ['status', (r) => r.status],
    ['transactionHash', (r) => r.transactionHash],
    ['failureReason', (r) => r.failureReason],
  ],
};
