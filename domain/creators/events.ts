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

/** One creator subscription: a member paid a tier for a month. */
export interface CreatorSubscriptionStarted {
  type: 'CreatorSubscriptionStarted';
  data: {
    subscriptionId: string;
    subscriberId: string;
    creatorId: string;
    tierId: string;
    tierName: string;
    priceCents: number;
    transactionId: string;
    startDate: string;
    endDate: string;
  };
}
export type CreatorSubscriptionEvent = CreatorSubscriptionStarted;

export const creatorStream = (userId: string) => `creator-${userId}`;
export const creatorSubscriptionStream = (subscriberId: string, creatorId: string) =>
  `creatorSubscription-${subscriberId}_${creatorId}`;
