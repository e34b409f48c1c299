import type { Decider } from '../shared/command-handler';
import { DomainError, refuse } from '../shared/errors';
import type { AccountEvent } from './events';

/**
 * The user account on `user-<userId>`: registration, sign-in attempts and lockout, password
 * resets, deactivation. Pure: password hashes and verification results come in the command.
 */

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;
/** Failures further apart than this do not add up: counting starts again. */
export const FAILURE_WINDOW_MINUTES = 15;
export const RESET_TOKEN_MINUTES = 60;

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const ACCOUNT_LOCKED = 'Account temporarily locked';
export const ACCOUNT_DEACTIVATED = 'Account has been deactivated';
export const INVALID_RESET_TOKEN = 'Invalid or expired reset token';

/** What lockout reads: of an account (from its events), or of an email without one (a table). */
export interface LoginFailures {
  failedAttempts: number;
  lastFailureAt: string | null;
  lockedUntil: string | null;
}

export interface AccountState extends LoginFailures {
  exists: boolean;
  userId: string | null;
  email: string | null;
  passwordHash: string | null;
  isActive: boolean;
  ageVerified: boolean;
  resetTokenHash: string | null;
  resetExpiresAt: string | null;
  /** Two-factor on: a right password asks for the second factor instead of signing in. */
  twoFactorEnabled: boolean;
  /** The member deleted the account (AccountDeleted): nothing signs in as them again. */
  deleted: boolean;
}

export interface RegisterUser {
  type: 'RegisterUser';
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  gatewayCustomerId: string;
  cardLast4: string;
  now: Date;
}

/** A sign-in attempt whose password was checked against `passwordHash` by the command layer. */
export interface RecordLoginAttempt {
  type: 'RecordLoginAttempt';
  passwordMatched: boolean;
  /** The client signed in to this account before (its device cookie): a lock does not apply to it. */
  trustedClient?: boolean;
  now: Date;
}

export interface RequestPasswordReset {
  type: 'RequestPasswordReset';
  tokenHash: string;
  now: Date;
}

export interface ResetPassword {
  type: 'ResetPassword';
  tokenHash: string;
  passwordHash: string;
  now: Date;
}

export interface DeactivateUser {
  type: 'DeactivateUser';
  reason: string | null;
  now: Date;
}

export interface DeleteAccount {
  type: 'DeleteAccount';
  now: Date;
}

export type AccountCommand =
  RegisterUser | RecordLoginAttempt | RequestPasswordReset | ResetPassword | DeactivateUser | DeleteAccount;

export const initialAccountState: AccountState = {
  exists: false,
  userId: null,
  email: null,
  passwordHash: null,
  isActive: true,
  ageVerified: false,
  failedAttempts: 0,
  lastFailureAt: null,
  lockedUntil: null,
  resetTokenHash: null,
  resetExpiresAt: null,
  twoFactorEnabled: false,
  deleted: false,
};

export const isLocked = (state: Pick<LoginFailures, 'lockedUntil'>, now: Date) =>
  state.lockedUntil !== null && new Date(state.lockedUntil) > now;

export const noLoginFailures: LoginFailures = { failedAttempts: 0, lastFailureAt: null, lockedUntil: null };

/**
 * One more failed sign-in. Counting starts again once a lock has run out or the previous failure
 * is older than the window; the 5th failure in a row locks for 15 minutes. A failure during a lock
 * (from a trusted client) is counted and leaves the lock as it is. The one rule for accounts and
 * for emails without an account, so lockout cannot tell them apart.
 */
export function afterLoginFailure(current: LoginFailures, now: Date): LoginFailures & { locks: boolean } {
  const at = now.toISOString();
  if (isLocked(current, now))
    return {
      failedAttempts: current.failedAttempts + 1,
      lastFailureAt: at,
      lockedUntil: current.lockedUntil,
      locks: false,
    };
  const recent =
    current.lockedUntil === null &&
    current.lastFailureAt !== null &&
    now.getTime() - Date.parse(current.lastFailureAt) <= FAILURE_WINDOW_MINUTES * 60_000;
  const failedAttempts = (recent ? current.failedAttempts : 0) + 1;
  const locks = failedAttempts >= MAX_FAILED_LOGINS;
  return {
    failedAttempts,
    lastFailureAt: at,
    lockedUntil: locks ? new Date(now.getTime() + LOCK_MINUTES * 60_000).toISOString() : null,
    locks,
  };
}

export const lockedError = () => refuse.forbidden(ACCOUNT_LOCKED, { code: 'ACCOUNT_LOCKED' });
export const invalidCredentials = () => refuse.unauthorized(INVALID_CREDENTIALS);
const deactivatedError = () => refuse.forbidden(ACCOUNT_DEACTIVATED, { code: 'ACCOUNT_DEACTIVATED' });

export const accountDecider: Decider<AccountCommand, AccountState, AccountEvent> = {
  initialState: initialAccountState,

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return {
          ...state,
          exists: true,
          userId: event.data.userId,
          email: event.data.email,
          passwordHash: event.data.passwordHash,
        };
      case 'AgeVerified':
        return { ...state, ageVerified: true };
      case 'LoginSucceeded':
      case 'LoginPasswordVerified':
        return { ...state, ...noLoginFailures };
      case 'TwoFactorEnabled':
        return { ...state, twoFactorEnabled: true };
      case 'TwoFactorDisabled':
        return { ...state, twoFactorEnabled: false };
      case 'LoginFailed':
        // A first failure means counting started again: any lock before it had run out.
        return {
          ...state,
          failedAttempts: event.data.attempts,
          lastFailureAt: event.data.at,
          lockedUntil: event.data.attempts === 1 ? null : state.lockedUntil,
        };
      case 'AccountLocked':
        return { ...state, lockedUntil: event.data.lockedUntil };
      case 'PasswordResetRequested':
        return { ...state, resetTokenHash: event.data.tokenHash, resetExpiresAt: event.data.expiresAt };
      case 'PasswordChanged':
        return {
          ...state,
          passwordHash: event.data.passwordHash,
          resetTokenHash: null,
          resetExpiresAt: null,
          ...noLoginFailures,
        };
      case 'UserDeactivated':
        return { ...state, isActive: false };
      case 'AccountDeleted':
        return { ...state, isActive: false, deleted: true };
      default:
        return state;
    }
  },

  decide(command, state): AccountEvent[] {
    const at = command.now.toISOString();
    if (command.type === 'RegisterUser') {
      if (state.exists) throw refuse.conflict('An account with this email already exists');
      const { userId, email, firstName, lastName, passwordHash, gatewayCustomerId, cardLast4 } = command;
      return [
        {
          type: 'UserRegistered',
          data: { userId, email, firstName, lastName, passwordHash, gatewayCustomerId, cardLast4, registeredAt: at },
        },
        // The sign-up card authorization is the age verification (SPEC §1).
        { type: 'AgeVerified', data: { userId, method: 'card', cardLast4, verifiedAt: at } },
      ];
    }
    if (!state.exists || (state.deleted && command.type !== 'DeleteAccount'))
      throw command.type === 'RecordLoginAttempt' ? invalidCredentials() : refuse.notFound('User not found');
    const userId = state.userId!;
    switch (command.type) {
      case 'RecordLoginAttempt': {
        // A lock stops strangers guessing; the owner's own client still gets in (OWASP).
        if (isLocked(state, command.now) && !command.trustedClient) throw lockedError();
        if (command.passwordMatched) {
          if (!state.isActive) throw deactivatedError();
          // The sign-in completes with the second factor (two-factor-decider.ts CompleteSignIn).
          if (state.twoFactorEnabled) return [{ type: 'LoginPasswordVerified', data: { userId, at } }];
          return [{ type: 'LoginSucceeded', data: { userId, at } }];
        }
        const next = afterLoginFailure(state, command.now);
        const events: AccountEvent[] = [{ type: 'LoginFailed', data: { userId, attempts: next.failedAttempts, at } }];
        if (next.locks) events.push({ type: 'AccountLocked', data: { userId, lockedUntil: next.lockedUntil!, at } });
        return events;
      }
      case 'RequestPasswordReset': {
        if (!state.isActive) return [];
        const expiresAt = new Date(command.now.getTime() + RESET_TOKEN_MINUTES * 60_000).toISOString();
        return [{ type: 'PasswordResetRequested', data: { userId, tokenHash: command.tokenHash, expiresAt, at } }];
      }
      case 'ResetPassword': {
        const valid =
          state.isActive &&
          state.resetTokenHash !== null &&
          state.resetTokenHash === command.tokenHash &&
          new Date(state.resetExpiresAt!) > command.now;
        if (!valid)
          throw new DomainError('validation', INVALID_RESET_TOKEN, { fields: { token: INVALID_RESET_TOKEN } });
        return [{ type: 'PasswordChanged', data: { userId, passwordHash: command.passwordHash, via: 'reset', at } }];
      }
      case 'DeactivateUser':
        return state.isActive ? [{ type: 'UserDeactivated', data: { userId, reason: command.reason, at } }] : [];
      case 'DeleteAccount':
        return state.deleted ? [] : [{ type: 'AccountDeleted', data: { userId, at } }];
    }
  },
};
