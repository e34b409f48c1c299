import type { Knex } from 'knex';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import type { Projector } from '../../projections/engine/projector';
import { createTestDatabase, type TestDatabase } from './test-database';

/** A small, idempotent read model for the command tests: how often each stream was bumped. */
export function tallyProjector(name = 'tallies'): Projector {
  return {
    name,
    version: 1,
    tables: [name],
    eventTypes: ['Bumped'],
    async createTables(db, schema) {
      await db.schema.withSchema(schema).createTable(name, (t) => {
        t.text('id').primary();
        t.integer('count').notNullable();
        t.bigInteger('last_revision').notNullable();
      });
    },
    async apply({ table }, event) {
      const existing = await table(name).where({ id: event.streamId }).first();
      if (existing && BigInt(existing.last_revision) >= event.revision) return; // already applied
      if (existing)
        await table(name)
          .where({ id: event.streamId })
          .update({ count: existing.count + 1, last_revision: event.revision.toString() });
      else await table(name).insert({ id: event.streamId, count: 1, last_revision: event.revision.toString() });
    },
  };
}

export interface Fixture {
  database: TestDatabase;
  store: PostgresEventStore;
  db: Knex;
  close(): Promise<void>;
}

/** A fresh database with the event log and the infrastructure tables. */
export async function openFixture(): Promise<Fixture> {
  const database = await createTestDatabase();
  const store = new PostgresEventStore({ connectionString: database.url });
  await store.migrate();
  const db = openReadDatabase(database.url);
  await migrateToLatest(db);
  return {
    database,
    store,
    db,
    async close() {
      await db.destroy();
      await store.close();
      await database.drop();
    },
  };
}
