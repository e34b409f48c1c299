import type { Knex } from 'knex';
import type { RecordedEvent } from '../../domain/event-store/port';

/** Where a projector writes: its tables inside the schema being built (public, or a rebuild's). */
export interface ProjectionContext {
  trx: Knex.Transaction;
  schema: string;
  /** A query builder on one of the projector's tables in that schema. */
  table(name: string): Knex.QueryBuilder;
  /** The quoted, schema-qualified name, for raw SQL. */
  ref(name: string): string;
}

/**
 * The only keys of an event's metadata a projector may read (when a fact happened). A rebuild
 * reads no others: they are nearly half of a log's bytes.
 */
export const PROJECTION_METADATA_KEYS = ['occurredAt'] as const;

/**
 * A projector builds one read model from events. It owns `tables`, creates them in any schema
 * (so a rebuild can build beside the live copy) and is idempotent: applying an event twice
 * leaves the same rows.
 */
export interface Projector {
  name: string;
  /** Bump when the tables or their meaning change: the read model is then rebuilt. */
  version: number;
  tables: string[];
  /** Event types it reads; every other event only moves its checkpoint (a rebuild skips them). */
  eventTypes: string[];
  createTables(db: Knex, schema: string): Promise<void>;
  /**
   * Set when `apply` finds rows through non-unique indexes: a rebuild then keeps them while it
   * builds (otherwise it makes them once at the end, which is much cheaper).
   */
  appliesThroughIndexes?: boolean;
  /**
   * Tables whose rows `applyAll` only inserts, each key made by one event of the log: a
   * rebuild builds them without their primary key and makes it at the end, as the other
   * indexes (a repeated key then fails the rebuild, and the live tables keep serving).
   */
  appendOnlyTables?: string[];
  apply(context: ProjectionContext, event: RecordedEvent): Promise<void>;
  /**
   * Optional: the events of one batch (only those of `eventTypes`, in order) at once, with
   * fewer round trips; must leave exactly the rows `apply` one by one would.
   */
  applyAll?(context: ProjectionContext, events: RecordedEvent[]): Promise<void>;
}

export function projectionContext(trx: Knex.Transaction, schema: string): ProjectionContext {
  return {
    trx,
    schema,
    table: (name) => trx.withSchema(schema).table(name),
    ref: (name) => `"${schema}"."${name}"`,
  };
}
