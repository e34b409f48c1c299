import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { CreatorEvent, TierData } from './events';
import { FALLBACK_TIERS, type TierDefinition } from './fallback-tiers';

/** One creator: registration (bio, cover) and tiers. Stream `creator-<userId>`. */
export interface CreatorState {
  registered: boolean;
  tiers: Map<string, TierDefinition>;
  watermark: boolean;
}

export type CreatorCommand =
  | { type: 'RegisterCreator'; userId: string; bio: string; coverImageUrl: string | null; at: Date }
  | {
      type: 'CreateTier';
      creatorId: string;
      tierId: string;
      name: string;
      description: string;
      priceCents: number;
      features: string[];
      at: Date;
    }
  | {
      type: 'UpdateTier';
      creatorId: string;
      tierId: string;
      name: string;
      description: string;
      priceCents: number;
      features: string[];
      at: Date;
    }
  | { type: 'SetWatermark'; creatorId: string; enabled: boolean; at: Date };

const tierOf = (data: TierData): TierDefinition => ({
  tierId: data.tierId,
  name: data.name,
  description: data.description,
  priceCents: data.priceCents,
  features: data.features,
  popular: false,
  isDefault: false,
});

export const creatorDecider: Decider<CreatorCommand, CreatorState, CreatorEvent> = {
  initialState: { registered: false, tiers: new Map(), watermark: false },
  evolve(state, event) {
    switch (event.type) {
      case 'CreatorRegistered':
        return { ...state, registered: true };
      case 'TierCreated':
      case 'TierUpdated': {
        const tiers = new Map(state.tiers);
        tiers.set(event.data.tierId, tierOf(event.data));
        return { ...state, tiers };
      }
      case 'CreatorWatermarkSet':
        return { ...state, watermark: event.data.enabled };
    }
  },
  decide(command, state) {
    if (command.type === 'RegisterCreator') {
      if (state.registered) throw refuse.conflict('You are already a creator');
      return [
        {
          type: 'CreatorRegistered',
          data: {
            userId: command.userId,
            bio: command.bio,
            coverImageUrl: command.coverImageUrl,
            registeredAt: command.at.toISOString(),
          },
        },
      ];
    }
    if (command.type === 'SetWatermark') {
      if (!state.registered) throw refuse.forbidden('Only creators can watermark their media');
      if (state.watermark === command.enabled) return [];
      const data = { creatorId: command.creatorId, enabled: command.enabled, at: command.at.toISOString() };
      return [{ type: 'CreatorWatermarkSet', data }];
    }
    if (!state.registered) throw refuse.forbidden('Only creators can manage tiers');
    const data: TierData = {
      creatorId: command.creatorId,
      tierId: command.tierId,
      name: command.name,
      description: command.description,
      priceCents: command.priceCents,
      features: command.features,
      at: command.at.toISOString(),
    };
    if (command.type === 'CreateTier') {
      if (state.tiers.has(command.tierId)) throw refuse.conflict('This tier already exists');
      return [{ type: 'TierCreated', data }];
    }
    if (!state.tiers.has(command.tierId)) throw refuse.notFound('Tier not found');
    return [{ type: 'TierUpdated', data }];
  },
};

/** The tiers a member can subscribe to: the creator's own, or the fallback tiers while none exist. */
export function offeredTiers(state: CreatorState): TierDefinition[] {
  return state.tiers.size ? [...state.tiers.values()] : FALLBACK_TIERS;
}
