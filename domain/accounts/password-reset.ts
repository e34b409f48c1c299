import { createHash, randomBytes } from 'node:crypto';
import type { EventStore, Position } from '../event-store/port';
import type { EmailSender } from '../notifications/email';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { DomainError } from '../shared/errors';
import { accountDecider, INVALID_RESET_TOKEN } from './decider';
import { userStream } from './events';
import { userIdForEmail } from './lookup';

export const RESET_REQUEST_MESSAGE = "If an account exists with that email, we've sent you a password reset link.";
export const PASSWORD_RESET_MESSAGE = 'Your password has been reset. You can now sign in.';

export const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A reset link for an existing, active account: a random token is emailed, only its hash is
 * stored (PasswordResetRequested), it expires in an hour. Unknown emails get no mail and the
 * caller answers the same either way. `readYourWrites` (optional) is awaited before mailing, so
 * the link works as soon as it arrives.
 */
export async function requestPasswordReset(
  deps: { store: EventStore; email: EmailSender; readYourWrites?: (position: Position | null) => Promise<unknown> },
  input: { email: string; origin: string },
  context: CommandContext,
): Promise<{ position: Position | null }> {
  const userId = await userIdForEmail(deps.store, input.email);
  if (!userId) return { position: null };
  const token = randomBytes(32).toString('base64url');
  const result = await handleCommand(
    deps.store,
    userStream(userId),
    accountDecider,
    { type: 'RequestPasswordReset', tokenHash: hashResetToken(token), now: context.now },
    context,
  );
  if (result.events.length === 0) return { position: null };
  await deps.readYourWrites?.(result.position);
  const link = `${input.origin}/reset-password?token=${token}`;
  await deps.email.send({
    to: input.email,
    subject: 'Reset your Lively password',
    text: `Someone asked to reset the password of your Lively account.\n\nTo choose a new password, open this link within one hour:\n${link}\n\nIf it was not you, ignore this email: your password stays the same.`,
    kind: 'password-reset',
    link,
  });
  return { position: result.position };
}

/**
 * Sets a new password with a reset token. `findUserIdByTokenHash` looks the hash up (the
 * users read model); the decider then checks it against the account itself, so a token works
 * once and only within its hour.
 */
export async function resetPassword(
  deps: { store: EventStore; findUserIdByTokenHash: (tokenHash: string) => Promise<string | null> },
  input: { token: string; passwordHash: string },
  context: CommandContext,
): Promise<{ userId: string; position: Position | null }> {
  const tokenHash = hashResetToken(input.token);
  const userId = await deps.findUserIdByTokenHash(tokenHash);
  if (!userId) throw new DomainError('validation', INVALID_RESET_TOKEN, { fields: { token: INVALID_RESET_TOKEN } });
  const result = await handleCommand(
    deps.store,
    userStream(userId),
    accountDecider,
    { type: 'ResetPassword', tokenHash, passwordHash: input.passwordHash, now: context.now },
    context,
  );
  return { userId, position: result.position };
}
