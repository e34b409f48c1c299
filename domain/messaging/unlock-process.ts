import type { RecordedEvent } from '../event-store/port';
import { handleCommand, loadState } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import { flowOfReference } from '../shared/money-flows';
import type { ProcessManager } from '../shared/process-manager';
import type { BalanceMovement } from '../wallet/events';
import { messageDecider } from './decider';
import { messageStream } from './events';

/**
 * A balance spend for a message unlock always unlocks it (DESIGN §4): the request unlocks
 * right after spending; this completes the unlock when the request died in between. The event
 * id derives from the spend, and the decider unlocks once, so replays write nothing. A spend
 * for a message that cannot be unlocked by its payer is left alone (reconcile reports it).
 */
export const messageUnlockProcess: ProcessManager = {
  name: 'message-unlock',
  eventTypes: ['WalletDebited'],
  async handle(event, { store }) {
    const spend = event.data as BalanceMovement;
    const named = flowOfReference(spend.reference);
    if (named?.flow !== 'message_unlock') return;
    const messageId = named.id;
    const { state } = await loadState(store, messageStream(messageId), messageDecider);
    if (state.unlocked || !state.sent || state.receiverId !== spend.userId || state.priceCents === null) return;
    const at = new Date(occurredAt(event));
    const context = {
      actorId: spend.userId,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now: at,
    };
    await handleCommand(
      store,
      messageStream(messageId),
      messageDecider,
      { type: 'UnlockMessage', messageId, userId: spend.userId, paymentReference: spend.reference, at },
      context,
      {
        eventIds: [deterministicId('message-unlock', event.eventId)],
      },
    ).catch((error: unknown) => {
      // Unlocked meanwhile (by the request itself): nothing left to do.
      if (!(error instanceof Error && error.message === 'This message is already unlocked')) throw error;
    });
  },
};

const occurredAt = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;
