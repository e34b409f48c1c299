import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import type { ProcessManager } from '../shared/process-manager';
import { standingStream, type ReportThresholdReached } from './events';
import { standingDecider } from './standing-decider';

/** Suspends an account pending review after a report crossed the threshold; once per crossing, whoever runs it. */
export function suspendAutomatically(
  store: EventStore,
  threshold: ReportThresholdReached['data'],
  context: CommandContext,
) {
  const reason = `Reported by ${threshold.reporterIds.length} members within ${threshold.windowHours} hours`;
  return handleCommand(
    store,
    standingStream(threshold.targetUserId),
    standingDecider,
    {
      type: 'SuspendAutomatically',
      userId: threshold.targetUserId,
      reason,
      reportId: threshold.reportId,
      now: context.now,
    },
    { ...context, actorId: null },
    { eventIds: [deterministicId('auto-suspension', threshold.reportId)] },
  );
}

/**
 * Reports from N distinct members within the window suspend the account pending review. The
 * report request suspends it at once; this does it from the log when that request died in
 * between. The suspension's event id derives from the report and the standing decider
 * suspends only an active account, so running twice writes nothing more.
 */
export const autoSuspensionProcess: ProcessManager = {
  name: 'auto-suspension',
  eventTypes: ['ReportThresholdReached'],
  async handle(event, { store, now }) {
    const threshold = event.data as ReportThresholdReached['data'];
    const context = {
      actorId: null,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now,
    };
    await suspendAutomatically(store, threshold, context);
  },
};
