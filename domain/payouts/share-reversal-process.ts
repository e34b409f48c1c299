import {
  creatorSubscriptionStream,
  type CreatorSubscriptionEvent,
  type CreatorSubscriptionRefunded,
  type CreatorSubscriptionRenewed,
} from '../creators/events';
import type { EventStore } from '../event-store/port';
import type { ChargeDisputedData, ChargeRefundedData } from '../payments/events';
import { tierCharge } from '../payments/refund-charge';
import { earningsSourceOf, flowOfReference, type EarningsSource } from '../shared/money-flows';
import type { ProcessManager } from '../shared/process-manager';
import { creditEarnings, reverseCreatorShare } from './credit-earnings';
import type { ShareReversalCause } from './events';

/**
 * Money given back on a creator sale takes back the creator's share of it: a staff refund
 * (ChargeRefunded), a chargeback (ChargeDisputed) or the money-back guarantee
 * (CreatorSubscriptionRefunded). One reversal per refund or dispute (`refund:<gatewayRefundId>`,
 * `dispute:<disputeId>`), so a refund seen through two events is reversed once.
 */

interface Reversal {
  creatorId: string;
  reference: string;
  reversalId: string;
  cause: ShareReversalCause;
  grossCents: number;
  reason: string;
  /** The sale, when the event knows it: credited first if its earnings process is still behind. */
  sale: { grossCents: number; payerId: string; occurredAt: string; source: EarningsSource } | null;
}

function reversalOf(event: { type: string; data: unknown }): Reversal | null {
  switch (event.type) {
    case 'ChargeRefunded':
    case 'ChargeDisputed': {
      const d = event.data as ChargeRefundedData | ChargeDisputedData;
      const { charge } = d;
      if (!charge.creatorId || !charge.saleReference || d.amountCents <= 0) return null;
      const refund = 'gatewayRefundId' in d;
      return {
        creatorId: charge.creatorId,
        reference: charge.saleReference,
        reversalId: refund ? `refund:${d.gatewayRefundId}` : `dispute:${(d as ChargeDisputedData).disputeId}`,
        cause: refund ? 'refund' : 'chargeback',
        grossCents: d.amountCents,
        reason: d.reason,
        sale: {
          grossCents: charge.amountCents,
          payerId: charge.userId,
          occurredAt: charge.chargedAt,
          source: earningsSourceOf(charge.flow === 'tip' ? 'tip' : 'tier_subscription'),
        },
      };
    }
    default:
      return null;
  }
}

/** The money-back guarantee names its sale by reference: the sale's facts are on the subscription's stream. */
async function moneyBackReversal(store: EventStore, d: CreatorSubscriptionRefunded['data']): Promise<Reversal | null> {
  const chargeId = flowOfReference(d.saleReference)?.id;
  const subscription = { subscriberId: d.subscriberId, creatorId: d.creatorId };
  const sale = !chargeId
    ? null
    : d.paidFrom === 'balance'
      ? await balanceRenewal(store, d, chargeId)
      : (await tierCharge(store, { chargeId, subscription }))?.charge;
  if (!sale) return null; // nothing was charged for it: nothing to take back
  return {
    creatorId: d.creatorId,
    reference: d.saleReference,
    // Once per refund: at the gateway, or the balance credit that gave the period back.
    reversalId: d.gatewayRefundId ? `refund:${d.gatewayRefundId}` : `balance:${d.balanceReference}`,
    cause: 'money_back',
    grossCents: d.amountCents,
    reason: d.reason,
    sale: {
      grossCents: sale.amountCents,
      payerId: d.subscriberId,
      occurredAt: sale.chargedAt,
      source: earningsSourceOf('tier_subscription'),
    },
  };
}

/** A renewal paid from the balance, as its subscription's stream recorded it. */
async function balanceRenewal(store: EventStore, d: CreatorSubscriptionRefunded['data'], renewalId: string) {
  const events = (await store.readStream(
    creatorSubscriptionStream(d.subscriberId, d.creatorId),
  )) as unknown as CreatorSubscriptionEvent[];
  const renewed = events.find(
    (event) => event.type === 'CreatorSubscriptionRenewed' && event.data.renewalId === renewalId,
  ) as CreatorSubscriptionRenewed | undefined;
  return renewed && { amountCents: renewed.data.priceCents, chargedAt: renewed.data.renewedAt };
}

export const creatorShareReversalProcess: ProcessManager = {
  name: 'creator-share-reversal',
  eventTypes: ['ChargeRefunded', 'ChargeDisputed', 'CreatorSubscriptionRefunded'],
  async handle(event, { store, now }) {
    const reversal =
      event.type === 'CreatorSubscriptionRefunded'
        ? await moneyBackReversal(store, event.data as CreatorSubscriptionRefunded['data'])
        : reversalOf(event);
    if (!reversal) return;
    const context = {
      actorId: event.metadata.actorId ?? null,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now,
    };
    const { creatorId, sale, ...input } = reversal;
    if (sale) await creditEarnings(store, creatorId, { ...sale, reference: reversal.reference }, context);
    await reverseCreatorShare(store, creatorId, input, context);
  },
};
