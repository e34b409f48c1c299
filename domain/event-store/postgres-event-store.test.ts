import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { describeEventStoreContract } from './contract';
import { PostgresEventStore } from './postgres-event-store';

let database: TestDatabase;

describeEventStoreContract(
  'PostgreSQL',
  async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore({ connectionString: database.url, poolSize: 12 });
    await store.migrate();
    return store;
  },
  () => database.drop(),
);
