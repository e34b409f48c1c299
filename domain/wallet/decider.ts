import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { WalletEvent } from './events';

export interface MovementInput {
  amountCents: number;
  reason: string;
  reference: string;
}

export type WalletCommand =
  | ({ type: 'CreditBalance'; userId: string } & MovementInput)
  | ({ type: 'SpendBalance'; userId: string } & MovementInput);

export interface WalletState {
  balanceCents: number;
  /** Every reference already applied: a reference moves money at most once. */
  references: Set<string>;
}

function checkInput(command: WalletCommand): void {
  if (!Number.isSafeInteger(command.amountCents) || command.amountCents <= 0) {
    throw refuse.validation('Amount must be a positive whole number of cents', {
      amountCents: 'Must be a positive integer',
    });
  }
  if (!command.reference) throw refuse.validation('A reference is required', { reference: 'Required' });
}

export const walletDecider: Decider<WalletCommand, WalletState, WalletEvent> = {
  initialState: { balanceCents: 0, references: new Set() },
  evolve(state, event) {
    const references = new Set(state.references).add(event.data.reference);
    const delta = event.type === 'WalletCredited' ? event.data.amountCents : -event.data.amountCents;
    return { balanceCents: state.balanceCents + delta, references };
  },
  decide(command, state) {
    checkInput(command);
    if (state.references.has(command.reference)) return []; // already applied: idempotent
    const { userId, amountCents, reason, reference } = command;
    if (command.type === 'CreditBalance') {
      return [
        {
          type: 'WalletCredited',
          data: { userId, amountCents, reason, reference, balanceCents: state.balanceCents + amountCents },
        },
      ];
    }
    if (amountCents > state.balanceCents)
      throw refuse.unprocessable('Insufficient balance', { balanceCents: state.balanceCents });
    return [
      {
        type: 'WalletDebited',
        data: { userId, amountCents, reason, reference, balanceCents: state.balanceCents - amountCents },
      },
    ];
  },
};
