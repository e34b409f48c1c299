import type { RecordedEvent } from '../../domain/event-store/port';
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
  private readonly stored = new Set<string>();
  private readonly touched = new Set<string>();

  private constructor(
    private readonly context: ProjectionContext,
    private readonly table: string,
    private readonly key: string,
  ) {}

  /** The stored rows whose `key` is one of `keys`. */
  static async load(
    context: ProjectionContext,
    table: string,
    key: string,
    keys: Iterable<string>,
  ): Promise<KeyedRows> {
    const loaded = new KeyedRows(context, table, key);
    const wanted = [...new Set(keys)];
    if (wanted.length === 0) return loaded;
    const { rows } = await context.trx.raw(`SELECT * FROM ${context.ref(table)} WHERE "${key}" = ANY(?)`, [wanted]);
    for (const row of rows as Row[]) {
      loaded.rows.set(String(row[key]), row);
      loaded.stored.add(String(row[key]));
    }
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

  /** Writes the rows set since loading: new ones inserted (by COPY), stored ones upserted. */
  async store(): Promise<void> {
    const touched = [...this.touched];
    const rowsOf = (keys: string[]) => keys.map((key) => this.rows.get(key)!);
    await bulkInsert(this.context, this.table, rowsOf(touched.filter((key) => !this.stored.has(key))), {
      conflict: [this.key],
      distinct: true,
    });
    await bulkInsert(this.context, this.table, rowsOf(touched.filter((key) => this.stored.has(key))), {
      conflict: [this.key],
      merge: true,
    });
  }
}

/**
 * `applyAll`, and `apply` as a batch of one, for a table where every event changes the one row
 * that `keyOf` names: two statements per batch. `next` gives the row after the event (the same
 * object, or undefined, when the event changes nothing).
 */
export function rowPerEvent(
  table: string,
  key: string,
  keyOf: (event: RecordedEvent) => string,
  next: (row: Row | undefined, event: RecordedEvent) => Row | undefined,
) {
  const applyAll = async (context: ProjectionContext, events: RecordedEvent[]): Promise<void> => {
    const rows = await KeyedRows.load(context, table, key, events.map(keyOf));
    for (const event of events) rows.change(keyOf(event), (row) => next(row, event));
    await rows.store();
  };
  return { applyAll, apply: (context: ProjectionContext, event: RecordedEvent) => applyAll(context, [event]) };
}
