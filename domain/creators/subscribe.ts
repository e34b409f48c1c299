import type { EventStore, Position } from '../event-store/port';
import type { PaymentGateway } from '../payments/gateway';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { deterministicId } from '../shared/ids';
import { creatorDecider, offeredTiers } from './decider';
import { creatorStream, creatorSubscriptionStream } from './events';
import {
  assertCanSubscribe,
  creatorSubscriptionDecider,
  type CreatorSubscriptionState,
  type TierTerms,
} from './subscription-decider';
import { claimPromotion, promotionTerms, releasePromotionClaim } from './promotions';

export interface SubscribeInput {
  subscriberId: string;
  creatorId: string;
  tierId: string;
  /** The member's card on file at the gateway; null when none is saved. */
  customerId: string | null;
  /** A promotion (trial or first-month discount) for the first period. */
  promotionId?: string;
}

/** What subscribing did: started a paid (or trial) period, or resumed a canceled one still running. */
export type SubscribeOutcome = 'started' | 'resumed';

/** The creator's tier as offered now (404s when the creator or the tier is not there). */
export async function offeredTier(store: EventStore, creatorId: string, tierId: string): Promise<TierTerms> {
  const creator = await loadState(store, creatorStream(creatorId), creatorDecider);
  if (!creator.state.registered) throw refuse.notFound('Creator not found');
  const tier = offeredTiers(creator.state).find((candidate) => candidate.tierId === tierId);
  if (!tier) throw refuse.notFound('Tier not found');
  return { tierId: tier.tierId, name: tier.name, priceCents: tier.priceCents };
}

/**
 * Subscribes a member to a creator's tier: checks the tier and that no period is running,
 * charges the first period (the tier price, or a promotion's terms: nothing on a trial) to the
 * card on file, then starts it. The charge's idempotency key is tied to the stream revision
 * that was read, so a retried request never charges twice; if the period did not start on
 * this charge, it is refunded (any failure). A canceled subscription whose period still runs
 * is resumed instead, without a charge (a different tier then applies from the next period).
 */
export async function subscribeToCreator(
  store: EventStore,
  gateway: PaymentGateway,
  input: SubscribeInput,
  context: CommandContext,
): Promise<{ outcome: SubscribeOutcome; position: Position | null }> {
  const { subscriberId, creatorId, tierId } = input;
  const tier = await offeredTier(store, creatorId, tierId);
  const streamId = creatorSubscriptionStream(subscriberId, creatorId);
  const current = await loadState(store, streamId, creatorSubscriptionDecider);
  if (isResumable(current.state, context.now)) return resume(store, streamId, current.state, tier, context);
  assertCanSubscribe(current.state, subscriberId, creatorId, context.now);
  if (!input.customerId) throw refuse.unprocessable('No card on file. Please add a payment method first.');

  const { promotionId } = input;
  const terms = promotionId
    ? await promotionTerms(store, { promotionId, creatorId, tierId, subscriberId, now: context.now })
    : undefined;
  const chargeCents = terms ? terms.chargeCents : tier.priceCents;
  const attempt = `${subscriberId}:${creatorId}:${current.revision ?? 'new'}`;
  const subscriptionId = deterministicId('creatorSubscription', attempt);
  // The promotion's redemption is reserved before the charge (its last one goes to one member)
  // and given back below when the period does not start on it.
  const claim = terms && {
    promotionId: terms.promotionId,
    creatorId,
    tierId,
    subscriberId,
    subscriptionId,
    chargeCents,
  };
  if (claim) await claimPromotion(store, claim, context);
  const charge =
    chargeCents > 0
      ? await gateway.charge({
          customerId: input.customerId,
          amountCents: chargeCents,
          currency: 'USD',
          description: `Creator subscription: ${tier.name}`,
          idempotencyKey: `creatorSubscription:${attempt}`,
        })
      : null;
  if (charge && charge.status !== 'succeeded') {
    if (claim) await releasePromotionClaim(store, claim, context);
    throw refuse.declined(charge.failureReason);
  }

  try {
    const result = await handleCommand(
      store,
      streamId,
      creatorSubscriptionDecider,
      {
        type: 'StartCreatorSubscription',
        subscriptionId,
        subscriberId,
        creatorId,
        tier,
        transactionId: charge?.transactionId ?? null,
        terms,
        at: context.now,
      },
      context,
    );
    return { outcome: 'started', position: result.position };
  } catch (error) {
    // The period did not start on this charge: give the money back. But a concurrent identical
    // request shares the attempt, hence the charge; if its period started on this very charge
    // (or our append was written after all), the charge paid for it and stands.
    if (claim) await releasePromotionClaim(store, claim, context);
    if (!charge) throw error;
    const paidFor = await chargeStartedAPeriod(store, streamId, charge.transactionId).catch(() => false);
    if (!paidFor)
      await gateway.refund({
        transactionId: charge.transactionId,
        amountCents: chargeCents,
        idempotencyKey: `refund:creatorSubscription:${attempt}`,
      });
    throw error;
  }
}

const isResumable = (state: CreatorSubscriptionState, now: Date) =>
  state.status === 'canceled' && state.periodEnd !== null && new Date(state.periodEnd) > now;

/** Resubscribing while a canceled period runs: renewals resume, and another tier applies from the next period. */
async function resume(
  store: EventStore,
  streamId: string,
  state: CreatorSubscriptionState,
  tier: TierTerms,
  context: CommandContext,
): Promise<{ outcome: SubscribeOutcome; position: Position | null }> {
  const at = context.now;
  let result = await handleCommand(
    store,
    streamId,
    creatorSubscriptionDecider,
    { type: 'ResumeCreatorSubscription', at },
    context,
  );
  if (tier.tierId !== state.tier?.tierId)
    result = await handleCommand(
      store,
      streamId,
      creatorSubscriptionDecider,
      { type: 'ChangeCreatorSubscriptionTier', tier, at },
      context,
    );
  return { outcome: 'resumed', position: result.position };
}

async function chargeStartedAPeriod(store: EventStore, streamId: string, transactionId: string): Promise<boolean> {
  const events = await store.readStream(streamId);
  return events.some(
    (event) =>
      event.type === 'CreatorSubscriptionStarted' &&
      (event.data as { transactionId: string | null }).transactionId === transactionId,
  );
}
