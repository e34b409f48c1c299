import { generate } from 'otplib';
import { enableTwoFactor, startTwoFactorSetup, type TwoFactorKeys } from '../../domain/accounts/commands';
import type { Stack } from '../stack';

/** Two-factor for tests: the secret of an otpauth URL, its code at a time, and turning it on through the commands. */

export const secretOf = (otpauthUrl: string) => new URL(otpauthUrl).searchParams.get('secret')!;

/** The 6-digit code of `secret` at `at` (default now). */
export const totpCode = (secret: string, at: Date = new Date()) =>
  generate({ secret, epoch: Math.floor(at.getTime() / 1000) });

/** Turns two-factor on for `userId` as the Security page does (setup, then a code); its secret and recovery codes. */
export async function turnOnTwoFactor(
  stack: Pick<Stack, 'store' | 'deps'>,
  userId: string,
  email = 'test@example.com',
) {
  const deps = { store: stack.store, keys: stack.deps.ports.twoFactorKeys as TwoFactorKeys };
  const context = { actorId: userId, now: new Date() };
  const { otpauthUrl } = await startTwoFactorSetup(deps, { userId, accountName: email }, context);
  const secret = secretOf(otpauthUrl);
  const { recoveryCodes } = await enableTwoFactor(deps, { userId, code: await totpCode(secret) }, context);
  return { secret, recoveryCodes };
}
