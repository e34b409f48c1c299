import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { MembershipEvent, MembershipSource } from './events';
import { addMonths } from './period';

/**
 * The site membership decider (v1: activation). Extended by later work (cancel, renewals,
 * past_due/expired): add commands and events here, keep decide/evolve pure.
 */

export type MembershipStatus = 'none' | 'active';

export interface MembershipState {
  status: MembershipStatus;
  periodStart: string | null;
  periodEnd: string | null;
  source: MembershipSource | null;
  /** Payments already turned into membership time: each activates once. */
  paymentIds: string[];
}

export interface ActivateMembership {
  type: 'ActivateMembership';
  userId: string;
  paymentId: string;
  source: MembershipSource;
  /** Months paid for (1 for the monthly card plan). */
  months: number;
  now: Date;
}

export type MembershipCommand = ActivateMembership;

export const initialMembershipState: MembershipState = { status: 'none', periodStart: null, periodEnd: null, source: null, paymentIds: [] };

export function isActiveAt(state: MembershipState, now: Date): boolean {
  return state.status === 'active' && state.periodEnd !== null && new Date(state.periodEnd) > now;
}

export const membershipDecider: Decider<MembershipCommand, MembershipState, MembershipEvent> = {
  initialState: initialMembershipState,

  evolve(state, event) {
    switch (event.type) {
      case 'MembershipActivated':
        return {
          ...state,
          status: 'active',
          periodStart: event.data.periodStart,
          periodEnd: event.data.periodEnd,
          source: event.data.source,
          paymentIds: [...state.paymentIds, event.data.paymentId],
        };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ActivateMembership': {
        if (state.paymentIds.includes(command.paymentId)) return [];
        if (!Number.isInteger(command.months) || command.months < 1) throw refuse.validation('Invalid membership length');
        // Paying while active extends the current period rather than overlapping it.
        const start = isActiveAt(state, command.now) ? new Date(state.periodEnd!) : command.now;
        return [
          {
            type: 'MembershipActivated',
            data: {
              userId: command.userId,
              periodStart: start.toISOString(),
              periodEnd: addMonths(start, command.months).toISOString(),
              source: command.source,
              paymentId: command.paymentId,
              activatedAt: command.now.toISOString(),
            },
          },
        ];
      }
    }
  },
};
