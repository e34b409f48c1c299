import { creditEarnings } from '../payouts/credit-earnings';
import type { ProcessManager } from '../shared/process-manager';
import { CREATOR_SALE_EVENT_TYPES, creatorSaleOf } from './sales';

/**
 * A creator sale (`domain/creators/sales.ts`: a paid tier subscription, an unlocked paid
 * message) credits the creator's earnings (90% creator, 10% platform, split by the payouts
 * context). The credit's reference is the sale's, and its event id derives from it, so a
 * replayed sale is credited once.
 */
export const creatorEarningsProcess: ProcessManager = {
  name: 'creator-earnings',
  eventTypes: CREATOR_SALE_EVENT_TYPES,
  async handle(event, { store, now }) {
    const sale = creatorSaleOf(event);
    if (!sale) return;
    const context = {
      actorId: event.metadata.actorId ?? null,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now,
    };
    await creditEarnings(
      store,
      sale.creatorId,
      {
        grossCents: sale.grossCents,
        source: sale.source,
        reference: sale.reference,
        occurredAt: sale.occurredAt,
        payerId: sale.payerId,
      },
      context,
    );
  },
};
