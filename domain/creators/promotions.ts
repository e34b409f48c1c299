import { discountedCents, type PromotionKind } from '../contracts/promotions';
import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { newId } from '../shared/ids';
import { creatorDecider, offeredTiers } from './decider';
import { creatorStream, creatorSubscriptionStream } from './events';
import {
  assertRedeemable,
  assertTrialAvailable,
  promotionDecider,
  promotionTrialDecider,
  trialEnd,
} from './promotions-decider';
import { promotionStream, promotionTrialStream } from './promotions-events';
import type { FirstPeriodTerms } from './subscription-decider';

/**
 * Promotions (issue 21): a creator's trial or first-month discount on a tier. The subscribe path
 * (`subscribe.ts`) asks `promotionTerms` what the first period costs, reserves the redemption
 * with `claimPromotion` before it charges, and gives it back with `releasePromotionClaim` when
 * the month does not start. The reservation is decided on the promotion's stream revision, so the
 * last redemption goes to one member however many ask at once.
 */

export interface PromotionTermsRequest {
  promotionId: string;
  creatorId: string;
  tierId: string;
  subscriberId: string;
  now: Date;
}

export interface NewPromotion {
  creatorId: string;
  tierId: string;
  kind: PromotionKind;
  trialDays: number | null;
  percentOff: number | null;
  maxRedemptions: number;
  endsAt: Date;
}

async function tierOf(store: EventStore, creatorId: string, tierId: string) {
  const creator = await loadState(store, creatorStream(creatorId), creatorDecider);
  if (!creator.state.registered)
    throw refuse.forbidden('Only creators can create promotions', { code: 'CREATOR_REQUIRED' });
  const tier = offeredTiers(creator.state).find((candidate) => candidate.tierId === tierId);
  if (!tier) throw refuse.notFound('Tier not found');
  return tier;
}

/** A creator offers a trial or a first-month discount on one of their tiers. */
export async function createPromotion(store: EventStore, input: NewPromotion, context: CommandContext) {
  const tier = await tierOf(store, input.creatorId, input.tierId);
  const promotionId = newId();
  return handleCommand(
    store,
    promotionStream(promotionId),
    promotionDecider,
    { type: 'CreatePromotion', promotionId, ...input, tierName: tier.name, at: context.now },
    context,
  );
}

/** The creator ends their promotion early: the link offers nothing from now on. */
export function endPromotion(
  store: EventStore,
  input: { promotionId: string; creatorId: string },
  context: CommandContext,
) {
  return handleCommand(
    store,
    promotionStream(input.promotionId),
    promotionDecider,
    { type: 'EndPromotion', ...input, at: context.now },
    context,
  );
}

/**
 * The first period a member would get through the promotion, or its refusal (unknown, another
 * creator or tier, ended, expired, used up, already used by this member, a second trial with
 * this creator). Reads only: `claimPromotion` decides it for good.
 */
export async function promotionTerms(store: EventStore, request: PromotionTermsRequest): Promise<FirstPeriodTerms> {
  const { state } = await loadState(store, promotionStream(request.promotionId), promotionDecider);
  const promotion = assertRedeemable(state, { ...request, at: request.now });
  if (promotion.kind === 'trial') {
    const trial = await loadState(
      store,
      promotionTrialStream(request.subscriberId, request.creatorId),
      promotionTrialDecider,
    );
    assertTrialAvailable(trial.state);
    return {
      chargeCents: 0,
      periodEnd: trialEnd(promotion.trialDays ?? 0, request.now),
      promotionId: request.promotionId,
    };
  }
  const tier = await tierOf(store, request.creatorId, request.tierId);
  return {
    chargeCents: discountedCents(tier.priceCents, promotion.percentOff ?? 0),
    periodEnd: null,
    promotionId: request.promotionId,
  };
}

export interface PromotionClaim {
  promotionId: string;
  creatorId: string;
  tierId: string;
  subscriberId: string;
  /** The subscription the redemption pays for: a retry with the same id redeems nothing more. */
  subscriptionId: string;
  chargeCents: number;
}

/**
 * Reserves the redemption for the subscription: a trial first takes the member's one trial with
 * the creator, then the promotion counts it. Refused as `promotionTerms` refuses; a redemption
 * refused after the trial was taken gives the trial back.
 */
export async function claimPromotion(store: EventStore, claim: PromotionClaim, context: CommandContext) {
  const { state } = await loadState(store, promotionStream(claim.promotionId), promotionDecider);
  const promotion = assertRedeemable(state, { ...claim, at: context.now }, claim.subscriptionId);
  const trialStream = promotionTrialStream(claim.subscriberId, claim.creatorId);
  const { promotionId, creatorId, subscriberId, subscriptionId } = claim;
  const at = context.now;
  if (promotion.kind === 'trial') {
    const take = { type: 'TakeTrial' as const, promotionId, creatorId, subscriberId, subscriptionId, at };
    await handleCommand(store, trialStream, promotionTrialDecider, take, context);
  }
  try {
    return await handleCommand(
      store,
      promotionStream(promotionId),
      promotionDecider,
      { type: 'RedeemPromotion', ...claim, at },
      context,
    );
  } catch (error) {
    if (promotion.kind === 'trial')
      await handleCommand(
        store,
        trialStream,
        promotionTrialDecider,
        { type: 'ReleaseTrial', subscriptionId, at },
        context,
      );
    throw error;
  }
}

/**
 * The subscription did not start on the claim (card declined, already subscribed): the
 * redemption (and a trial) count no more. A subscription that did start keeps its claim.
 */
export async function releasePromotionClaim(
  store: EventStore,
  claim: Pick<PromotionClaim, 'promotionId' | 'creatorId' | 'subscriberId' | 'subscriptionId'>,
  context: CommandContext,
) {
  const { promotionId, subscriptionId } = claim;
  if (await subscriptionStarted(store, claim)) return;
  await handleCommand(
    store,
    promotionTrialStream(claim.subscriberId, claim.creatorId),
    promotionTrialDecider,
    { type: 'ReleaseTrial', subscriptionId, at: context.now },
    context,
  );
  await handleCommand(
    store,
    promotionStream(promotionId),
    promotionDecider,
    { type: 'ReleasePromotionRedemption', promotionId, subscriptionId, at: context.now },
    context,
  );
}

async function subscriptionStarted(
  store: EventStore,
  claim: Pick<PromotionClaim, 'creatorId' | 'subscriberId' | 'subscriptionId'>,
): Promise<boolean> {
  const events = await store.readStream(creatorSubscriptionStream(claim.subscriberId, claim.creatorId));
  return events.some(
    (event) =>
      event.type === 'CreatorSubscriptionStarted' &&
      (event.data as { subscriptionId: string }).subscriptionId === claim.subscriptionId,
  );
}

/** How long a reserved redemption waits for its subscription before the claims ticker gives it back. */
export const ABANDONED_CLAIM_MS = 15 * 60_000;

/**
 * Gives back the claims of subscribing requests that died between the reservation and the
 * start (the `promotion-claims` ticker, from the read model's unsettled ones). Each is checked
 * again on the streams: a subscription that did start keeps its claim, and a claim already
 * given back changes nothing, so two processes ticking at once write each fact once.
 */
export async function releaseAbandonedClaims(
  store: EventStore,
  claims: Array<Pick<PromotionClaim, 'promotionId' | 'creatorId' | 'subscriberId' | 'subscriptionId'>>,
  now: Date,
): Promise<void> {
  for (const claim of claims) await releasePromotionClaim(store, claim, { actorId: 'system:promotion-claims', now });
}
