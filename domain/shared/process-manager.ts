import type { EventStore, RecordedEvent } from '../event-store/port';

/**
 * A cross-aggregate flow (a captured payment activates a membership, …). It reacts to events
 * by running commands; every event it writes has an id derived from the triggering event
 * (deterministicId), so handling an event twice writes nothing new.
 */
export interface ProcessManager {
  name: string;
  eventTypes: string[];
  handle(event: RecordedEvent, context: { store: EventStore; now: Date }): Promise<void>;
}
