import type { EventStore } from '../../domain/event-store/port';
import type { ProcessManager } from '../../domain/shared/process-manager';
import type { Projector } from './projector';

/**
 * Runs a process manager on the projection runner: same checkpoint, lock and catch-up, no
 * tables. Its commands go to the event store; the checkpoint moves after them, and a
 * replayed event writes nothing new because the process manager's event ids are derived.
 */
export function processManagerFollower(manager: ProcessManager, store: EventStore, clock: () => Date): Projector {
  return {
    name: `pm:${manager.name}`,
    version: 1,
    tables: [],
    eventTypes: manager.eventTypes,
    createTables: async () => undefined,
    apply: (_context, event) => manager.handle(event, { store, now: clock() }),
  };
}
