import { Router, type Request, type Response } from 'express';
import QRCode from 'qrcode';
import {
  completeTwoFactorSignIn,
  disableTwoFactor,
  enableTwoFactor,
  startTwoFactorSetup,
  twoFactorStatus,
  type TwoFactorKeys,
} from '../../domain/accounts/commands';
import type { CurrentUser } from '../../domain/contracts/accounts';
import {
  twoFactorCodeSchema,
  type TwoFactorRecoveryCodes,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../domain/contracts/two-factor';
import { accountDeactivated } from '../../domain/safety/commands';
import { DomainError, refuse } from '../../domain/shared/errors';
import { currentUser, findUserRow, isDeactivated } from '../../projections/users';
import { requestUser } from '../http/access';
import { TrustedDevices } from '../http/login-throttle';
import { endPendingSignIn, readPendingSignIn } from '../http/pending-sign-in';
import { hitRateLimit } from '../http/rate-limit';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';
import { completeSignIn } from './accounts';

/**
 * Two-factor authentication (TOTP): status, setup (a new secret as a QR code), enable (answers
 * the recovery codes once), disable, and the sign-in's second step. Where its state lives and
 * how secrets are kept: domain/accounts/events.ts and two-factor-keys.ts.
 */

const MINUTE = 60_000;
/** Wrong codes: 5 per pending sign-in (then sign in again), and per account and per IP across them. */
export const TWO_FACTOR_LIMITS = {
  perPendingSignIn: { limit: 5, windowMs: 5 * MINUTE },
  perAccount: { limit: 20, windowMs: 15 * MINUTE },
  perIp: { limit: 100, windowMs: 15 * MINUTE },
};
export const TOO_MANY_CODES = 'Too many wrong codes. Please sign in again.';
export const SIGN_IN_EXPIRED = 'Your sign-in expired. Please sign in again.';

/** 429 when any of `keys` is over its limit. */
async function limitCodes(api: Api, keys: Array<[string, { limit: number; windowMs: number }]>): Promise<void> {
  for (const [key, rule] of keys) {
    const { allowed, retryAfterSeconds } = await hitRateLimit(api.deps.db, `auth:2fa:${key}`, rule);
    if (!allowed) throw new DomainError('rate_limited', TOO_MANY_CODES, { retryAfterSeconds });
  }
}

export function twoFactorRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const deps = () => ({ store, keys: api.deps.ports.twoFactorKeys as TwoFactorKeys });
  const devices = new TrustedDevices(db);

  const signedIn = async (req: Request): Promise<CurrentUser> => {
    const user = await requestUser(db, req);
    if (!user) throw refuse.unauthorized();
    return user;
  };
  const codeOf = (req: Request) => parseWith(twoFactorCodeSchema, req.body).code;
  const limitAccount = (req: Request, userId: string) =>
    limitCodes(api, [
      [`ip:${req.ip ?? 'unknown'}`, TWO_FACTOR_LIMITS.perIp],
      [`account:${userId}`, TWO_FACTOR_LIMITS.perAccount],
    ]);

  router.get('/auth/2fa', async (req, res) => {
    const user = await signedIn(req);
    res.json((await twoFactorStatus(store, user.id)) satisfies TwoFactorStatus);
  });

  router.post('/auth/2fa/setup', async (req, res) => {
    const user = await signedIn(req);
    const { otpauthUrl } = await startTwoFactorSetup(
      deps(),
      { userId: user.id, accountName: user.email },
      api.context(req),
    );
    const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 });
    res.json({ otpauthUrl, qrDataUrl } satisfies TwoFactorSetup);
  });

  router.post('/auth/2fa/enable', async (req, res) => {
    const user = await signedIn(req);
    const code = codeOf(req);
    await limitAccount(req, user.id);
    const { recoveryCodes, position } = await enableTwoFactor(deps(), { userId: user.id, code }, api.context(req));
    await api.readYourWrites(position);
    res.json({ recoveryCodes } satisfies TwoFactorRecoveryCodes);
  });

  router.post('/auth/2fa/disable', async (req, res) => {
    const user = await signedIn(req);
    const code = codeOf(req);
    await limitAccount(req, user.id);
    const { position } = await disableTwoFactor(deps(), { userId: user.id, code }, api.context(req));
    await api.readYourWrites(position);
    res.json((await twoFactorStatus(store, user.id)) satisfies TwoFactorStatus);
  });

  router.post('/auth/login/2fa', async (req: Request, res: Response) => {
    const context = api.context(req);
    const code = codeOf(req);
    const pending = readPendingSignIn(req, deps().keys, context.now);
    if (!pending) throw new DomainError('unauthorized', SIGN_IN_EXPIRED, { code: 'SIGN_IN_EXPIRED' });
    try {
      await limitCodes(api, [[`pending:${pending.id}`, TWO_FACTOR_LIMITS.perPendingSignIn]]);
    } catch (error) {
      endPendingSignIn(res, api.secure(req)); // this sign-in is over: start again with the password
      throw error;
    }
    await limitAccount(req, pending.userId);
    const trustedAccounts = await devices.accountsOf(req, context.now);
    const { position } = await completeTwoFactorSignIn(deps(), { userId: pending.userId, code }, context);
    endPendingSignIn(res, api.secure(req));
    // Suspended or banned between the two steps: still no session.
    const row = await findUserRow(db, pending.userId);
    if (row && isDeactivated(row, context.now)) throw accountDeactivated();
    await completeSignIn(api, req, res, pending.userId, devices, trustedAccounts);
    await api.readYourWrites(position);
    res.json({ message: 'Logged in successfully', user: await currentUser(db, pending.userId) });
  });

  return router;
}
