import { PROMOTION_LIMITS, type PromotionKind } from '../contracts/promotions';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { PromotionEvent, PromotionTrialData, PromotionTrialEvent } from './promotions-events';

const DAY_MS = 86_400_000;

/** One promotion (stream `promotion-<id>`): its terms, whether it was ended, who redeemed it. */
export interface PromotionState {
  promotion: {
    creatorId: string;
    tierId: string;
    tierName: string;
    kind: PromotionKind;
    trialDays: number | null;
    percentOff: number | null;
    maxRedemptions: number;
    endsAt: Date;
  } | null;
  endedAt: Date | null;
  /** Redemptions that count, by subscription id: the subscriber of each. */
  redemptions: ReadonlyMap<string, string>;
}

export interface CreatePromotion {
  type: 'CreatePromotion';
  promotionId: string;
  creatorId: string;
  tierId: string;
  tierName: string;
  kind: PromotionKind;
  trialDays: number | null;
  percentOff: number | null;
  maxRedemptions: number;
  endsAt: Date;
  at: Date;
}
export interface EndPromotion {
  type: 'EndPromotion';
  promotionId: string;
  creatorId: string;
  at: Date;
}
/** What a member asks to redeem: the promotion must be for this creator's tier. */
export interface Redemption {
  creatorId: string;
  tierId: string;
  subscriberId: string;
  at: Date;
}
export interface RedeemPromotion extends Redemption {
  type: 'RedeemPromotion';
  promotionId: string;
  subscriptionId: string;
  chargeCents: number;
}
export interface ReleasePromotionRedemption {
  type: 'ReleasePromotionRedemption';
  promotionId: string;
  subscriptionId: string;
  at: Date;
}
export type PromotionCommand = CreatePromotion | EndPromotion | RedeemPromotion | ReleasePromotionRedemption;

const refusal = (message: string, code: string) => refuse.unprocessable(message, { code });

/** The promotion's terms, or the refusal a member gets for it; a redemption already made for `subscriptionId` passes. */
export function assertRedeemable(state: PromotionState, request: Redemption, subscriptionId?: string) {
  const { promotion } = state;
  if (!promotion) throw refuse.notFound('Promotion not found');
  if (promotion.creatorId !== request.creatorId)
    throw refusal('This offer is for another creator', 'PROMOTION_WRONG_CREATOR');
  if (promotion.tierId !== request.tierId) throw refusal('This offer is for another tier', 'PROMOTION_WRONG_TIER');
  if (subscriptionId && state.redemptions.has(subscriptionId)) return promotion;
  if (state.endedAt) throw refusal('This offer has ended', 'PROMOTION_ENDED');
  if (request.at >= promotion.endsAt) throw refusal('This offer has expired', 'PROMOTION_EXPIRED');
  if (state.redemptions.size >= promotion.maxRedemptions)
    throw refusal('This offer has been fully redeemed', 'PROMOTION_USED_UP');
  if ([...state.redemptions.values()].includes(request.subscriberId))
    throw refuse.conflict('You have already used this offer', { code: 'PROMOTION_ALREADY_USED' });
  return promotion;
}

/** The first period a promotion gives: a trial ends after its days, a discounted month after a month (null). */
export function trialEnd(trialDays: number, at: Date): Date {
  return new Date(at.getTime() + trialDays * DAY_MS);
}

function assertValidTerms(command: CreatePromotion): void {
  const within = (value: number | null, { min, max }: { min: number; max: number }) =>
    value !== null && Number.isInteger(value) && value >= min && value <= max;
  if (command.kind === 'trial' && !within(command.trialDays, PROMOTION_LIMITS.trialDays))
    throw refuse.validation('Trial days must be between 1 and 90', {
      trialDays: 'Trial days must be between 1 and 90',
    });
  if (command.kind === 'discount' && !within(command.percentOff, PROMOTION_LIMITS.percentOff))
    throw refuse.validation('Percent off must be between 5 and 90', {
      percentOff: 'Percent off must be between 5 and 90',
    });
  if (!within(command.maxRedemptions, PROMOTION_LIMITS.maxRedemptions))
    throw refuse.validation('Max redemptions must be between 1 and 100000', {
      maxRedemptions: 'Max redemptions must be between 1 and 100000',
    });
  if (command.endsAt <= command.at)
    throw refuse.validation('End date must be in the future', { endsAt: 'End date must be in the future' });
  if (command.endsAt.getTime() > command.at.getTime() + PROMOTION_LIMITS.longestRunDays * DAY_MS)
    throw refuse.validation('A promotion can run for at most a year', {
      endsAt: 'A promotion can run for at most a year',
    });
}

export const promotionDecider: Decider<PromotionCommand, PromotionState, PromotionEvent> = {
  initialState: { promotion: null, endedAt: null, redemptions: new Map() },
  evolve(state, event) {
    switch (event.type) {
      case 'PromotionCreated': {
        const { creatorId, tierId, tierName, kind, trialDays, percentOff, maxRedemptions, endsAt } = event.data;
        const promotion = { creatorId, tierId, tierName, kind, trialDays, percentOff, maxRedemptions };
        return { ...state, promotion: { ...promotion, endsAt: new Date(endsAt) } };
      }
      case 'PromotionEnded':
        return { ...state, endedAt: new Date(event.data.at) };
      case 'PromotionRedeemed':
        return {
          ...state,
          redemptions: new Map(state.redemptions).set(event.data.subscriptionId, event.data.subscriberId),
        };
      case 'PromotionRedemptionReleased': {
        const redemptions = new Map(state.redemptions);
        redemptions.delete(event.data.subscriptionId);
        return { ...state, redemptions };
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreatePromotion': {
        if (state.promotion) throw refuse.conflict('This promotion already exists');
        assertValidTerms(command);
        const { promotionId, creatorId, tierId, tierName, kind, maxRedemptions, endsAt, at } = command;
        return [
          {
            type: 'PromotionCreated',
            data: {
              promotionId,
              creatorId,
              tierId,
              tierName,
              kind,
              trialDays: command.kind === 'trial' ? command.trialDays : null,
              percentOff: command.kind === 'discount' ? command.percentOff : null,
              maxRedemptions,
              endsAt: endsAt.toISOString(),
              at: at.toISOString(),
            },
          },
        ];
      }
      case 'EndPromotion': {
        // Someone else's promotion is as unknown as a missing one.
        if (!state.promotion || state.promotion.creatorId !== command.creatorId)
          throw refuse.notFound('Promotion not found');
        if (state.endedAt) return [];
        const data = { promotionId: command.promotionId, creatorId: command.creatorId, at: command.at.toISOString() };
        return [{ type: 'PromotionEnded', data }];
      }
      case 'RedeemPromotion': {
        const promotion = assertRedeemable(state, command, command.subscriptionId);
        if (state.redemptions.has(command.subscriptionId)) return [];
        return [
          {
            type: 'PromotionRedeemed',
            data: {
              promotionId: command.promotionId,
              creatorId: promotion.creatorId,
              tierId: promotion.tierId,
              subscriberId: command.subscriberId,
              subscriptionId: command.subscriptionId,
              kind: promotion.kind,
              chargeCents: command.chargeCents,
              at: command.at.toISOString(),
            },
          },
        ];
      }
      case 'ReleasePromotionRedemption': {
        const subscriberId = state.redemptions.get(command.subscriptionId);
        if (!state.promotion || subscriberId === undefined) return [];
        return [
          {
            type: 'PromotionRedemptionReleased',
            data: {
              promotionId: command.promotionId,
              creatorId: state.promotion.creatorId,
              subscriberId,
              subscriptionId: command.subscriptionId,
              at: command.at.toISOString(),
            },
          },
        ];
      }
    }
  },
};

/** A member's free trial with one creator (stream `promotionTrial-<member>_<creator>`): at most one, ever. */
export interface PromotionTrialState {
  taken: PromotionTrialData | null;
}
export type PromotionTrialCommand =
  | {
      type: 'TakeTrial';
      subscriberId: string;
      creatorId: string;
      promotionId: string;
      subscriptionId: string;
      at: Date;
    }
  | { type: 'ReleaseTrial'; subscriptionId: string; at: Date };

/** The refusal of a second trial (a retry for the same subscription is no second trial). */
export function assertTrialAvailable(state: PromotionTrialState, subscriptionId?: string): void {
  if (state.taken && state.taken.subscriptionId !== subscriptionId)
    throw refuse.conflict('You have already had a free trial with this creator', { code: 'TRIAL_ALREADY_USED' });
}

export const promotionTrialDecider: Decider<PromotionTrialCommand, PromotionTrialState, PromotionTrialEvent> = {
  initialState: { taken: null },
  evolve(_state, event) {
    return { taken: event.type === 'PromotionTrialTaken' ? event.data : null };
  },
  decide(command, state) {
    if (command.type === 'ReleaseTrial') {
      const { taken } = state;
      if (!taken || taken.subscriptionId !== command.subscriptionId) return [];
      return [{ type: 'PromotionTrialReleased', data: { ...taken, at: command.at.toISOString() } }];
    }
    assertTrialAvailable(state, command.subscriptionId);
    if (state.taken) return [];
    const { subscriberId, creatorId, promotionId, subscriptionId, at } = command;
    const data = { subscriberId, creatorId, promotionId, subscriptionId, at: at.toISOString() };
    return [{ type: 'PromotionTrialTaken', data }];
  },
};
