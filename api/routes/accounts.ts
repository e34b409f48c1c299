import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { ZodType } from 'zod';
import {
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  resetRequestSchema,
  type AuthSuccessResponse,
  type MessageResponse,
} from '../../domain/contracts/accounts';
import type { TwoFactorRequired } from '../../domain/contracts/two-factor';
import {
  hashPassword,
  invalidCredentials,
  login,
  mailNewDeviceSignIn,
  PASSWORD_RESET_MESSAGE,
  registerUser,
  RESET_REQUEST_MESSAGE,
  requestPasswordReset,
  resetPassword,
  WELCOME_MESSAGE,
  type EmailSender,
  type PaymentGateway,
  type TwoFactorKeys,
} from '../../domain/accounts/commands';
import { accountDeactivated } from '../../domain/safety/commands';
import { DomainError, refuse } from '../../domain/shared/errors';
import { currentUser, findUserRow, isDeactivated, userIdByResetTokenHash } from '../../projections/users';
import { requestUser } from '../http/access';
import { postgresUnknownEmailFailures, TrustedDevices } from '../http/login-throttle';
import { issuePendingSignIn } from '../http/pending-sign-in';
import { hitRateLimit } from '../http/rate-limit';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/**
 * Accounts over HTTP (SPEC §7): register with card, login, logout, current user, password reset.
 * Register and reset requests are rate limited per IP and per account, login per IP and per
 * account+IP pair (429).
 */

interface Limit {
  limit: number;
  windowMs: number;
}
type Limits = { perIp: Limit; perAccount?: Limit; perAccountAndIp?: Limit };
export interface AuthRateLimits {
  /** Never per account alone: anyone could then lock an account out by failing on purpose. */
  login: { perIp: Limit; perAccountAndIp: Limit };
  register: { perIp: Limit; perAccount: Limit };
  resetRequest: { perIp: Limit; perAccount: Limit };
}

const MINUTE = 60_000;
/** Defaults; a stack may replace them through the `authRateLimits` port (tests, load tests). */
export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  login: { perIp: { limit: 100, windowMs: 15 * MINUTE }, perAccountAndIp: { limit: 20, windowMs: 15 * MINUTE } },
  register: { perIp: { limit: 50, windowMs: 60 * MINUTE }, perAccount: { limit: 5, windowMs: 60 * MINUTE } },
  resetRequest: { perIp: { limit: 20, windowMs: 60 * MINUTE }, perAccount: { limit: 5, windowMs: 60 * MINUTE } },
};

const RATE_LIMIT_MESSAGES: Record<keyof AuthRateLimits, string> = {
  login: 'Too many login attempts. Please wait before trying again.',
  register: 'Too many registration attempts. Please wait before trying again.',
  resetRequest: 'Too many reset requests. Please wait before trying again.',
};

const accountKey = (req: Request) =>
  typeof req.body?.email === 'string' ? req.body.email.trim().toLowerCase().slice(0, 254) : null;

function limited(api: Api, action: keyof AuthRateLimits): RequestHandler {
  return async (req, res, next) => {
    const limits: Limits = {
      ...DEFAULT_AUTH_RATE_LIMITS,
      ...(api.deps.ports.authRateLimits as Partial<AuthRateLimits> | undefined),
    }[action];
    const ip = req.ip ?? 'unknown';
    const checks: Array<[string, Limit]> = [[`auth:${action}:ip:${ip}`, limits.perIp]];
    const account = accountKey(req);
    if (account && limits.perAccount) checks.push([`auth:${action}:account:${account}`, limits.perAccount]);
    if (account && limits.perAccountAndIp)
      checks.push([`auth:${action}:account-ip:${ip}:${account}`, limits.perAccountAndIp]);
    for (const [key, rule] of checks) {
      const { allowed, retryAfterSeconds } = await hitRateLimit(api.deps.db, key, rule);
      if (!allowed) {
        res.setHeader('Retry-After', String(retryAfterSeconds));
        res
          .status(429)
          .json({ error: RATE_LIMIT_MESSAGES[action], code: 'RATE_LIMITED', status: 429, retryAfterSeconds });
        return;
      }
    }
    next();
  };
}

/** Contract parsing; a malformed email reads 'Invalid email format' (what the client matches, SPEC §8). */
function parseAuth<T>(schema: ZodType<T>, body: unknown): T {
  try {
    return parseWith(schema, body);
  } catch (error) {
    const fields =
      error instanceof DomainError ? (error.details.fields as Record<string, string> | undefined) : undefined;
    if (fields?.email === 'Invalid email address')
      throw new DomainError('validation', 'Invalid email format', { fields });
    throw error;
  }
}

/** Where links in emails point: the configured public origin, else the one the request came to. */
const siteOrigin = (api: Api, req: Request) => api.deps.allowedOrigins[0] ?? `${req.protocol}://${req.get('Host')}`;

/** A fresh session id at every sign-in; the previous session (if any) ends; the client becomes trusted for the account. */
async function signIn(api: Api, req: Request, res: Response, userId: string, devices: TrustedDevices): Promise<void> {
  if (req.sessionId) await api.sessions.close(res, req.sessionId, api.secure(req));
  req.sessionId = await api.sessions.open(res, userId, api.secure(req));
  req.userId = userId;
  await devices.remember(res, userId, api.secure(req), api.deps.clock());
}

/**
 * The end of a sign-in (the password, and the second factor when two-factor is on): the session
 * opens; a client that never signed in to the account before is a new device, and its owner is
 * told by email (sent after the answer's work, never in a projector; nothing of it is logged).
 */
export async function completeSignIn(
  api: Api,
  req: Request,
  res: Response,
  userId: string,
  devices: TrustedDevices,
  trustedAccounts: readonly string[],
): Promise<void> {
  await signIn(api, req, res, userId, devices);
  if (trustedAccounts.includes(userId)) return;
  const at = api.deps.clock();
  const device = (req.get('User-Agent') ?? 'unknown browser').slice(0, 200);
  currentUser(api.deps.db, userId)
    .then((user) => user && mailNewDeviceSignIn(api.deps.ports.email as EmailSender, { to: user.email, at, device }))
    .catch((error: unknown) =>
      req.log.error(
        { failure: { type: error instanceof Error ? error.name : typeof error } },
        'new device mail failed',
      ),
    );
}

export function accountsRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const gateway = () => api.deps.ports.paymentGateway as PaymentGateway;
  const email = () => api.deps.ports.email as EmailSender;
  const devices = new TrustedDevices(db);
  const unknownEmails = postgresUnknownEmailFailures(db);

  router.post('/auth/register', limited(api, 'register'), async (req, res) => {
    const input = parseAuth(registerSchema, req.body);
    const passwordHash = await hashPassword(input.password);
    const { userId, position } = await registerUser(
      { store, gateway: gateway() },
      {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash,
        paymentToken: input.paymentToken,
      },
      api.context(req),
    );
    await signIn(api, req, res, userId, devices);
    // The answer carries the new user's row: wait for that read model (the others follow), and
    // long enough for a machine busy with other work.
    await api.readYourWrites(position, { projections: ['users'], timeoutMs: 10_000 });
    res
      .status(201)
      .json({ message: WELCOME_MESSAGE, user: await currentUser(db, userId) } satisfies AuthSuccessResponse);
  });

  router.post('/auth/login', limited(api, 'login'), async (req, res) => {
    const input = parseAuth(loginSchema, req.body);
    const context = api.context(req);
    const trustedAccounts = await devices.accountsOf(req, context.now);
    const { userId, position, succeeded, secondFactorRequired } = await login(
      store,
      { email: input.email.toLowerCase(), password: input.password, trustedAccounts },
      context,
      unknownEmails,
    );
    // No wait for the read model on a failure: it would make a known email slower than an unknown one.
    if (!succeeded) throw invalidCredentials();
    // Suspended or banned (trust and safety): the password was right, but no session.
    const row = await findUserRow(db, userId);
    if (row && isDeactivated(row, context.now)) throw accountDeactivated();
    if (secondFactorRequired) {
      const keys = api.deps.ports.twoFactorKeys as TwoFactorKeys;
      issuePendingSignIn(res, keys, userId, api.secure(req), context.now);
      res.json({ twoFactorRequired: true } satisfies TwoFactorRequired);
      return;
    }
    await completeSignIn(api, req, res, userId, devices, trustedAccounts);
    await api.readYourWrites(position);
    res.json({ message: 'Logged in successfully', user: await currentUser(db, userId) } satisfies AuthSuccessResponse);
  });

  router.get('/auth/logout', async (req, res) => {
    // A GET navigation (SPEC §2), so a link or image on another site could fire it: such a
    // cross-site request leaves the session open.
    if (req.get('Sec-Fetch-Site') !== 'cross-site') await api.sessions.close(res, req.sessionId, api.secure(req));
    res.redirect(302, '/');
  });

  // Where the client sends the browser after a 401.
  router.get('/login', (_req, res) => res.redirect(302, '/login'));

  router.get('/auth/user', async (req, res) => {
    const user = await requestUser(db, req);
    if (!user) throw refuse.unauthorized();
    res.json(user);
  });

  router.post('/auth/reset-password-request', limited(api, 'resetRequest'), async (req, res) => {
    const input = parseAuth(resetRequestSchema, req.body);
    // Answered before the account is even looked up: the answer and its timing cannot tell
    // whether the account exists (OWASP). The work goes on after it.
    res.json({ message: RESET_REQUEST_MESSAGE } satisfies MessageResponse);
    // The reset form looks the token up in the users read model: the mail goes once it can.
    const deps = { store, email: email(), readYourWrites: api.readYourWrites };
    requestPasswordReset(
      deps,
      { email: input.email.toLowerCase(), origin: siteOrigin(api, req) },
      api.context(req),
    ).catch((error: unknown) => {
      // Its type and code only: a database error's message or details may hold the address.
      const failure =
        error instanceof Error
          ? { type: error.name, code: (error as { code?: unknown }).code }
          : { type: typeof error };
      req.log.error({ failure }, 'password reset request failed');
    });
  });

  router.post('/auth/reset-password', async (req, res) => {
    const input = parseAuth(resetPasswordSchema, req.body);
    const passwordHash = await hashPassword(input.password);
    const findUserIdByTokenHash = (tokenHash: string) => userIdByResetTokenHash(db, tokenHash);
    const { userId, position } = await resetPassword(
      { store, findUserIdByTokenHash },
      { token: input.token, passwordHash },
      api.context(req),
    );
    await api.sessions.closeAllFor(userId, req.userId === userId ? req.sessionId : null);
    await api.readYourWrites(position);
    res.json({ message: PASSWORD_RESET_MESSAGE } satisfies MessageResponse);
  });

  return router;
}
