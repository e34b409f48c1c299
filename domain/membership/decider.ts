import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { RENEWAL_GRACE_DAYS, type MembershipEvent, type MembershipSource } from './events';
import { addMonths } from './period';

/**
 * The site membership decider on `membership-<userId>`.
 * none -> active (paid) -> canceled (no renewals, access to the period end) -> expired;
 * active -> active (renewed) | past_due (renewal declined, access during the grace period) ->
 * expired; paying again from canceled/past_due/expired makes it active. Pure: time comes in
 * the command, gateway answers come in the command.
 */

export type MembershipStatus = 'none' | 'active' | 'canceled' | 'past_due' | 'expired';

export interface MembershipState {
  status: MembershipStatus;
  periodStart: string | null;
  periodEnd: string | null;
  source: MembershipSource | null;
  /** Payments already turned into membership time: each activates once. */
  paymentIds: string[];
  /** Whether the period renews automatically (false once canceled). */
  autoRenew: boolean;
  /** Past due: access ends at this moment unless paid. */
  graceEndsAt: string | null;
  /** The payment that paid the current period (a refund of it in full ends the period). */
  periodPaymentId: string | null;
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

export interface CancelMembership {
  type: 'CancelMembership';
  userId: string;
  now: Date;
}

export interface ResumeMembership {
  type: 'ResumeMembership';
  userId: string;
  now: Date;
}

/** The gateway's answer to the renewal charge of the period ending at `periodEnd`. */
export interface RecordRenewal {
  type: 'RecordRenewal';
  userId: string;
  periodEnd: string;
  paymentId: string;
  outcome: { paid: true } | { paid: false; failureReason: string };
  now: Date;
}

export interface ExpireMembership {
  type: 'ExpireMembership';
  userId: string;
  now: Date;
}

/** The card declined a membership payment (subscribe): recorded so a retry is a new charge attempt. */
export interface RecordDeclinedCharge {
  type: 'RecordDeclinedCharge';
  userId: string;
  paymentId: string;
  failureReason: string;
  now: Date;
}

/** The payment `paymentId` was given back in full (a refund or a chargeback): the period it paid ends now. */
export interface EndRefundedPeriod {
  type: 'EndRefundedPeriod';
  userId: string;
  paymentId: string;
  now: Date;
}

export type MembershipCommand =
  | ActivateMembership
  | CancelMembership
  | ResumeMembership
  | RecordRenewal
  | ExpireMembership
  | RecordDeclinedCharge
  | EndRefundedPeriod;

export const initialMembershipState: MembershipState = {
  status: 'none',
  periodStart: null,
  periodEnd: null,
  source: null,
  paymentIds: [],
  autoRenew: false,
  graceEndsAt: null,
  periodPaymentId: null,
};

export const NOT_SUBSCRIBED = 'No active subscription to cancel';
export const ALREADY_CANCELED = 'Your subscription is already canceled';

/** Until when the member may use the site: the paid period, or the grace period when past due. */
export function accessUntil(state: MembershipState): string | null {
  if (state.status === 'past_due') return state.graceEndsAt;
  if (state.status === 'active' || state.status === 'canceled') return state.periodEnd;
  return null;
}

export function hasAccessAt(state: MembershipState, now: Date): boolean {
  const until = accessUntil(state);
  return until !== null && new Date(until) > now;
}

/** Paid time not used up yet: a new payment extends it instead of overlapping it. */
export function isActiveAt(state: MembershipState, now: Date): boolean {
  return (
    (state.status === 'active' || state.status === 'canceled') &&
    state.periodEnd !== null &&
    new Date(state.periodEnd) > now
  );
}

/** A renewal is due: active, renewing, and the paid period is over. */
export function renewalDue(state: MembershipState, now: Date): boolean {
  return state.status === 'active' && state.autoRenew && state.periodEnd !== null && new Date(state.periodEnd) <= now;
}

export function expiryDue(state: MembershipState, now: Date): boolean {
  if (state.status === 'canceled') return state.periodEnd !== null && new Date(state.periodEnd) <= now;
  if (state.status === 'past_due') return state.graceEndsAt !== null && new Date(state.graceEndsAt) <= now;
  return false;
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
          autoRenew: true,
          graceEndsAt: null,
          periodPaymentId: event.data.paymentId,
        };
      case 'MembershipCanceled':
        return { ...state, status: 'canceled', autoRenew: false, graceEndsAt: null };
      case 'MembershipResumed':
        return { ...state, status: 'active', autoRenew: true };
      case 'MembershipRenewed':
        return {
          ...state,
          status: 'active',
          periodStart: event.data.periodStart,
          periodEnd: event.data.periodEnd,
          source: 'card',
          paymentIds: [...state.paymentIds, event.data.paymentId],
          graceEndsAt: null,
          periodPaymentId: event.data.paymentId,
        };
      case 'MembershipPastDue':
        return {
          ...state,
          status: 'past_due',
          graceEndsAt: event.data.graceEndsAt,
          paymentIds: [...state.paymentIds, event.data.paymentId],
        };
      case 'MembershipExpired':
        return { ...state, status: 'expired', autoRenew: false, graceEndsAt: null };
      case 'MembershipChargeDeclined':
        return { ...state, paymentIds: [...state.paymentIds, event.data.paymentId] };
      default:
        return state;
    }
  },

  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'ActivateMembership': {
        if (state.paymentIds.includes(command.paymentId)) return [];
        if (!Number.isInteger(command.months) || command.months < 1)
          throw refuse.validation('Invalid membership length');
        // Paying while paid time remains extends the current period rather than overlapping it.
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
              activatedAt: at,
            },
          },
        ];
      }
      case 'CancelMembership': {
        if (state.status === 'canceled') throw refuse.conflict(ALREADY_CANCELED);
        if (state.status !== 'active' && state.status !== 'past_due') throw refuse.conflict(NOT_SUBSCRIBED);
        const until = accessUntil(state)!;
        return [{ type: 'MembershipCanceled', data: { userId: command.userId, accessUntil: until, canceledAt: at } }];
      }
      case 'ResumeMembership': {
        if (state.status !== 'canceled' || !isActiveAt(state, command.now))
          throw refuse.conflict('There is no canceled subscription to resume');
        return [
          { type: 'MembershipResumed', data: { userId: command.userId, periodEnd: state.periodEnd!, resumedAt: at } },
        ];
      }
      case 'RecordRenewal': {
        // Only the current period's renewal, once: a replayed or late answer changes nothing.
        if (
          state.paymentIds.includes(command.paymentId) ||
          state.periodEnd !== command.periodEnd ||
          !renewalDue(state, command.now)
        )
          return [];
        if (command.outcome.paid) {
          return [
            {
              type: 'MembershipRenewed',
              data: {
                userId: command.userId,
                paymentId: command.paymentId,
                periodStart: state.periodEnd,
                periodEnd: addMonths(new Date(state.periodEnd), 1).toISOString(),
                renewedAt: at,
              },
            },
          ];
        }
        const graceEndsAt = new Date(command.now.getTime() + RENEWAL_GRACE_DAYS * 86_400_000).toISOString();
        return [
          {
            type: 'MembershipPastDue',
            data: {
              userId: command.userId,
              paymentId: command.paymentId,
              periodEnd: state.periodEnd,
              failureReason: command.outcome.failureReason,
              graceEndsAt,
              at,
            },
          },
        ];
      }
      case 'RecordDeclinedCharge': {
        if (state.paymentIds.includes(command.paymentId)) return [];
        return [
          {
            type: 'MembershipChargeDeclined',
            data: { userId: command.userId, paymentId: command.paymentId, failureReason: command.failureReason, at },
          },
        ];
      }
      case 'EndRefundedPeriod': {
        const running = state.status === 'active' || state.status === 'canceled' || state.status === 'past_due';
        if (!running || state.periodPaymentId !== command.paymentId) return [];
        return [{ type: 'MembershipExpired', data: { userId: command.userId, reason: 'refunded', expiredAt: at } }];
      }
      case 'ExpireMembership': {
        if (!expiryDue(state, command.now)) return [];
        return [
          {
            type: 'MembershipExpired',
            data: {
              userId: command.userId,
              reason: state.status === 'canceled' ? 'canceled' : 'unpaid',
              expiredAt: at,
            },
          },
        ];
      }
    }
  },
};
