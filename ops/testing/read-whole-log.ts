import type { EventStore, RecordedEvent } from '../../domain/event-store/port';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { storedLog } from '../../domain/privacy/private-event-store';

/**
 * Every event of the log, once all that was appended is readable. On a server shared by other
 * test files an open transaction there briefly hides new events from read-all (snapshot xmin
 * is server-wide), so a test that reads right after writing waits for them.
 */
export async function readWholeLog(store: EventStore, timeoutMs = 20_000): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  const log = storedLog(store); // sealing or not, the PostgreSQL log underneath counts its rows
  for (;;) {
    const events = await store.readAll({ maxCount: 1_000_000 });
    if (!(log instanceof PostgresEventStore) || events.length >= (await log.countEvents()) || Date.now() > deadline)
      return events;
    await store.waitForAppend(50);
  }
}
