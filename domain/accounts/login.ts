import type { EventStore, Position } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { accountDecider, invalidCredentials, isLocked, lockedError } from './decider';
import { userStream } from './events';
import { userIdForEmail } from './lookup';
import { verifyAgainstDummy, verifyPassword } from './passwords';

/**
 * Sign-in: the password is checked against the stored argon2id hash here, the decider records
 * the attempt (LoginSucceeded, or LoginFailed and after 5 an AccountLocked). An unknown email
 * and a wrong password get the same answer. A recorded failure resolves with `succeeded: false`
 * (and its position) so the caller can let the read model catch up before refusing.
 */
export async function login(
  store: EventStore,
  input: { email: string; password: string },
  context: CommandContext,
): Promise<{ userId: string; position: Position | null; succeeded: boolean }> {
  const userId = await userIdForEmail(store, input.email);
  if (!userId) {
    await verifyAgainstDummy(input.password);
    throw invalidCredentials();
  }
  const stream = userStream(userId);
  const { state } = await loadState(store, stream, accountDecider);
  // A locked account is refused before spending a hash check on it.
  if (isLocked(state, context.now)) throw lockedError();
  const passwordMatched = await verifyPassword(state.passwordHash, input.password);
  const result = await handleCommand(store, stream, accountDecider, { type: 'RecordLoginAttempt', passwordMatched, now: context.now }, context);
  return { userId, position: result.position, succeeded: result.events.some((event) => event.type === 'LoginSucceeded') };
}
