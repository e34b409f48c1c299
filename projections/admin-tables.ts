import type { Knex } from 'knex';
import type { AdminListQuery, AdminPage } from '../domain/contracts/admin';

/**
 * The finance console's tables: each money read model defines its table (query, filters, sort
 * columns, row view, CSV columns: `payoutsAdminTable` in payouts.ts, `paymentsAdminTable`,
 * `conversionsAdminTable` in crypto-transactions.ts, `ledgerAdminTable`); this is what they
 * share: filters and sorting run in SQL, and only whitelisted columns are ever used.
 */

type Row = Record<string, any>;

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
  /** The account column the `account` filter matches (the ledger's). */
  account?: string;
  /** A last sort column for rows that share the id (the ledger's lines of one transaction). */
  tieBreak?: string;
}

/** How the tables show times: ISO strings, null stays null. */
export const isoOrNull = (value: Date | string | null) =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** The filtered query (no order, no paging). */
function filtered<View>(db: Knex, table: AdminTable<View>, query: AdminListQuery): Knex.QueryBuilder {
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
  if (query.account && table.account) builder.where(table.account, query.account);
  return builder;
}

function ordered<View>(
  db: Knex,
  builder: Knex.QueryBuilder,
  table: AdminTable<View>,
  query: AdminListQuery,
): Knex.QueryBuilder {
  const column = table.sort[query.sortField ?? table.defaultSort];
  const direction = query.sortOrder === 'asc' ? 'asc' : 'desc';
  builder.orderByRaw(`${column} ${direction} nulls last`).orderByRaw(`${table.id} ${direction}`);
  if (table.tieBreak) builder.orderBy(table.tieBreak, direction);
  return builder;
}

/** One page of a table (filtered, sorted) and how many rows match in all. */
export async function adminPage<View>(
  db: Knex,
  table: AdminTable<View>,
  query: AdminListQuery,
): Promise<AdminPage<View>> {
  const [rows, count] = await Promise.all([
    ordered(db, filtered(db, table, query), table, query)
      .limit(query.pageSize)
      .offset(query.page * query.pageSize),
    filtered(db, table, query).clearSelect().count({ n: '*' }).first(),
  ]);
  return { rows: rows.map(table.view), total: Number(count?.n ?? 0), page: query.page, pageSize: query.pageSize };
}

/** Every matching row, sorted, `batch` at a time (for a CSV export: run it in one snapshot). */
export async function* adminRows<View>(
  db: Knex,
  table: AdminTable<View>,
  query: AdminListQuery,
  batch: number,
): AsyncGenerator<View[]> {
  for (let offset = 0; ; offset += batch) {
    const rows = await ordered(db, filtered(db, table, query), table, query)
      .limit(batch)
      .offset(offset);
    if (rows.length) yield rows.map(table.view);
    if (rows.length < batch) return;
  }
}

/** One row of a table by its id, as the table shows it. */
export async function adminRow<View>(db: Knex, table: AdminTable<View>, id: string): Promise<View> {
  return table.view(await filtered(db, table, { id, page: 0, pageSize: 1, sortOrder: 'desc' }).first());
}
