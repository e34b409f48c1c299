import { creatorSubscriptionDecider } from '../creators/subscription-decider';
import { membershipDecider } from '../membership/decider';
import { membershipStream } from '../membership/events';
import { handleCommand } from '../shared/command-handler';
import { DomainError } from '../shared/errors';
import { deterministicId } from '../shared/ids';
import type { ProcessManager } from '../shared/process-manager';
import type { ChargeDisputedData, ChargeRefundedData } from './events';

/**
 * A charge given back in full ends what it bought. A site-plan charge (refunded in full, or
 * taken back by a chargeback) ends the membership period it paid for, if it still runs. A tier
 * charge refunded in full by finance staff ends the subscription the way the money-back guarantee
 * does (CreatorSubscriptionRefunded with the same gateway refund id, so the ledger, the creator's
 * reversal and the billing history count that refund once); the subscription's decider accepts
 * that for its latest charge within its 7 days only, and an older one keeps its access.
 */
export const purchaseEndsProcess: ProcessManager = {
  name: 'refund-ends-purchase',
  eventTypes: ['ChargeRefunded', 'ChargeDisputed'],
  async handle(event, { store, now }) {
    const d = event.data as ChargeRefundedData | ChargeDisputedData;
    const refund = 'gatewayRefundId' in d ? d : null;
    if (refund && !refund.full) return;
    const context = {
      actorId: event.metadata.actorId ?? null,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now,
    };
    const { charge } = d;
    if (charge.flow === 'site_plan') {
      await handleCommand(
        store,
        membershipStream(charge.userId),
        membershipDecider,
        { type: 'EndRefundedPeriod', userId: charge.userId, paymentId: charge.chargeId, now },
        context,
        { eventIds: [deterministicId('membership-refunded', event.eventId)] },
      );
      return;
    }
    if (charge.flow !== 'tier_subscription' || !charge.subscriptionStreamId || !refund) return;
    try {
      await handleCommand(
        store,
        charge.subscriptionStreamId,
        creatorSubscriptionDecider,
        {
          type: 'RecordCreatorSubscriptionRefund',
          transactionId: charge.gatewayTransactionId,
          gatewayRefundId: refund.gatewayRefundId,
          reason: refund.reason,
          at: now,
        },
        context,
        { eventIds: [deterministicId('creator-subscription-refunded', event.eventId)] },
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // not its running, refundable charge: access stays
    }
  },
};
