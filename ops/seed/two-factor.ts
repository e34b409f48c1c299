import { generate } from 'otplib';
import {
  enableTwoFactor,
  startTwoFactorSetup,
  twoFactorStatus,
  type TwoFactorKeys,
} from '../../domain/accounts/commands';
import type { Stack } from '../stack';

/**
 * The demo creators' two-factor secret (base32), documented in the README so anyone can add it
 * to an authenticator app and sign in as a demo creator: creators need two-factor on to add a
 * payment account and withdraw. Never use a shared secret outside a demo.
 */
export const DEMO_TWO_FACTOR_SECRET = 'LIVELYDEMOSECRETLIVELYDEMOSECRET';

/** The demo secret's current code (or at `at`). */
export const demoTwoFactorCode = (at: Date = new Date()) =>
  generate({ secret: DEMO_TWO_FACTOR_SECRET, epoch: Math.floor(at.getTime() / 1000) });

/** Turns two-factor on with the demo secret through the commands, as the Security page does; kept when already on. */
export async function turnOnDemoTwoFactor(stack: Pick<Stack, 'store' | 'deps'>, userId: string, email: string) {
  const deps = {
    store: stack.store,
    keys: stack.deps.ports.twoFactorKeys as TwoFactorKeys,
    newSecret: () => DEMO_TWO_FACTOR_SECRET,
  };
  if ((await twoFactorStatus(stack.store, userId)).enabled) return;
  const context = { actorId: userId, clientId: 'ops-seed', now: stack.deps.clock() };
  await startTwoFactorSetup(deps, { userId, accountName: email }, context);
  // A code of the step before: the current one stays free for signing in right away.
  const code = await demoTwoFactorCode(new Date(context.now.getTime() - 30_000));
  await enableTwoFactor(deps, { userId, code }, context);
}
