import type { PromotionKind } from '../contracts/promotions';

/**
 * Facts of promotions (issue 21), part of the creators context. A released event's shape never
 * changes. One stream per promotion (`promotion-<id>`), so its redemption count is decided on
 * one stream revision; one stream per member and creator (`promotionTrial-<member>_<creator>`)
 * for the one free trial a member ever gets from a creator.
 */

export interface PromotionCreated {
  type: 'PromotionCreated';
  data: {
    promotionId: string;
    creatorId: string;
    tierId: string;
    tierName: string;
    kind: PromotionKind;
    trialDays: number | null;
    percentOff: number | null;
    maxRedemptions: number;
    endsAt: string;
    at: string;
  };
}

/** The creator ended the promotion before its end date. */
export interface PromotionEnded {
  type: 'PromotionEnded';
  data: { promotionId: string; creatorId: string; at: string };
}

/** A member took the offer for the subscription `subscriptionId` (reserved before the charge). */
export interface PromotionRedeemed {
  type: 'PromotionRedeemed';
  data: {
    promotionId: string;
    creatorId: string;
    tierId: string;
    subscriberId: string;
    subscriptionId: string;
    kind: PromotionKind;
    chargeCents: number;
    at: string;
  };
}

/** The subscription did not start on the redemption (card declined, already subscribed): it counts no more. */
export interface PromotionRedemptionReleased {
  type: 'PromotionRedemptionReleased';
  data: { promotionId: string; creatorId: string; subscriberId: string; subscriptionId: string; at: string };
}

export type PromotionEvent = PromotionCreated | PromotionEnded | PromotionRedeemed | PromotionRedemptionReleased;

export interface PromotionTrialData {
  subscriberId: string;
  creatorId: string;
  promotionId: string;
  subscriptionId: string;
  at: string;
}
/** The member's one free trial with this creator is taken. */
export interface PromotionTrialTaken {
  type: 'PromotionTrialTaken';
  data: PromotionTrialData;
}
/** The trial's subscription did not start: the member still has their trial. */
export interface PromotionTrialReleased {
  type: 'PromotionTrialReleased';
  data: PromotionTrialData;
}
export type PromotionTrialEvent = PromotionTrialTaken | PromotionTrialReleased;

export const promotionStream = (promotionId: string) => `promotion-${promotionId}`;
export const promotionTrialStream = (subscriberId: string, creatorId: string) =>
  `promotionTrial-${subscriberId}_${creatorId}`;
