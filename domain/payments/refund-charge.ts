import type { CreatorSubscriptionEvent } from '../creators/events';
import { creatorSubscriptionStream } from '../creators/events';
import { tipStream, type TipEvent } from '../tips/events';
import type { EventStore, Position } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { deterministicId } from '../shared/ids';
import { flowOfCardPayment, flowReference } from '../shared/money-flows';
import { GatewayTimeoutError, type GatewayDispute, type PaymentGateway } from './gateway';
import { paymentStream, type CardChargeFacts, type ChargeRefundedData, type PaymentCapturedData } from './events';
import {
  chargeRefundDecider,
  refundableCents,
  refundKey,
  type PendingRefund,
  type RefundElsewhere,
} from './refund-decider';

/**
 * Refunds and chargebacks of any card charge. A charge is named by its id:
 * - a site-plan (or other) card payment: its payment id (`PaymentCaptured` on `payment-<id>`);
 * - a creator-tier charge: the subscription id of its first period, or the renewal id of a
 *   renewal; its subscription stream is found through `subscription` (the payments read model
 *   knows subscriber and creator);
 * - a tip paid by card: its tip id (`TipGiven` on `tip-<id>`).
 * Refunds and disputes of either are recorded on `payment-<chargeId>`.
 */
export interface ChargeLocator {
  chargeId: string;
  subscription: { subscriberId: string; creatorId: string } | null;
}

/** Gateway attempts per refund: a timed-out call is retried with the same key. */
const REFUND_ATTEMPTS = 3;

async function capturedPayment(store: EventStore, chargeId: string): Promise<CardChargeFacts | null> {
  const events = await store.readStream(paymentStream(chargeId)).catch(() => []);
  const captured = events.find((event) => event.type === 'PaymentCaptured');
  if (!captured) return null;
  const d = captured.data as PaymentCapturedData;
  return {
    chargeId,
    userId: d.userId,
    flow: flowOfCardPayment(String(d.requestType)) === 'site_plan' ? 'site_plan' : null,
    gatewayTransactionId: d.gatewayTransactionId,
    amountCents: d.amountCents,
    creatorId: null,
    saleReference: null,
    subscriptionStreamId: null,
    chargedAt: d.at,
  };
}

/** A charge and what was refunded of it outside its payment stream (the money-back guarantee). */
interface LoadedCharge {
  charge: CardChargeFacts;
  refundedElsewhere: RefundElsewhere[];
}

/** A tier charge (first period or renewal) from its subscription's events; null when nothing was charged. */
export async function tierCharge(store: EventStore, locator: ChargeLocator): Promise<LoadedCharge | null> {
  if (!locator.subscription) return null;
  const { subscriberId, creatorId } = locator.subscription;
  const streamId = creatorSubscriptionStream(subscriberId, creatorId);
  const events = (await store.readStream(streamId)) as unknown as CreatorSubscriptionEvent[];
  const facts = { userId: subscriberId, creatorId, subscriptionStreamId: streamId, flow: 'tier_subscription' as const };
  let charge: CardChargeFacts | null = null;
  for (const event of events) {
    if (event.type === 'CreatorSubscriptionStarted' && event.data.subscriptionId === locator.chargeId) {
      if (!event.data.transactionId || event.data.priceCents <= 0) return null; // a free trial charged nothing
      charge = {
        ...facts,
        chargeId: locator.chargeId,
        gatewayTransactionId: event.data.transactionId,
        amountCents: event.data.priceCents,
        saleReference: flowReference('tier_subscription', event.data.subscriptionId),
        chargedAt: event.data.startDate,
      };
    }
    if (event.type === 'CreatorSubscriptionRenewed' && event.data.renewalId === locator.chargeId) {
      if (!event.data.transactionId) return null; // paid from the balance: no card charge
      charge = {
        ...facts,
        chargeId: locator.chargeId,
        gatewayTransactionId: event.data.transactionId,
        amountCents: event.data.priceCents,
        saleReference: flowReference('tier_subscription', event.data.renewalId),
        chargedAt: event.data.renewedAt,
      };
    }
  }
  if (!charge) return null;
  const refundedElsewhere = events.flatMap((event) =>
    event.type === 'CreatorSubscriptionRefunded' &&
    event.data.gatewayRefundId &&
    event.data.transactionId === charge.gatewayTransactionId
      ? [{ gatewayRefundId: event.data.gatewayRefundId, amountCents: event.data.amountCents }]
      : [],
  );
  return { charge, refundedElsewhere };
}

/** A tip paid by card (a creator sale); null when there is none, or it was paid from the balance. */
async function tipCharge(store: EventStore, tipId: string): Promise<CardChargeFacts | null> {
  const events = (await store.readStream(tipStream(tipId)).catch(() => [])) as unknown as TipEvent[];
  const given = events.find((event) => event.type === 'TipGiven');
  if (given?.type !== 'TipGiven' || !given.data.transactionId) return null;
  const d = given.data;
  return {
    chargeId: tipId,
    userId: d.tipperId,
    flow: 'tip',
    gatewayTransactionId: d.transactionId!,
    amountCents: d.amountCents,
    creatorId: d.creatorId,
    saleReference: flowReference('tip', tipId),
    subscriptionStreamId: null,
    chargedAt: d.givenAt,
  };
}

/** The charge a locator names, from its events; 404 when there is none. */
async function loadCardCharge(store: EventStore, locator: ChargeLocator): Promise<LoadedCharge> {
  const payment = (await capturedPayment(store, locator.chargeId)) ?? (await tipCharge(store, locator.chargeId));
  const loaded = payment ? { charge: payment, refundedElsewhere: [] } : await tierCharge(store, locator);
  if (!loaded) throw refuse.notFound('Payment not found');
  return loaded;
}

/**
 * What remains refundable of a charge now, read from its payment stream by the same rule a staff
 * refund is decided by (the money-back guarantee asks this before it refunds), and the refund
 * in flight, if any.
 */
export async function remainingOfCharge(
  store: EventStore,
  locator: ChargeLocator,
): Promise<{ refundableCents: number; pending: PendingRefund | null }> {
  const { charge, refundedElsewhere } = await loadCardCharge(store, locator);
  const { state } = await loadState(store, paymentStream(charge.chargeId), chargeRefundDecider);
  return { refundableCents: refundableCents(charge, state, refundedElsewhere), pending: state.pending };
}

async function refundAtGateway(gateway: PaymentGateway, input: Parameters<PaymentGateway['refund']>[0]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await gateway.refund(input);
    } catch (error) {
      if (!(error instanceof GatewayTimeoutError) || attempt >= REFUND_ATTEMPTS) throw error;
    }
  }
}

/**
 * Finance staff refund a card charge, in full (amount null) or in part. The refund is reserved
 * on the charge's stream, sent to the gateway under `refund:<chargeId>:<sequence>` (a timeout is
 * retried with that key; if every attempt times out the refund stays pending and the same
 * request resumes it), then its answer is recorded.
 */
export async function refundCharge(
  store: EventStore,
  gateway: PaymentGateway,
  input: ChargeLocator & {
    amountCents: number | null;
    reason: string;
    /** Who gave it back (default: the actor); null when the member claimed it (the money-back guarantee). */
    staffId?: string | null;
  },
  context: CommandContext,
): Promise<ChargeRefundedData & { position: Position | null }> {
  const { charge, refundedElsewhere } = await loadCardCharge(store, input);
  const streamId = paymentStream(charge.chargeId);
  const requested = await handleCommand(
    store,
    streamId,
    chargeRefundDecider,
    {
      type: 'RequestRefund',
      charge,
      refundedElsewhere,
      amountCents: input.amountCents,
      reason: input.reason,
      staffId: input.staffId === undefined ? context.actorId : input.staffId,
      now: context.now,
    },
    context,
  );
  const pending = requested.state.pending!;
  const result = await refundAtGateway(gateway, {
    transactionId: charge.gatewayTransactionId,
    amountCents: pending.amountCents,
    idempotencyKey: refundKey(charge.chargeId, pending.sequence),
  }).catch((error: unknown) => {
    if (error instanceof GatewayTimeoutError)
      throw refuse.conflict('The card processor did not answer; the refund is pending, send it again', {
        pending: true,
      });
    throw error;
  });
  const recorded = await handleCommand(
    store,
    streamId,
    chargeRefundDecider,
    { type: 'RecordRefundResult', charge, sequence: pending.sequence, result, now: context.now },
    context,
  );
  if (result.status === 'declined') throw refuse.declined(result.failureReason);
  const refunded = recorded.events.find((event) => event.type === 'ChargeRefunded');
  if (!refunded) throw refuse.conflict('This refund was recorded by another request');
  return { ...(refunded.data as ChargeRefundedData), position: recorded.position };
}

/** Records a chargeback the processor reported, once per dispute id (a charge it does not know is skipped). */
export async function recordDispute(
  store: EventStore,
  locator: ChargeLocator,
  dispute: GatewayDispute,
  context: CommandContext,
): Promise<void> {
  const { charge, refundedElsewhere } = await loadCardCharge(store, locator);
  await handleCommand(
    store,
    paymentStream(charge.chargeId),
    chargeRefundDecider,
    {
      type: 'RecordDispute',
      charge,
      refundedElsewhere,
      disputeId: dispute.disputeId,
      amountCents: dispute.amountCents,
      feeCents: dispute.feeCents,
      reason: dispute.reason,
      now: new Date(dispute.at),
    },
    context,
    { eventIds: [deterministicId('ChargeDisputed', dispute.disputeId)] },
  );
}
