import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { creatorDecider } from './decider';
import { creatorStream } from './events';

/**
 * The creators context's way in: becoming a creator, managing tiers, subscribing to a tier
 * (`subscribe.ts`), and the port that takes. api/ and realtime/ import this file and events.ts
 * only.
 */
export { subscribeToCreator } from './subscribe';
export {
  cancelCreatorSubscription,
  changeCreatorSubscriptionRenewalSource,
  changeCreatorSubscriptionTier,
  claimMoneyBack,
  resumeCreatorSubscription,
} from './subscription-lifecycle';
export { createPromotion, endPromotion } from './promotions';
export type { PaymentGateway } from '../payments/gateway';

export interface TierInput {
  name: string;
  description: string;
  priceCents: number;
  features: string[];
}

/** A member becomes a creator (once). */
export function registerCreator(
  store: EventStore,
  input: { userId: string; bio: string; coverImageUrl: string | null },
  context: CommandContext,
) {
  return handleCommand(
    store,
    creatorStream(input.userId),
    creatorDecider,
    { type: 'RegisterCreator', ...input, at: context.now },
    context,
  );
}

/** A creator adds a tier (only creators manage tiers). */
export function createTier(
  store: EventStore,
  input: { creatorId: string; tierId: string } & TierInput,
  context: CommandContext,
) {
  return handleCommand(
    store,
    creatorStream(input.creatorId),
    creatorDecider,
    { type: 'CreateTier', ...input, at: context.now },
    context,
  );
}

/** A creator changes one of their tiers. */
export function updateTier(
  store: EventStore,
  input: { creatorId: string; tierId: string } & TierInput,
  context: CommandContext,
) {
  return handleCommand(
    store,
    creatorStream(input.creatorId),
    creatorDecider,
    { type: 'UpdateTier', ...input, at: context.now },
    context,
  );
}

/** A creator turns the viewer watermark on their images on or off (setting it again changes nothing). */
export function setWatermark(
  store: EventStore,
  input: { creatorId: string; enabled: boolean },
  context: CommandContext,
) {
  return handleCommand(
    store,
    creatorStream(input.creatorId),
    creatorDecider,
    { type: 'SetWatermark', ...input, at: context.now },
    context,
  );
}
