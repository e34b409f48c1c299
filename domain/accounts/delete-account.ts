import { WRONG_PASSWORD } from '../contracts/account';
import { TWO_FACTOR_CODE_REQUIRED } from '../contracts/two-factor';
import type { EventStore } from '../event-store/port';
import { forgetPerson } from '../privacy/private-event-store';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { accountDecider } from './decider';
import { releaseEmail } from './email-claim';
import { userStream } from './events';
import { verifyPassword } from './passwords';
import { confirmWithSecondFactor } from './two-factor';
import type { TwoFactorKeys } from './two-factor-keys';

/**
 * Before a grave step (deleting the account): the password, and where two-factor is on, a code
 * from the app or a recovery code (used up). Refuses with the field to fix.
 */
export async function confirmOwner(
  deps: { store: EventStore; keys: TwoFactorKeys },
  input: { userId: string; password: string; code?: string },
  context: CommandContext,
): Promise<void> {
  const { state } = await loadState(deps.store, userStream(input.userId), accountDecider);
  if (!state.exists || state.deleted) throw refuse.notFound('User not found');
  if (!(await verifyPassword(state.passwordHash, input.password)))
    throw refuse.validation(WRONG_PASSWORD, { password: WRONG_PASSWORD });
  if (!state.twoFactorEnabled) return;
  if (!input.code) throw refuse.validation(TWO_FACTOR_CODE_REQUIRED, { code: TWO_FACTOR_CODE_REQUIRED });
  await confirmWithSecondFactor(deps, { userId: input.userId, code: input.code }, context);
}

/**
 * The member deletes their own account (issue 23), once `confirmOwner` passed and what would
 * still run or charge has ended (the caller's part): the email is free again, AccountDeleted
 * tells every read model to forget them, and their personal-data key is deleted, so the log
 * can no longer name them. Safe to repeat: a retry after a crash half way finishes the rest.
 */
export async function deleteAccount(store: EventStore, input: { userId: string }, context: CommandContext) {
  const { state } = await loadState(store, userStream(input.userId), accountDecider);
  if (!state.exists) throw refuse.notFound('User not found');
  if (!state.deleted && state.email) await releaseEmail(store, state.email, input.userId, 'account deleted', context);
  const result = await handleCommand(
    store,
    userStream(input.userId),
    accountDecider,
    { type: 'DeleteAccount', now: context.now },
    context,
  );
  await forgetPerson(store, input.userId);
  return result;
}
