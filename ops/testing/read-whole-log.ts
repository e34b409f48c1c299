import type { EventStore, RecordedEvent } from '../../domain/event-store/port';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';

/**
 * Every event of the log, once all that was appended is readable. On a server shared by other
 * test files an open transaction there briefly hides new events from read-all (snapshot xmin
 * is server-wide), so a test that reads right after writing waits for them.
 */
export async function readWholeLog(store: EventStore, timeoutMs = 20_000): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await store.readAll({ maxCount: 1_000_000 });
    if (!(store instanceof PostgresEventStore) || events.length >= (await store.countEvents()) || Date.now() > deadline)
      return events;
    await store.waitForAppend(50);
  }
}
