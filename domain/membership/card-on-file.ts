import type { AgeVerifiedData, UserRegisteredData } from '../accounts/events';
import { userStream } from '../accounts/events';
import type { EventStore } from '../event-store/port';
import type { Decider, DomainEvent } from '../shared/command-handler';
import { refuse } from '../shared/errors';

/**
 * What membership needs from the user's account stream (`user-<userId>`): whether the user
 * exists and is age verified, and the card on file. Age verification by a card authorization
 * (/verify-age) appends here: `PaymentCardUpdated` when a new card was given, then `AgeVerified`.
 */
export interface PaymentCardUpdatedData {
  userId: string;
  gatewayCustomerId: string;
  cardLast4: string;
  updatedAt: string;
}

type CardEvent =
  | DomainEvent<'UserRegistered', UserRegisteredData>
  | DomainEvent<'AgeVerified', AgeVerifiedData>
  | DomainEvent<'PaymentCardUpdated', PaymentCardUpdatedData>;

export interface CardOnFileState {
  exists: boolean;
  ageVerified: boolean;
  email: string | null;
  name: string | null;
  customerId: string | null;
  cardLast4: string | null;
}

export interface RecordAgeVerification {
  type: 'RecordAgeVerification';
  userId: string;
  /** Set when the authorization was made on a newly given card. */
  newCard: { customerId: string; cardLast4: string } | null;
  cardLast4: string;
  now: Date;
}

export const cardOnFileDecider: Decider<RecordAgeVerification, CardOnFileState, CardEvent> = {
  initialState: { exists: false, ageVerified: false, email: null, name: null, customerId: null, cardLast4: null },
  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return {
          ...state,
          exists: true,
          email: event.data.email,
          name: `${event.data.firstName} ${event.data.lastName}`,
          customerId: event.data.gatewayCustomerId,
          cardLast4: event.data.cardLast4,
        };
      case 'AgeVerified':
        return { ...state, ageVerified: true };
      case 'PaymentCardUpdated':
        return { ...state, customerId: event.data.gatewayCustomerId, cardLast4: event.data.cardLast4 };
      default:
        return state;
    }
  },
  decide(command, state) {
    if (!state.exists) throw refuse.notFound('User not found');
    const at = command.now.toISOString();
    const events: CardEvent[] = [];
    if (command.newCard && command.newCard.customerId !== state.customerId) {
      events.push({
        type: 'PaymentCardUpdated',
        data: {
          userId: command.userId,
          gatewayCustomerId: command.newCard.customerId,
          cardLast4: command.newCard.cardLast4,
          updatedAt: at,
        },
      });
    }
    if (!state.ageVerified)
      events.push({
        type: 'AgeVerified',
        data: { userId: command.userId, method: 'card', cardLast4: command.cardLast4, verifiedAt: at },
      });
    return events;
  },
};

export { userStream };

export async function loadCardOnFile(store: EventStore, userId: string) {
  const recorded = await store.readStream(userStream(userId));
  let state = cardOnFileDecider.initialState;
  for (const event of recorded)
    state = cardOnFileDecider.evolve(state, { type: event.type, data: event.data } as CardEvent);
  return { state, revision: recorded.length ? recorded[recorded.length - 1].revision : null };
}
