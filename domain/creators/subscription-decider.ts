import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { CreatorSubscriptionEvent } from './events';

/**
 * A member's subscription to one creator (stream `creatorSubscription-<member>_<creator>`):
 * one stream per pair, so two concurrent subscribes cannot both start a month.
 */
export interface CreatorSubscriptionState {
  activeUntil: Date | null;
}

export interface StartCreatorSubscription {
  type: 'StartCreatorSubscription';
  subscriptionId: string;
  subscriberId: string;
  creatorId: string;
  tier: { tierId: string; name: string; priceCents: number };
  transactionId: string;
  at: Date;
}

/** One calendar month later (clamped to the month's last day: Jan 31 → Feb 28/29). */
export function oneMonthAfter(start: Date): Date {
  const end = new Date(start);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/** Throws the 409 when the member already has a running subscription to the creator. */
export function assertCanSubscribe(
  state: CreatorSubscriptionState,
  subscriberId: string,
  creatorId: string,
  at: Date,
): void {
  if (subscriberId === creatorId) throw refuse.unprocessable('You cannot subscribe to yourself');
  if (state.activeUntil && state.activeUntil > at) throw refuse.conflict('You are already subscribed to this creator');
}

export const creatorSubscriptionDecider: Decider<
  StartCreatorSubscription,
  CreatorSubscriptionState,
  CreatorSubscriptionEvent
> = {
  initialState: { activeUntil: null },
  evolve(_state, event) {
    return { activeUntil: new Date(event.data.endDate) };
  },
  decide(command, state) {
    assertCanSubscribe(state, command.subscriberId, command.creatorId, command.at);
    return [
      {
        type: 'CreatorSubscriptionStarted',
        data: {
          subscriptionId: command.subscriptionId,
          subscriberId: command.subscriberId,
          creatorId: command.creatorId,
          tierId: command.tier.tierId,
          tierName: command.tier.name,
          priceCents: command.tier.priceCents,
          transactionId: command.transactionId,
          startDate: command.at.toISOString(),
          endDate: oneMonthAfter(command.at).toISOString(),
        },
      },
    ];
  },
};
