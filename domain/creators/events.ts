/** Facts of the creators context. A released event's shape never changes. */

export interface CreatorRegistered {
  type: 'CreatorRegistered';
  data: { userId: string; bio: string; coverImageUrl: string | null; registeredAt: string };
}

export interface TierData {
  creatorId: string;
  tierId: string;
  name: string;
  description: string;
  priceCents: number;
  features: string[];
  at: string;
}
export interface TierCreated {
  type: 'TierCreated';
  data: TierData;
}
export interface TierUpdated {
  type: 'TierUpdated';
  data: TierData;
}

/** The creator turned the viewer watermark on their images on or off (domain/media/watermark.ts). */
export interface CreatorWatermarkSet {
  type: 'CreatorWatermarkSet';
  data: { creatorId: string; enabled: boolean; at: string };
}

export type CreatorEvent = CreatorRegistered | TierCreated | TierUpdated | CreatorWatermarkSet;

/** The tier a subscription period is paid at (its price when charged). */
export interface SubscribedTier {
  tierId: string;
  tierName: string;
  priceCents: number;
}

/**
 * One creator subscription starts: a member paid a tier for its first period (or nothing, on a
 * trial). `priceCents` is what was charged; `tierPriceCents` the tier's price then (absent on
 * events from before promotions: equal to `priceCents`); `transactionId` null when nothing was
 * charged. Every renewal is at the tier's price of the day.
 */
export interface CreatorSubscriptionStarted {
  type: 'CreatorSubscriptionStarted';
  data: {
    subscriptionId: string;
    subscriberId: string;
    creatorId: string;
    tierId: string;
    tierName: string;
    priceCents: number;
    transactionId: string | null;
    startDate: string;
    endDate: string;
    tierPriceCents?: number;
    promotionId?: string;
  };
}

interface SubscriptionFact {
  subscriptionId: string;
  subscriberId: string;
  creatorId: string;
}

/** How a renewal is paid: the card on file, or the member's USD balance. */
export type RenewalSource = 'card' | 'balance';

/**
 * The next period was paid: it follows the previous one without a gap. On the card on file
 * (`transactionId`), or from the USD balance (`paidFrom: 'balance'`, `transactionId` null: the
 * wallet's movement `creatorSubscription:<renewalId>` is the payment; absent on card renewals).
 */
export interface CreatorSubscriptionRenewed {
  type: 'CreatorSubscriptionRenewed';
  data: SubscriptionFact &
    SubscribedTier & {
      /** One per period (subscription + period start): the sale's reference. */
      renewalId: string;
      transactionId: string | null;
      paidFrom?: 'balance';
      periodStart: string;
      periodEnd: string;
      renewedAt: string;
    };
}

/** The member chose how the next renewals are paid. */
export interface CreatorSubscriptionRenewalSourceChanged {
  type: 'CreatorSubscriptionRenewalSourceChanged';
  data: SubscriptionFact & { source: RenewalSource; at: string };
}

/**
 * A renewal charge was declined (`paidFrom: 'balance'`: the USD balance did not cover it):
 * past due, access until `graceEndsAt`, next try at `nextAttemptAt` (null: none left).
 */
export interface CreatorSubscriptionRenewalDeclined {
  type: 'CreatorSubscriptionRenewalDeclined';
  /** The tier and price it tried to charge: absent on events from before they were named. */
  data: SubscriptionFact &
    Partial<SubscribedTier> & {
      periodEnd: string;
      attempt: number;
      failureReason: string;
      paidFrom?: 'balance';
      nextAttemptAt: string | null;
      graceEndsAt: string;
      at: string;
    };
}

/** No further renewals; access lasts until `accessUntil`. */
export interface CreatorSubscriptionCanceled {
  type: 'CreatorSubscriptionCanceled';
  data: SubscriptionFact & { accessUntil: string; canceledAt: string };
}

/** Subscribed again before the paid period ended: renewals resume, nothing is charged. */
export interface CreatorSubscriptionResumed {
  type: 'CreatorSubscriptionResumed';
  data: SubscriptionFact & { periodEnd: string; resumedAt: string };
}

/** Another tier from the next period on (`effectiveAt`, the paid period's end); the current one stays paid. */
export interface CreatorSubscriptionTierChanged {
  type: 'CreatorSubscriptionTierChanged';
  data: SubscriptionFact & SubscribedTier & { fromTierId: string; effectiveAt: string; at: string };
}

/** Access ended: the canceled period ran out, or the grace period of an unpaid renewal did. */
export interface CreatorSubscriptionExpired {
  type: 'CreatorSubscriptionExpired';
  data: SubscriptionFact & { reason: 'canceled' | 'unpaid'; expiredAt: string };
}

/**
 * The money-back guarantee: the charge `transactionId` was refunded at the gateway; access
 * ends at `at` and renewal stops. `saleReference` names the creator sale it paid for (the
 * earnings reference the reversal takes back). A period paid from the USD balance
 * (`paidFrom: 'balance'`, no transaction or gateway refund) is credited back to the balance as
 * the wallet movement `balanceReference`.
 */
export interface CreatorSubscriptionRefunded {
  type: 'CreatorSubscriptionRefunded';
  data: SubscriptionFact & {
    transactionId: string | null;
    gatewayRefundId: string | null;
    paidFrom?: 'balance';
    balanceReference?: string;
    amountCents: number;
    reason: string;
    at: string;
    saleReference: string;
  };
}

/**
 * A charge of this subscription was given back outside the money-back guarantee (finance staff
 * refunded it in full, or the bank charged it back): access ends at `at` and renewal stops.
 * The money itself is recorded on the charge's `payment-<chargeId>` stream (`givenBackId`:
 * `refund:<gatewayRefundId>` or `dispute:<disputeId>`), so this event moves none.
 */
export interface CreatorSubscriptionChargeGivenBack {
  type: 'CreatorSubscriptionChargeGivenBack';
  data: SubscriptionFact & {
    transactionId: string;
    givenBackId: string;
    cause: 'refund' | 'chargeback';
    at: string;
  };
}

export type CreatorSubscriptionEvent =
  | CreatorSubscriptionStarted
  | CreatorSubscriptionRenewed
  | CreatorSubscriptionRenewalDeclined
  | CreatorSubscriptionCanceled
  | CreatorSubscriptionResumed
  | CreatorSubscriptionTierChanged
  | CreatorSubscriptionExpired
  | CreatorSubscriptionRefunded
  | CreatorSubscriptionChargeGivenBack
  | CreatorSubscriptionRenewalSourceChanged;

export const creatorStream = (userId: string) => `creator-${userId}`;
export const creatorSubscriptionStream = (subscriberId: string, creatorId: string) =>
  `creatorSubscription-${subscriberId}_${creatorId}`;
