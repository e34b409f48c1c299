import type { Knex } from 'knex';
import type { AdminLedgerRow, RevenueDay } from '../domain/contracts/admin';
import { formatCents } from '../domain/contracts/money';
import { isoOrNull, type AdminTable } from './admin-tables';
import { LEDGER_ACCOUNTS as A } from '../domain/ledger/accounts';
import { ledgerEffect, LEDGER_EVENT_TYPES, type Fact, type LedgerMemory } from '../domain/ledger/postings';
import { applyLedgerBatch, entryRows, transactionRow } from './ledger-batch';
import type { Projector } from './engine/projector';

/**
 * The double-entry ledger: every money event becomes balanced transactions on named accounts
 * (domain/ledger). `ledger_facts` keeps what later events need (a conversion's fee, a
 * payout's amounts). Rows are keyed by transaction id, so applying an event twice writes once.
 */

// Keys compared byte by byte: the ledger writes 2 rows per event, and under the usual
// language-aware collations each key comparison costs several times more (same order for ids).
const KEY = 'text COLLATE "C"';

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('ledger_transactions', (t) => {
    // Read through its entries (which carry the dates and owners), by id or by kind.
    t.specificType('id', KEY).primary();
    t.uuid('event_id').notNullable();
    t.text('event_type').notNullable();
    t.text('stream_id').notNullable();
    t.text('kind').notNullable().index();
    t.text('user_id').nullable();
    t.text('reference').nullable();
    t.text('description').notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('effective_at', { useTz: true }).notNullable();
  });
  await db.schema.withSchema(schema).createTable('ledger_entries', (t) => {
    t.specificType('transaction_id', KEY).notNullable();
    t.integer('line').notNullable();
    t.text('account').notNullable();
    t.text('owner_id').nullable();
    t.bigInteger('debit_cents').notNullable();
    t.bigInteger('credit_cents').notNullable();
    // Repeated from the transaction: balances by account and date read no other table.
    t.timestamp('effective_at', { useTz: true }).notNullable();
    t.primary(['transaction_id', 'line']);
    // By date: the journal and the revenue report (platform accounts, which have no owner).
    t.index(['effective_at']);
  });
  // A member's or creator's balances by account and date. Owner first and only owned entries:
  // led by the account, with its few values, the index took a rebuild 7 s to sort, not 2.5.
  await db.raw(
    `CREATE INDEX ledger_entries_owner_account_effective_at ON "${schema}".ledger_entries (owner_id, account, effective_at) WHERE owner_id IS NOT NULL`,
  );
  await db.schema.withSchema(schema).createTable('ledger_facts', (t) => {
    t.specificType('kind', KEY).notNullable();
    t.specificType('key', KEY).notNullable();
    t.jsonb('value').notNullable();
    t.primary(['kind', 'key']);
  });
}

export const ledgerProjector: Projector = {
  name: 'ledger',
  version: 7,
  tables: ['ledger_transactions', 'ledger_entries', 'ledger_facts'],
  eventTypes: LEDGER_EVENT_TYPES,
  createTables,
  // A transaction's id comes from its event (the event id, or derived from it); its entries are
  // written with it. Facts keep their key: the batch looks them up.
  appendOnlyTables: ['ledger_transactions', 'ledger_entries'],
  async apply({ table }, event) {
    const memory: LedgerMemory = {
      async get(kind, key) {
        const row = await table('ledger_facts').where({ kind, key }).first();
        return row?.value;
      },
    };
    const effect = await ledgerEffect(event, memory);
    for (const fact of effect.remember as Fact[]) {
      await table('ledger_facts')
        .insert({ kind: fact.kind, key: fact.key, value: JSON.stringify(fact.value) })
        .onConflict(['kind', 'key'])
        .merge();
    }
    if (effect.cancel.length) {
      await table('ledger_entries').whereIn('transaction_id', effect.cancel).delete();
      await table('ledger_transactions').whereIn('id', effect.cancel).delete();
    }
    if (effect.transactions.length === 0) return;
    // One statement per table for all of the event's transactions: projection batches stay short.
    await table('ledger_transactions').insert(effect.transactions.map(transactionRow)).onConflict('id').ignore();
    const entries = effect.transactions.flatMap(entryRows);
    if (entries.length) await table('ledger_entries').insert(entries).onConflict(['transaction_id', 'line']).ignore();
  },
  applyAll: applyLedgerBatch,
};

/** Balance of one account (and owner) at `at`: credits minus debits, in cents. */
export async function ledgerBalance(db: Knex, account: string, owner: string | null, at: Date): Promise<number> {
  const query = db('ledger_entries').where({ account }).andWhere('effective_at', '<=', at);
  if (owner !== null) query.andWhere({ owner_id: owner });
  const row = await query.select(db.raw('coalesce(sum(credit_cents) - sum(debit_cents), 0)::text as balance')).first();
  return Number(row?.balance ?? 0);
}

/** Net (credits minus debits, in cents) per account and UTC day over [from, to], for these accounts. */
export async function netByAccountAndDay(
  db: Knex,
  accounts: string[],
  from: Date,
  to: Date,
): Promise<Array<{ account: string; day: string; netCents: number }>> {
  const rows = await db('ledger_entries')
    .whereIn('account', accounts)
    .andWhere('effective_at', '>=', from)
    .andWhere('effective_at', '<=', to)
    .select(
      'account',
      db.raw(`to_char(effective_at at time zone 'UTC', 'YYYY-MM-DD') as day`),
      db.raw('(sum(credit_cents) - sum(debit_cents))::text as net'),
    )
    .groupBy('account', 'day');
  return rows.map((row) => ({ account: row.account, day: row.day, netCents: Number(row.net) }));
}

const DAY_MS = 86_400_000;

/**
 * The finance console's revenue per UTC day over [from, to]: every day, the platform's revenue accounts
 * as USD strings, and what it paid back (refunds, chargeback fees) as positive USD strings.
 */
export async function revenueDays(db: Knex, from: Date, to: Date): Promise<RevenueDay[]> {
  const rows = await netByAccountAndDay(
    db,
    [A.platformFees, A.sitePlanRevenue, A.conversionFees, A.payoutFees, A.refunds, A.chargebackFees],
    from,
    to,
  );
  const days = new Map<string, Record<string, number>>();
  for (let t = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()); t <= to.getTime(); t += DAY_MS)
    days.set(new Date(t).toISOString().slice(0, 10), {});
  for (const row of rows) {
    const day = days.get(row.day) ?? {};
    day[row.account] = row.netCents;
    days.set(row.day, day);
  }
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, sums]) => ({
      date,
      platformFees: formatCents(sums[A.platformFees] ?? 0),
      subscriptionRevenue: formatCents(sums[A.sitePlanRevenue] ?? 0),
      conversionFees: formatCents(sums[A.conversionFees] ?? 0),
      payoutFees: formatCents(sums[A.payoutFees] ?? 0),
      // Debit-normal (contra revenue, expense): the net is negative, shown positive as money paid out.
      refunds: formatCents(-(sums[A.refunds] ?? 0)),
      chargebackFees: formatCents(-(sums[A.chargebackFees] ?? 0)),
    }));
}

/** Ids of ledger transactions whose entries do not balance (reconciliation). */
export async function unbalancedTransactionIds(db: Knex): Promise<string[]> {
  const rows = await db('ledger_entries')
    .select('transaction_id')
    .groupBy('transaction_id')
    .havingRaw('sum(debit_cents) <> sum(credit_cents)');
  return rows.map((row) => row.transaction_id);
}

/** Every entry of the ledger (reconciliation compares them with the events). */
export async function allLedgerEntries(
  db: Knex,
): Promise<
  Array<{ transactionId: string; account: string; ownerId: string | null; debitCents: number; creditCents: number }>
> {
  const rows = await db('ledger_entries').select(
    'transaction_id',
    'account',
    'owner_id',
    'debit_cents',
    'credit_cents',
  );
  return rows.map((e) => ({
    transactionId: e.transaction_id,
    account: e.account,
    ownerId: e.owner_id,
    debitCents: Number(e.debit_cents),
    creditCents: Number(e.credit_cents),
  }));
}

/** The finance console's table of this read model (see admin-tables.ts). */
export const ledgerAdminTable: AdminTable<AdminLedgerRow> = {
  base: (db) =>
    db('ledger_entries as e')
      .join('ledger_transactions as t', 't.id', 'e.transaction_id')
      .select('e.*', 't.kind', 't.stream_id', 't.description', 't.user_id', 't.occurred_at'),
  id: 'e.transaction_id',
  created: 'e.effective_at',
  amount: 'greatest(e.debit_cents, e.credit_cents)',
  status: 't.kind',
  users: ['e.owner_id', 't.user_id'],
  sort: {
    effectiveAt: 'e.effective_at',
    amount: 'greatest(e.debit_cents, e.credit_cents)',
    account: 'e.account',
    kind: 't.kind',
  },
  defaultSort: 'effectiveAt',
  account: 'e.account',
  tieBreak: 'e.line',
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
    effectiveAt: isoOrNull(row.effective_at)!,
    streamId: row.stream_id,
  }),
  csv: [
    ['transactionId', (r) => r.transactionId],
    ['effectiveAt', (r) => r.effectiveAt],
    ['kind', (r) => r.kind],
    ['account', (r) => r.account],
    ['ownerId', (r) => r.ownerId],
    ['debit', (r) => r.debit],
    ['credit', (r) => r.credit],
    ['userId', (r) => r.userId],
    ['description', (r) => r.description],
    ['streamId', (r) => r.streamId],
  ],
};
