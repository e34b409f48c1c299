import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { CurrentUser } from '../../domain/contracts/accounts';
import { hasSiteAccess } from '../../domain/contracts/money';
import { refuse } from '../../domain/shared/errors';

/**
 * Who the signed-in user is (the `users` read model) and the gates built on it: an active
 * site subscription, age verification, a role. Each gate answers 401 without a session.
 */

export interface UserRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  password_hash: string;
  role: CurrentUser['role'];
  is_active: boolean;
  is_creator: boolean;
  age_verified: boolean;
  subscription_status: string;
  last_payment_date: Date | null;
  subscription_end_date: Date | null;
  [column: string]: unknown;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toCurrentUser(row: UserRow): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    profileImageUrl: row.profile_image_url,
    role: row.role,
    isCreator: row.is_creator,
    ageVerified: row.age_verified,
    subscriptionStatus: row.subscription_status,
    lastPaymentDate: iso(row.last_payment_date),
    subscriptionEndDate: iso(row.subscription_end_date),
  };
}

export async function findUserRow(db: Knex, userId: string): Promise<UserRow | null> {
  return (await db<UserRow>('users').where({ id: userId }).first()) ?? null;
}

/** The signed-in user as the client reads it; null for an unknown or deactivated account. */
export async function currentUser(db: Knex, userId: string | null): Promise<CurrentUser | null> {
  if (!userId) return null;
  const row = await findUserRow(db, userId);
  return row && row.is_active ? toCurrentUser(row) : null;
}

/**
 * The signed-in user as the request began: the row the session middleware loaded with the
 * session, or (where it did not run) read now. After a command, read it again with `currentUser`.
 */
export async function requestUser(db: Knex, req: Request): Promise<CurrentUser | null> {
  if (req.userRow === undefined) return currentUser(db, req.userId);
  return req.userRow && req.userRow.is_active ? toCurrentUser(req.userRow) : null;
}

/** Runs `check` on the current user (401 without one) and leaves it in `res.locals.currentUser`. */
function gate(db: Knex, check: (user: CurrentUser) => Error | null): RequestHandler {
  return async (req, res, next) => {
    const user = await requestUser(db, req);
    if (!user) return next(refuse.unauthorized());
    res.locals.currentUser = user;
    next(check(user) ?? undefined);
  };
}

/*
 * Usage: `router.post('/subscribe', requireAgeVerified(api.deps.db), handler)`,
 * `router.get('/admin/payments', requireRole(api.deps.db, 'admin'), handler)`.
 */

export const requireActiveSubscription = (db: Knex, clock: () => Date = () => new Date()): RequestHandler =>
  gate(db, (user) => (hasSiteAccess(user, clock()) ? null : refuse.forbidden('An active subscription is required', { code: 'SUBSCRIPTION_REQUIRED' })));

export const requireAgeVerified = (db: Knex): RequestHandler =>
  gate(db, (user) => (user.ageVerified ? null : refuse.forbidden('Age verification is required', { code: 'AGE_VERIFICATION_REQUIRED', requiresAgeVerification: true })));

export const requireRole = (db: Knex, role: CurrentUser['role']): RequestHandler =>
  gate(db, (user) => (user.role === role ? null : refuse.forbidden('Forbidden')));
