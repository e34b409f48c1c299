import type { PaymentCaptured } from '../payments/events';
import { handleCommand } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import type { ProcessManager } from '../shared/process-manager';
import { membershipDecider } from './decider';
import { membershipStream } from './events';

/** Months of membership a captured card payment buys, by its request type. Extend per plan. */
export const MEMBERSHIP_MONTHS_BY_REQUEST: Record<string, number> = { membership_signup: 1 };

/**
 * A captured membership payment activates the membership. The sign-up request activates it
 * itself (to answer with an active member); this catches up when a request died between the
 * payment and the activation. The decider activates each payment once, and event ids derive
 * from the payment event, so replays write nothing.
 */
export const membershipActivationProcess: ProcessManager = {
  name: 'membership-activation',
  eventTypes: ['PaymentCaptured'],
  async handle(event, { store }) {
    const data = event.data as PaymentCaptured['data'];
    const months = MEMBERSHIP_MONTHS_BY_REQUEST[data.requestType];
    if (!months) return;
    const context = {
      actorId: event.metadata.actorId ?? null,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now: new Date(data.at),
    };
    await handleCommand(
      store,
      membershipStream(data.userId),
      membershipDecider,
      { type: 'ActivateMembership', userId: data.userId, paymentId: data.paymentId, source: 'card', months, now: new Date(data.at) },
      context,
      { eventIds: [deterministicId('membership-activation', event.eventId)] },
    );
  },
};
