import { bulkInsert } from './bulk-insert';
import type { ProjectionContext } from './projector';

export type Row = Record<string, unknown>;

/**
 * Load-modify-store for `applyAll`: the rows of one table a batch touches, read in one query,
 * changed in memory event by event (so each event sees the ones before it, as one by one),
 * then written back in one upsert. Rows come back as PostgreSQL gives them (int8/numeric as
 * strings, timestamps as Date); a row created in memory must carry every column, defaults too.
 */
export class KeyedRows {
  private readonly rows = new Map<string, Row>();
  private readonly touched = new Set<string>();

  private constructor(
    private readonly context: ProjectionContext,
    private readonly table: string,
    private readonly key: string,
  ) {}

  /** The stored rows whose `key` is one of `keys`. */
  static async load(context: ProjectionContext, table: string, key: string, keys: Iterable<string>): Promise<KeyedRows> {
    const loaded = new KeyedRows(context, table, key);
    const wanted = [...new Set(keys)];
    if (wanted.length === 0) return loaded;
    const { rows } = await context.trx.raw(`SELECT * FROM ${context.ref(table)} WHERE "${key}" = ANY(?)`, [wanted]);
    for (const row of rows as Row[]) loaded.rows.set(String(row[key]), row);
    return loaded;
  }

  get(key: string): Row | undefined {
    return this.rows.get(key);
  }

  set(key: string, row: Row): void {
    this.rows.set(key, row);
    this.touched.add(key);
  }

  /** Replaces the row by what `next` makes of it; returning it unchanged (or undefined) writes nothing. */
  change(key: string, next: (row: Row | undefined) => Row | undefined): void {
    const row = this.rows.get(key);
    const changed = next(row);
    if (changed && changed !== row) this.set(key, changed);
  }

  /** Writes the rows set since loading (one statement per 10,000). */
  async store(): Promise<void> {
    const rows = [...this.touched].map((key) => this.rows.get(key)!);
    await bulkInsert(this.context, this.table, rows, { conflict: [this.key], merge: true });
  }
}
