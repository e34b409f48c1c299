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

/**
 * The member deleted their account (issue 23): every read model forgets them (names read
 * "Deleted user", their texts "[removed]", their creator page, posts and media are gone) and
 * their personal-data key is deleted right after, so the log itself can no longer name them.
 * Payment and payout records stay, with amounts and ids only.
 */
export interface AccountDeletedData {
  userId: string;
  at: string;
}

/**
 * A member asked for a copy of their data (issue 23), on `accountExport-<exportId>`: the
 * export process writes the file and then AccountExportReady, which notifies them.
 */
export const accountExportStream = (exportId: string) => `accountExport-${exportId}`;
export interface AccountExportRequestedData {
  exportId: string;
  userId: string;
  at: string;
}
export interface AccountExportReadyData {
  exportId: string;
  userId: string;
  bytes: number;
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

/**
 * Two-factor authentication (TOTP) lives on the account stream `user-<id>`, so its state is the
 * account's and read models rebuild from it. The secret is personal and secret: events hold it
 * only sealed with AES-256-GCM (key TWO_FACTOR_KEY, else one generated into the data dir), and
 * recovery codes only as HMAC-SHA-256 digests keyed with a pepper derived from that key.
 */
export interface TwoFactorSetupStartedData {
  userId: string;
  /** The new secret, sealed (see two-factor-keys.ts); it replaces any pending one. */
  sealedSecret: string;
  at: string;
}

export interface TwoFactorEnabledData {
  userId: string;
  /** Digests of the ten single-use recovery codes; the codes themselves are shown once. */
  recoveryCodeHashes: string[];
  /** The TOTP time step of the code that confirmed the secret: it cannot be used again. */
  step: number;
  at: string;
}

export interface TwoFactorDisabledData {
  userId: string;
  at: string;
}

/** A TOTP code was accepted at this time step: codes of this step or earlier are refused after it. */
export interface TwoFactorCodeUsedData {
  userId: string;
  step: number;
  at: string;
}

/** The recovery code at `index` (of TwoFactorEnabled's list) was used up. */
export interface RecoveryCodeUsedData {
  userId: string;
  index: number;
  at: string;
}

/** The password was right and two-factor is on: the sign-in waits for the second factor. */
export interface LoginPasswordVerifiedData {
  userId: string;
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
export type AccountDeleted = DomainEvent<'AccountDeleted', AccountDeletedData>;
export type EmailClaimed = DomainEvent<'EmailClaimed', EmailClaimedData>;
export type EmailReleased = DomainEvent<'EmailReleased', EmailReleasedData>;
export type TwoFactorSetupStarted = DomainEvent<'TwoFactorSetupStarted', TwoFactorSetupStartedData>;
export type TwoFactorEnabled = DomainEvent<'TwoFactorEnabled', TwoFactorEnabledData>;
export type TwoFactorDisabled = DomainEvent<'TwoFactorDisabled', TwoFactorDisabledData>;
export type TwoFactorCodeUsed = DomainEvent<'TwoFactorCodeUsed', TwoFactorCodeUsedData>;
export type RecoveryCodeUsed = DomainEvent<'RecoveryCodeUsed', RecoveryCodeUsedData>;
export type LoginPasswordVerified = DomainEvent<'LoginPasswordVerified', LoginPasswordVerifiedData>;
export type TwoFactorEvent =
  TwoFactorSetupStarted | TwoFactorEnabled | TwoFactorDisabled | TwoFactorCodeUsed | RecoveryCodeUsed;
export type EmailClaimEvent = EmailClaimed | EmailReleased;

export type AccountEvent =
  | UserRegistered
  | AgeVerified
  | LoginSucceeded
  | LoginFailed
  | AccountLocked
  | PasswordResetRequested
  | PasswordChanged
  | UserDeactivated
  | AccountDeleted
  | LoginPasswordVerified
  | TwoFactorEvent;
