import type { EventStore } from './port';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { PostgresEventStore } from './postgres-event-store';

/** EVENTSTORE_CONNECTION_STRING selects EventStoreDB; otherwise the PostgreSQL log in DATABASE_URL. */
export async function openEventStore(options: {
  databaseUrl: string;
  eventStoreConnectionString?: string;
}): Promise<EventStore> {
  if (options.eventStoreConnectionString) return new EventStoreDbEventStore(options.eventStoreConnectionString);
  const store = new PostgresEventStore({ connectionString: options.databaseUrl });
  await store.migrate();
  return store;
}
