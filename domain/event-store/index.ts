import { PersonalDataCipher } from '../privacy/cipher';
import { PostgresKeyStore } from '../privacy/key-store';
import { PrivateEventStore } from '../privacy/private-event-store';
import type { EventStore } from './port';
import { EventStoreDbEventStore } from './eventstoredb-event-store';
import { PostgresEventStore } from './postgres-event-store';

/**
 * EVENTSTORE_CONNECTION_STRING selects EventStoreDB; otherwise the PostgreSQL log in DATABASE_URL.
 * With `personalDataKey` (the key store's own key) personal data is sealed per person
 * (domain/privacy/): the keys live in DATABASE_URL whichever log is used.
 */
export async function openEventStore(options: {
  databaseUrl: string;
  eventStoreConnectionString?: string;
  personalDataKey?: Buffer;
}): Promise<EventStore> {
  const log = await openLog(options);
  if (!options.personalDataKey) return log;
  const keys = new PostgresKeyStore({ connectionString: options.databaseUrl, masterKey: options.personalDataKey });
  await keys.migrate();
  return new PrivateEventStore(log, new PersonalDataCipher(keys));
}

async function openLog(options: { databaseUrl: string; eventStoreConnectionString?: string }): Promise<EventStore> {
  if (options.eventStoreConnectionString) return new EventStoreDbEventStore(options.eventStoreConnectionString);
  const store = new PostgresEventStore({ connectionString: options.databaseUrl });
  await store.migrate();
  return store;
}
