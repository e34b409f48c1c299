import { createHash } from 'node:crypto';
import type { DomainEvent } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';

/**
 * Events of the accounts context. A user's account lives on `user-<userId>`; an email address
 * is claimed on `email-<sha256 of the lowercased email>` (appended with the revision read, so
 * two registrations of one email can never both succeed; a sign-up that was given back releases
 * its claim, see email-claim.ts). Dates are ISO strings.
 */

export const userStream = (userId: string) => `user-${userId}`;

export const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
export const emailStream = (email: string) => `email-${emailKey(email)}`;

export interface UserRegisteredData {
  userId: string;
  /** Lowercased. */
  email: string;
  firstName: string;
  lastName: string;
  /** argon2id; hashed in the command layer, never in a decider. */
  passwordHash: string;
  gatewayCustomerId: string;
  cardLast4: string;
  registeredAt: string;
}

export interface AgeVerifiedData {
  userId: string;
  /** How: a card authorization (SPEC §1). */
  method: 'card';
  cardLast4: string;
  verifiedAt: string;
}

export interface LoginSucceededData {
  userId: string;
  at: string;
}

export interface LoginFailedData {
  userId: string;
  /** Consecutive failed attempts including this one (absolute, so projections stay idempotent). */
  attempts: number;
  at: string;
}

export interface AccountLockedData {
  userId: string;
  lockedUntil: string;
  at: string;
}

export interface PasswordResetRequestedData {
  userId: string;
  /** sha256 of the emailed token: the token itself is never stored. */
  tokenHash: string;
  expiresAt: string;
  at: string;
}

export interface PasswordChangedData {
  userId: string;
  passwordHash: string;
  via: 'reset' | 'change';
  at: string;
}

export interface UserDeactivatedData {
  userId: string;
  reason: string | null;
  at: string;
}

/** On `email-<hash>`: the address belongs to this user. */
export interface EmailClaimedData {
  userId: string;
  email: string;
  at: string;
}

/**
 * On `email-<hash>`: a sign-up that claimed the address did not complete (its charge was given
 * back), so the address is free again; the next claim appends after this event.
 */
export interface EmailReleasedData {
  userId: string;
  email: string;
  reason: string;
  at: string;
}

/** The sign-up payment of a user: fixed by the user id, so a process can find it from the user. */
export const signUpPaymentId = (userId: string) => deterministicId('signup-payment', userId);

export type UserRegistered = DomainEvent<'UserRegistered', UserRegisteredData>;
export type AgeVerified = DomainEvent<'AgeVerified', AgeVerifiedData>;
export type LoginSucceeded = DomainEvent<'LoginSucceeded', LoginSucceededData>;
export type LoginFailed = DomainEvent<'LoginFailed', LoginFailedData>;
export type AccountLocked = DomainEvent<'AccountLocked', AccountLockedData>;
export type PasswordResetRequested = DomainEvent<'PasswordResetRequested', PasswordResetRequestedData>;
export type PasswordChanged = DomainEvent<'PasswordChanged', PasswordChangedData>;
export type UserDeactivated = DomainEvent<'UserDeactivated', UserDeactivatedData>;
export type EmailClaimed = DomainEvent<'EmailClaimed', EmailClaimedData>;
export type EmailReleased = DomainEvent<'EmailReleased', EmailReleasedData>;
export type EmailClaimEvent = EmailClaimed | EmailReleased;

export type AccountEvent =
  | UserRegistered
  | AgeVerified
  | LoginSucceeded
  | LoginFailed
  | AccountLocked
  | PasswordResetRequested
  | PasswordChanged
  | UserDeactivated;
