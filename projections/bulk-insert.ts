import type { ProjectionContext } from './projector';

export interface BulkInsertOptions {
  /** The unique key a row already there runs into. */
  conflict: string[];
  /** On conflict, overwrite the other columns (rows must then have distinct keys); else keep the stored row. */
  merge?: boolean;
}

const CHUNK = 10_000;
const quote = (column: string) => `"${column}"`;

/**
 * Inserts many rows in one statement per 10,000 with a single parameter: the rows as JSON,
 * turned into the table's row type by the server. Costs the projector one JSON.stringify instead
 * of a bound parameter per value (knex's multi-row insert), and the server one parameter to
 * parse. Every row has the columns of the first; jsonb columns take values, not JSON text.
 * With ON CONFLICT DO NOTHING the first of two rows with one key wins, as inserts one by one.
 */
export async function bulkInsert(context: ProjectionContext, table: string, rows: Array<Record<string, unknown>>, options: BulkInsertOptions): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const list = columns.map(quote).join(', ');
  const updated = options.merge ? columns.filter((c) => !options.conflict.includes(c)) : [];
  const onConflict = updated.length ? `DO UPDATE SET ${updated.map((c) => `${quote(c)} = EXCLUDED.${quote(c)}`).join(', ')}` : 'DO NOTHING';
  const target = context.ref(table);
  const sql = `INSERT INTO ${target} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${target}, ?::json) ON CONFLICT (${options.conflict.map(quote).join(', ')}) ${onConflict}`;
  for (let i = 0; i < rows.length; i += CHUNK) await context.trx.raw(sql, [JSON.stringify(rows.slice(i, i + CHUNK))]);
}
