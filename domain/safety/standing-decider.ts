import type { AccountStanding } from '../contracts/safety';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { StandingEvent } from './events';

/** An account's standing (`standing-<userId>`): warned, suspended (for N days or pending review), banned, reinstated. */
export interface StandingState {
  status: 'active' | 'suspended' | 'banned';
  until: string | null;
  pendingReview: boolean;
}

interface StaffAction {
  userId: string;
  staffId: string;
  reason: string;
  now: Date;
}

export type StandingCommand =
  | (StaffAction & { type: 'WarnUser'; reportId: string | null })
  | (StaffAction & { type: 'SuspendUser'; days: number; reportId: string | null })
  | (StaffAction & { type: 'BanUser'; reportId: string | null })
  | (StaffAction & { type: 'ReinstateUser' })
  /** Reports from several members: suspended until staff review it (nothing when already suspended or banned). */
  | { type: 'SuspendAutomatically'; userId: string; reason: string; reportId: string; now: Date };

/** The standing as it applies at `now`: a suspension past its end is over. */
export function standingAt(state: StandingState, now: Date): AccountStanding {
  const over = state.status === 'suspended' && state.until !== null && Date.parse(state.until) <= now.getTime();
  if (over) return { status: 'active', suspendedUntil: null, pendingReview: false };
  return { status: state.status, suspendedUntil: state.until, pendingReview: state.pendingReview };
}

const DAY_MS = 86_400_000;

function decideStaffAction(command: Exclude<StandingCommand, { type: 'SuspendAutomatically' }>, state: StandingState) {
  const { userId, staffId, reason } = command;
  if (staffId === userId) throw refuse.forbidden('You cannot take action on your own account');
  const at = command.now.toISOString();
  const current = standingAt(state, command.now).status;
  switch (command.type) {
    case 'WarnUser':
      return [{ type: 'UserWarned' as const, data: { userId, staffId, reason, reportId: command.reportId, at } }];
    case 'SuspendUser': {
      if (current === 'banned') throw refuse.conflict('This account is banned: reinstate it before suspending it');
      const until = new Date(command.now.getTime() + command.days * DAY_MS).toISOString();
      return [
        {
          type: 'UserSuspended' as const,
          data: {
            userId,
            staffId,
            reason,
            days: command.days,
            until,
            automatic: false,
            reportId: command.reportId,
            at,
          },
        },
      ];
    }
    case 'BanUser':
      if (current === 'banned') return [];
      return [{ type: 'UserBanned' as const, data: { userId, staffId, reason, reportId: command.reportId, at } }];
    case 'ReinstateUser':
      if (current === 'active') throw refuse.conflict('This account is not suspended or banned');
      return [{ type: 'UserReinstated' as const, data: { userId, staffId, reason, at } }];
  }
}

export const standingDecider: Decider<StandingCommand, StandingState, StandingEvent> = {
  initialState: { status: 'active', until: null, pendingReview: false },
  evolve(state, event) {
    switch (event.type) {
      case 'UserSuspended':
        return { status: 'suspended', until: event.data.until, pendingReview: event.data.automatic };
      case 'UserBanned':
        return { status: 'banned', until: null, pendingReview: false };
      case 'UserReinstated':
        return { status: 'active', until: null, pendingReview: false };
      default:
        return state;
    }
  },
  decide(command, state): StandingEvent[] {
    if (command.type !== 'SuspendAutomatically') return decideStaffAction(command, state);
    if (standingAt(state, command.now).status !== 'active') return [];
    const { userId, reason, reportId } = command;
    const at = command.now.toISOString();
    return [
      {
        type: 'UserSuspended',
        data: { userId, staffId: null, reason, days: null, until: null, automatic: true, reportId, at },
      },
    ];
  },
};
