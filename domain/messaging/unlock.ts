import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { DomainError, refuse } from '../shared/errors';
import { balanceMovement, flowReference } from '../shared/money-flows';
import { spendBalance } from '../wallet/balance';
import { assertCanUnlock, messageDecider } from './decider';
import { messageStream } from './events';

/** The wallet reference of an unlock: the same message is never paid twice. */
export const unlockReference = (messageId: string) => flowReference('message_unlock', messageId);

/**
 * The receiver pays a paid message from their USD balance, then it is unlocked. The payment's
 * reference is the message, so a retried or concurrent unlock pays once; the creator's 90% is
 * credited by the creator-earnings process manager on MessageUnlocked.
 */
export async function unlockMessage(store: EventStore, userId: string, messageId: string, context: CommandContext) {
  const { state } = await loadState(store, messageStream(messageId), messageDecider);
  assertCanUnlock(state, userId);
  const movement = balanceMovement('message_unlock', messageId, state.priceCents!);
  const { reference } = movement;
  try {
    await spendBalance(store, userId, movement, context);
  } catch (error) {
    if (error instanceof DomainError && error.message === 'Insufficient balance') {
      const balanceCents = Number(error.details.balanceCents ?? 0);
      throw refuse.declined(
        `Insufficient balance: this message costs $${(state.priceCents! / 100).toFixed(2)} and your balance is $${(balanceCents / 100).toFixed(2)}. Convert crypto in your wallet to add funds.`,
      );
    }
    throw error;
  }
  return handleCommand(
    store,
    messageStream(messageId),
    messageDecider,
    { type: 'UnlockMessage', messageId, userId, paymentReference: reference, at: context.now },
    context,
  );
}
