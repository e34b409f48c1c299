import type { Knex } from 'knex';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface OpenedTestDatabase {
  url: string;
  db: Knex;
  /** The PostgreSQL event log on the same database (migrated). */
  store: PostgresEventStore;
}

/**
 * A fresh database for one test file: opened before its tests (handed to `opened`), closed and
 * dropped after them. Register it before the file's own beforeAll hooks, which then see it.
 */
export function useTestDatabase(
  opened: (handles: OpenedTestDatabase) => void,
  options: { poolSize?: number } = {},
): void {
  let database: TestDatabase;
  let handles: OpenedTestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore({ connectionString: database.url });
    await store.migrate();
    handles = { url: database.url, db: openReadDatabase(database.url, options.poolSize), store };
    opened(handles);
  });
  afterAll(async () => {
    await handles?.db.destroy();
    await handles?.store.close();
    await database?.drop();
  });
}
