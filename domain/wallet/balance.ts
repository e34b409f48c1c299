import type { EventStore, Position } from '../event-store/port';
import { WrongExpectedRevisionError } from '../event-store/port';
import { handleCommand, loadState, type CommandContext, type HandleOptions } from '../shared/command-handler';
import { walletDecider, type MovementInput, type WalletCommand } from './decider';
import { walletStream } from './events';

export interface MovementResult {
  /** False when the reference had already been applied (nothing was written). */
  applied: boolean;
  balanceCents: number;
  position: Position | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a wallet command. Many writers may race on one member's stream (parallel unlocks,
 * a conversion credit): each conflict re-reads and decides again, with a little jitter so
 * the racers spread out instead of colliding in lock step.
 */
async function run(
  store: EventStore,
  command: WalletCommand,
  context: CommandContext,
  options: HandleOptions = {},
): Promise<MovementResult> {
  for (let round = 0; ; round++) {
    try {
      const result = await handleCommand(store, walletStream(command.userId), walletDecider, command, context, {
        maxAttempts: 3,
        ...options,
      });
      return { applied: result.events.length > 0, balanceCents: result.state.balanceCents, position: result.position };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || round >= 40) throw error;
      await sleep(Math.random() * Math.min(50, 5 * (round + 1)));
    }
  }
}

/** Adds money to a member's USD balance; the same reference never credits twice. */
export function creditBalance(
  store: EventStore,
  userId: string,
  input: MovementInput,
  context: CommandContext,
  options?: HandleOptions,
) {
  return run(store, { type: 'CreditBalance', userId, ...input }, context, options);
}

/**
 * Takes money from a member's USD balance; the same reference never spends twice. Spending
 * more than the balance is refused: `refuse.unprocessable('Insufficient balance', {balanceCents})`.
 */
export function spendBalance(
  store: EventStore,
  userId: string,
  input: MovementInput,
  context: CommandContext,
  options?: HandleOptions,
) {
  return run(store, { type: 'SpendBalance', userId, ...input }, context, options);
}

/** The balance straight from the stream (the write side's truth). */
export async function currentBalanceCents(store: EventStore, userId: string): Promise<number> {
  const { state } = await loadState(store, walletStream(userId), walletDecider);
  return state.balanceCents;
}
