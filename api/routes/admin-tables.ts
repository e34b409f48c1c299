import type { Knex } from 'knex';
import type { AdminConversionRow, AdminLedgerRow, AdminListQuery, AdminPaymentRow, AdminPayoutRow, AdminResource } from '../../domain/contracts/admin';
import { formatCents } from '../../domain/payouts/money';

/**
 * The finance console's tables: for each resource its query, filters, sort columns, row view
 * and CSV columns. Filters and sorting run in SQL; only whitelisted columns are ever used.
 */

type Row = Record<string, any>;
const iso = (value: Date | string | null) => (value === null || value === undefined ? null : new Date(value).toISOString());

export interface AdminTable<View> {
  base(db: Knex): Knex.QueryBuilder;
  id: string;
  created: string;
  amount: string;
  status: string;
  /** The columns a user filter matches (any of them). */
  users: string[];
  sort: Record<string, string>;
  defaultSort: string;
  view(row: Row): View;
  csv: Array<[string, (view: View) => unknown]>;
}

const payouts: AdminTable<AdminPayoutRow> = {
  base: (db) => db('payouts as p').joinRaw('left join users u on u.id::text = p.creator_id').select('p.*', 'u.email as user_email'),
  id: 'p.id',
  created: 'p.created_at',
  amount: 'p.amount_cents',
  status: 'p.status',
  users: ['p.creator_id'],
  sort: { createdAt: 'p.created_at', amount: 'p.amount_cents', netAmount: 'p.net_amount_cents', status: 'p.status', processedAt: 'p.processed_at', creatorId: 'p.creator_id' },
  defaultSort: 'createdAt',
  view: (row) => ({
    id: row.id,
    creatorId: row.creator_id,
    creatorEmail: row.user_email ?? null,
    paymentAccountId: row.payment_account_id,
    amount: formatCents(row.amount_cents),
    processingFee: formatCents(row.processing_fee_cents),
    netAmount: formatCents(row.net_amount_cents),
    status: row.status,
    gatewayTransactionId: row.gateway_transaction_id,
    failureReason: row.failure_reason,
    staffId: row.staff_id,
    processedAt: iso(row.processed_at),
    createdAt: iso(row.created_at)!,
    streamId: row.stream_id,
  }),
  csv: [
    ['id', (r) => r.id], ['createdAt', (r) => r.createdAt], ['creatorId', (r) => r.creatorId], ['creatorEmail', (r) => r.creatorEmail],
    ['amount', (r) => r.amount], ['processingFee', (r) => r.processingFee], ['netAmount', (r) => r.netAmount], ['currency', () => 'USD'],
    ['status', (r) => r.status], ['paymentAccountId', (r) => r.paymentAccountId], ['gatewayTransactionId', (r) => r.gatewayTransactionId],
    ['failureReason', (r) => r.failureReason], ['staffId', (r) => r.staffId], ['processedAt', (r) => r.processedAt],
  ],
};

const conversions: AdminTable<AdminConversionRow> = {
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
  sort: { createdAt: 'c.created_at', amount: 'c.usd_amount_cents', netAmount: 'c.net_usd_cents', fee: 'c.service_fee_cents', status: 'c.status', userId: 'c.user_id' },
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
    createdAt: iso(row.created_at)!,
    streamId: `cryptoTransaction-${row.id}`,
  }),
  csv: [
    ['id', (r) => r.id], ['conversionNumber', (r) => r.conversionNumber], ['createdAt', (r) => r.createdAt], ['userId', (r) => r.userId], ['userEmail', (r) => r.userEmail],
    ['cryptoType', (r) => r.cryptoType],
    ['cryptoAmount', (r) => r.cryptoAmount], ['exchangeRate', (r) => r.exchangeRate], ['usdAmount', (r) => r.amount], ['serviceFee', (r) => r.fee],
    ['netAmount', (r) => r.netAmount], ['status', (r) => r.status], ['transactionHash', (r) => r.transactionHash], ['failureReason', (r) => r.failureReason],
  ],
};

const payments: AdminTable<AdminPaymentRow> = {
  base: (db) => db('payments as p').leftJoin('users as u', 'u.id', 'p.user_id').select('p.*', 'u.email as user_email'),
  id: 'p.id',
  created: 'p.created_at',
  amount: 'p.amount_cents',
  status: 'p.status',
  users: ['p.user_id'],
  sort: { createdAt: 'p.created_at', amount: 'p.amount_cents', status: 'p.status', requestType: 'p.request_type', userId: 'p.user_id' },
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
    createdAt: iso(row.created_at)!,
    streamId: `payment-${row.id}`,
  }),
  csv: [
    ['id', (r) => r.id], ['createdAt', (r) => r.createdAt], ['userId', (r) => r.userId], ['userEmail', (r) => r.userEmail], ['requestType', (r) => r.requestType],
    ['amount', (r) => r.amount], ['currency', (r) => r.currency], ['status', (r) => r.status], ['cardLast4', (r) => r.cardLast4],
    ['gatewayTransactionId', (r) => r.gatewayTransactionId], ['failureReason', (r) => r.failureReason],
  ],
};

const ledger: AdminTable<AdminLedgerRow> = {
  base: (db) =>
    db('ledger_entries as e')
      .join('ledger_transactions as t', 't.id', 'e.transaction_id')
      .select('e.*', 't.kind', 't.stream_id', 't.description', 't.user_id', 't.occurred_at'),
  id: 'e.transaction_id',
  created: 'e.effective_at',
  amount: 'greatest(e.debit_cents, e.credit_cents)',
  status: 't.kind',
  users: ['e.owner_id', 't.user_id'],
  sort: { effectiveAt: 'e.effective_at', amount: 'greatest(e.debit_cents, e.credit_cents)', account: 'e.account', kind: 't.kind' },
  defaultSort: 'effectiveAt',
  view: (row) => ({
    id: `${row.transaction_id}#${row.line}`,
    transactionId: row.transaction_id,
    account: row.account,
    ownerId: row.owner_id,
    debit: formatCents(row.debit_cents),
    credit: formatCents(row.credit_cents),
    kind: row.kind,
    description: row.description,
    userId: row.user_id,
    effectiveAt: iso(row.effective_at)!,
    streamId: row.stream_id,
  }),
  csv: [
    ['transactionId', (r) => r.transactionId], ['effectiveAt', (r) => r.effectiveAt], ['kind', (r) => r.kind], ['account', (r) => r.account], ['ownerId', (r) => r.ownerId],
    ['debit', (r) => r.debit], ['credit', (r) => r.credit], ['userId', (r) => r.userId], ['description', (r) => r.description], ['streamId', (r) => r.streamId],
  ],
};

export const ADMIN_TABLES: Record<AdminResource, AdminTable<any>> = { payouts, conversions, payments, ledger };

/** The filtered query (no order, no paging). */
export function filtered(db: Knex, table: AdminTable<unknown>, query: AdminListQuery): Knex.QueryBuilder {
  const builder = table.base(db);
  if (query.status) builder.whereRaw(`${table.status} = ?`, [query.status]);
  if (query.from) builder.where(table.created, '>=', query.from);
  if (query.to) builder.where(table.created, '<=', query.to);
  if (query.userId) {
    const userId = query.userId;
    builder.where((inner) => {
      for (const column of table.users) inner.orWhereRaw(`${column}::text = ?`, [userId]);
    });
  }
  if (query.minAmount !== undefined) builder.whereRaw(`${table.amount} >= ?`, [query.minAmount]);
  if (query.maxAmount !== undefined) builder.whereRaw(`${table.amount} <= ?`, [query.maxAmount]);
  if (query.id) builder.whereRaw(`${table.id}::text = ?`, [query.id]);
  if (query.account && table === ledger) builder.where('e.account', query.account);
  return builder;
}

export function ordered(db: Knex, builder: Knex.QueryBuilder, table: AdminTable<unknown>, query: AdminListQuery): Knex.QueryBuilder {
  const column = table.sort[query.sortField ?? table.defaultSort];
  const direction = query.sortOrder === 'asc' ? 'asc' : 'desc';
  builder.orderByRaw(`${column} ${direction} nulls last`).orderByRaw(`${table.id} ${direction}`);
  if (table === ledger) builder.orderBy('e.line', direction);
  return builder;
}
