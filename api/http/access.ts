import type { Request, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { CurrentUser } from '../../domain/contracts/accounts';
import { hasSiteAccess } from '../../domain/contracts/membership';
import { refuse } from '../../domain/shared/errors';
import { currentUser, toCurrentUser } from '../../projections/users';

/**
 * Who the signed-in user is (the `users` read model) and the gates built on it: an active
 * site subscription, age verification, a role. Each gate answers 401 without a session.
 */

/**
 * The signed-in user as the request began: the row the session middleware loaded with the
 * session, or (where it did not run) read now. After a command, read it again with `currentUser`.
 */
export async function requestUser(db: Knex, req: Request): Promise<CurrentUser | null> {
  if (req.userRow === undefined) return currentUser(db, req.userId);
  return req.userRow && req.userRow.is_active ? toCurrentUser(req.userRow) : null;
}

/** The signed-in user, or a 401 refusal thrown. */
export async function signedInUser(db: Knex, req: Request): Promise<CurrentUser> {
  const user = await requestUser(db, req);
  if (!user) throw refuse.unauthorized();
  return user;
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
  gate(db, (user) =>
    hasSiteAccess(user, clock())
      ? null
      : refuse.forbidden('An active subscription is required', { code: 'SUBSCRIPTION_REQUIRED' }),
  );

export const requireAgeVerified = (db: Knex): RequestHandler =>
  gate(db, (user) =>
    user.ageVerified
      ? null
      : refuse.forbidden('Age verification is required', {
          code: 'AGE_VERIFICATION_REQUIRED',
          requiresAgeVerification: true,
        }),
  );

/** A signed-in, active user, whatever their site plan (a lapsed member still manages what they pay). */
export const requireSignedIn = (db: Knex): RequestHandler => gate(db, () => null);

/** An async check of the request as a gate: what it throws is the refusal. */
export const checkAsGate =
  (check: (req: Request) => Promise<unknown>): RequestHandler =>
  (req, _res, next) =>
    void check(req).then(() => next(), next);

export const requireRole = (db: Knex, role: CurrentUser['role']): RequestHandler =>
  gate(db, (user) => (user.role === role ? null : refuse.forbidden('Forbidden')));
