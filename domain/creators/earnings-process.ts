import type { CreatorSubscriptionStarted } from './events';
import type { MessageUnlocked } from '../messaging/events';
import { creditEarnings } from '../payouts/credit-earnings';
import type { ProcessManager } from '../shared/process-manager';

/**
 * A paid tier subscription or an unlocked paid message credits the creator's earnings
 * (90% creator, 10% platform, split by the payouts context). The credit's reference is the
 * sale's id, and its event id derives from it, so a replayed sale is credited once.
 */
export const creatorEarningsProcess: ProcessManager = {
  name: 'creator-earnings',
  eventTypes: ['CreatorSubscriptionStarted', 'MessageUnlocked'],
  async handle(event, { store, now }) {
    const context = {
      actorId: event.metadata.actorId ?? null,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now,
    };
    if (event.type === 'CreatorSubscriptionStarted') {
      const data = event.data as CreatorSubscriptionStarted['data'];
      await creditEarnings(
        store,
        data.creatorId,
        { grossCents: data.priceCents, source: 'subscription', reference: `creatorSubscription:${data.subscriptionId}`, occurredAt: data.startDate, payerId: data.subscriberId },
        context,
      );
      return;
    }
    const data = event.data as MessageUnlocked['data'];
    await creditEarnings(
      store,
      data.senderId,
      { grossCents: data.priceCents, source: 'message_unlock', reference: `messageUnlock:${data.messageId}`, occurredAt: data.unlockedAt, payerId: data.receiverId },
      context,
    );
  },
};
