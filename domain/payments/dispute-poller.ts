import type { EventStore } from '../event-store/port';
import type { PaymentGateway } from './gateway';
import { recordDispute, type ChargeLocator } from './refund-charge';

/**
 * Chargebacks reach the product by polling the processor's list of disputes (a ticker), not by
 * a webhook: nothing has to be reachable from outside, a dispute raised while the product was
 * down is read on the next tick, and each is recorded once by its id, so reading the list again
 * is harmless. A dispute of a charge the read models do not know yet waits for a later tick.
 */
export async function pollDisputes(
  deps: {
    store: EventStore;
    gateway: PaymentGateway;
    locate: (transactionId: string) => Promise<ChargeLocator | null>;
  },
  now: Date,
): Promise<number> {
  let recorded = 0;
  for (const dispute of (await deps.gateway.disputes?.()) ?? []) {
    const locator = await deps.locate(dispute.transactionId);
    if (!locator) continue;
    await recordDispute(deps.store, locator, dispute, { actorId: null, now, correlationId: dispute.disputeId });
    recorded++;
  }
  return recorded;
}
