import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { TwoFactorKeys } from '../../domain/accounts/commands';

/**
 * A sign-in waiting for its second factor: after the right password of an account with
 * two-factor on, the client holds `lively.2fa`, an httpOnly cookie signed with the two-factor
 * keys, bound to the user and expiring in 5 minutes. Stateless: the wrong codes it may try are
 * counted by rate limit under its random id.
 */
export const PENDING_SIGN_IN_COOKIE = 'lively.2fa';
export const PENDING_SIGN_IN_MS = 5 * 60_000;

export interface PendingSignIn {
  id: string;
  userId: string;
}

const cookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax' as const, secure, path: '/api/auth' });

export function issuePendingSignIn(res: Response, keys: TwoFactorKeys, userId: string, secure: boolean, now: Date) {
  const payload = `${randomBytes(16).toString('base64url')}.${userId}.${now.getTime() + PENDING_SIGN_IN_MS}`;
  res.cookie(PENDING_SIGN_IN_COOKIE, `${payload}.${keys.sign(payload)}`, {
    ...cookieOptions(secure),
    maxAge: PENDING_SIGN_IN_MS,
  });
}

/** The client's pending sign-in, if its cookie is genuine and not expired. */
export function readPendingSignIn(req: Request, keys: TwoFactorKeys, now: Date): PendingSignIn | null {
  const value: unknown = req.cookies?.[PENDING_SIGN_IN_COOKIE];
  if (typeof value !== 'string' || value.length > 300) return null;
  const parts = value.split('.');
  if (parts.length !== 4) return null;
  const [id, userId, expires, signature] = parts;
  if (!keys.verifySignature(`${id}.${userId}.${expires}`, signature)) return null;
  return Number(expires) > now.getTime() ? { id, userId } : null;
}

export const endPendingSignIn = (res: Response, secure: boolean) =>
  res.clearCookie(PENDING_SIGN_IN_COOKIE, cookieOptions(secure));
