import { creatorSubscriptionDecider } from '../creators/subscription-decider';
import { membershipDecider } from '../membership/decider';
import { membershipStream } from '../membership/events';
import { handleCommand } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import type { ProcessManager } from '../shared/process-manager';
import type { ChargeDisputedData, ChargeRefundedData } from './events';

/**
 * A charge given back in full ends what it bought. A site-plan charge (refunded in full, or
 * taken back by a chargeback) ends the membership period it paid for, if it still runs. A tier
 * charge refunded in full or charged back ends its subscription whatever the charge's age
 * (CreatorSubscriptionChargeGivenBack: it moves no money, so the ledger, the creator's reversal
 * and the billing history count the refund or dispute once, from this stream). Once per refund
 * or dispute id; a charge of a subscription that no longer runs ends nothing.
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
    if (charge.flow !== 'tier_subscription' || !charge.subscriptionStreamId) return;
    const givenBackId = refund ? `refund:${refund.gatewayRefundId}` : `dispute:${(d as ChargeDisputedData).disputeId}`;
    await handleCommand(
      store,
      charge.subscriptionStreamId,
      creatorSubscriptionDecider,
      {
        type: 'EndCreatorSubscriptionGivenBack',
        transactionId: charge.gatewayTransactionId,
        givenBackId,
        cause: refund ? 'refund' : 'chargeback',
        at: now,
      },
      context,
      { eventIds: [deterministicId('creator-subscription-given-back', givenBackId)] },
    );
  },
};
