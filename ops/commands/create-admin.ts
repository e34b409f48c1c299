import { randomBytes, randomInt } from 'node:crypto';
import { z } from 'zod';
import { hashPassword } from '../../domain/accounts/passwords';
import { ensureStaffAccount } from '../../domain/payouts/staff-role';
import type { OpsCommand } from './command';

/** A one-time password that meets the sign-up rules (lower, upper, digit, 8+ characters). */
export function oneTimePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const chars = Array.from(randomBytes(18), (byte) => alphabet[byte % alphabet.length]);
  chars[randomInt(0, 6)] = 'ABCDEFGHJKLMNPQRSTUVWXYZ'[randomInt(0, 24)];
  chars[randomInt(6, 12)] = 'abcdefghijkmnopqrstuvwxyz'[randomInt(0, 25)];
  chars[randomInt(12, 18)] = '23456789'[randomInt(0, 8)];
  return chars.join('');
}

export const createAdminCommand: OpsCommand = {
  name: 'create-admin',
  args: '<email>',
  summary: 'Make an account finance staff (role admin), creating it with a one-time password if needed',
  help: `Gives the account with this email the admin role (finance staff: the finance console at
/admin and the /api/admin routes). When no account has this email, one is created (no card, no
membership) and its password is printed once: sign in with it and change it through
"Forgot password". Running it again for the same email changes nothing.
Example: npm run ops -- create-admin finance@example.com`,
  async run(args, context) {
    const email = z.email().safeParse(args[0]?.trim().toLowerCase());
    if (!email.success) {
      context.out('Usage: npm run ops -- create-admin <email>  (a valid email address is required)');
      return 2;
    }
    const { store } = await context.connect();
    let password: string | null = null;
    const result = await ensureStaffAccount(
      store,
      { email: email.data, passwordHash: () => hashPassword((password = oneTimePassword())) },
      { actorId: null, requestId: null, clientId: 'ops-cli', now: new Date() },
    );
    if (result.created) {
      context.out(`Created finance staff account ${email.data} (user ${result.userId}).`);
      context.out(`One-time password: ${password}`);
      context.out('Sign in with it, then change it through "Forgot password". It is not shown again.');
    } else {
      context.out(`${email.data} (user ${result.userId}) is finance staff (role admin).`);
    }
    return 0;
  },
};
