import type { RecordedEvent } from '../event-store/port';
import { handleCommand, loadState } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import { flowOfReference } from '../shared/money-flows';
import type { ProcessManager } from '../shared/process-manager';
import type { BalanceMovement } from '../wallet/events';
import { tipDecider } from './decider';
import { tipStream } from './events';

/**
 * A balance spend for a tip always gives it: the request gives the tip right after spending;
 * this completes it when the request died in between. The event id derives from the spend and
 * the decider gives once, so replays write nothing.
 */
export const tipProcess: ProcessManager = {
  name: 'tip',
  eventTypes: ['WalletDebited'],
  async handle(event, { store }) {
    const spend = event.data as BalanceMovement;
    const named = flowOfReference(spend.reference);
    if (named?.flow !== 'tip') return;
    const { state } = await loadState(store, tipStream(named.id), tipDecider);
    if (!state.terms || state.given || state.terms.tipperId !== spend.userId || state.terms.source !== 'balance')
      return;
    const at = new Date(occurredAt(event));
    await handleCommand(
      store,
      tipStream(named.id),
      tipDecider,
      { type: 'GiveTip', transactionId: null, paymentReference: spend.reference, at },
      {
        actorId: spend.userId,
        correlationId: event.metadata.correlationId ?? event.eventId,
        causationId: event.eventId,
        now: at,
      },
      { eventIds: [deterministicId('tip-given', event.eventId)] },
    );
  },
};

const occurredAt = (event: RecordedEvent) => (event.metadata.occurredAt as string | undefined) ?? event.createdAt;
