import { INVALID_TWO_FACTOR_CODE } from '../contracts/two-factor';
import type { Decider } from '../shared/command-handler';
import { DomainError, refuse } from '../shared/errors';
import type { AccountEvent } from './events';

/**
 * Two-factor authentication of the account on `user-<userId>` (the same stream as the account
 * decider, which only needs to know whether it is on). Pure: the command layer unseals the
 * secret and finds which TOTP time step or recovery code a code matches (`proof`); the decider
 * refuses a step already used (a code cannot be replayed within its window) and a recovery code
 * used up. Every command names the sealed secret its proof was checked against, so a secret
 * replaced meanwhile is never confirmed by a code of the old one.
 */

export const CODE_ALREADY_USED = 'This code was already used. Wait for the next one.';
export const TWO_FACTOR_ALREADY_ON = 'Two-factor authentication is already on';
export const TWO_FACTOR_OFF = 'Two-factor authentication is off';
export const SETUP_FIRST = 'Start the two-factor setup first';

export interface TwoFactorState {
  exists: boolean;
  userId: string | null;
  enabled: boolean;
  /** The sealed secret of a setup not yet confirmed. */
  pendingSecret: string | null;
  /** The sealed secret in use while enabled. */
  secret: string | null;
  recoveryCodeHashes: string[];
  usedRecoveryCodes: number[];
  /** The newest TOTP time step accepted: codes of it or earlier are refused. */
  lastStep: number | null;
}

/** What a code proved: a TOTP time step of `sealedSecret`, a recovery code's index, or nothing. */
export type Proof = { kind: 'totp'; step: number } | { kind: 'recovery'; index: number } | null;

export type TwoFactorCommand =
  | { type: 'StartTwoFactorSetup'; sealedSecret: string; now: Date }
  | { type: 'EnableTwoFactor'; sealedSecret: string; step: number | null; recoveryCodeHashes: string[]; now: Date }
  | { type: 'DisableTwoFactor'; sealedSecret: string; proof: Proof; now: Date }
  | { type: 'CompleteSignIn'; sealedSecret: string; proof: Proof; now: Date }
  /** A code confirms a grave step (deleting the account): it is used up, nothing else changes. */
  | { type: 'ConfirmWithCode'; sealedSecret: string; proof: Proof; now: Date };

export const initialTwoFactorState: TwoFactorState = {
  exists: false,
  userId: null,
  enabled: false,
  pendingSecret: null,
  secret: null,
  recoveryCodeHashes: [],
  usedRecoveryCodes: [],
  lastStep: null,
};

export const invalidCode = () =>
  new DomainError('validation', INVALID_TWO_FACTOR_CODE, { fields: { code: INVALID_TWO_FACTOR_CODE } });

const changedMeanwhile = () => refuse.conflict('Two-factor authentication changed meanwhile. Please try again.');

export const recoveryCodesLeft = (state: TwoFactorState) =>
  state.enabled ? state.recoveryCodeHashes.length - state.usedRecoveryCodes.length : 0;

/** The events that use `proof` up; refused when it proves nothing or was used before. */
function useProof(state: TwoFactorState, proof: Proof, userId: string, at: string): AccountEvent[] {
  if (proof === null) throw invalidCode();
  if (proof.kind === 'totp') {
    if (state.lastStep !== null && proof.step <= state.lastStep)
      throw new DomainError('validation', CODE_ALREADY_USED, { fields: { code: CODE_ALREADY_USED } });
    return [{ type: 'TwoFactorCodeUsed', data: { userId, step: proof.step, at } }];
  }
  if (state.usedRecoveryCodes.includes(proof.index) || proof.index >= state.recoveryCodeHashes.length)
    throw invalidCode();
  return [{ type: 'RecoveryCodeUsed', data: { userId, index: proof.index, at } }];
}

export const twoFactorDecider: Decider<TwoFactorCommand, TwoFactorState, AccountEvent> = {
  initialState: initialTwoFactorState,

  evolve(state, event) {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, exists: true, userId: event.data.userId };
      case 'TwoFactorSetupStarted':
        return { ...state, pendingSecret: event.data.sealedSecret };
      case 'TwoFactorEnabled':
        return {
          ...state,
          enabled: true,
          secret: state.pendingSecret,
          pendingSecret: null,
          recoveryCodeHashes: event.data.recoveryCodeHashes,
          usedRecoveryCodes: [],
          lastStep: Math.max(state.lastStep ?? 0, event.data.step),
        };
      case 'TwoFactorDisabled':
        return { ...state, enabled: false, secret: null, recoveryCodeHashes: [], usedRecoveryCodes: [] };
      case 'TwoFactorCodeUsed':
        return { ...state, lastStep: Math.max(state.lastStep ?? 0, event.data.step) };
      case 'RecoveryCodeUsed':
        return { ...state, usedRecoveryCodes: [...state.usedRecoveryCodes, event.data.index] };
      default:
        return state;
    }
  },

  decide(command, state): AccountEvent[] {
    if (!state.exists) throw refuse.notFound('User not found');
    const userId = state.userId!;
    const at = command.now.toISOString();
    switch (command.type) {
      case 'StartTwoFactorSetup':
        if (state.enabled) throw refuse.conflict(TWO_FACTOR_ALREADY_ON);
        return [{ type: 'TwoFactorSetupStarted', data: { userId, sealedSecret: command.sealedSecret, at } }];
      case 'EnableTwoFactor': {
        if (state.enabled) throw refuse.conflict(TWO_FACTOR_ALREADY_ON);
        if (state.pendingSecret === null) throw refuse.conflict(SETUP_FIRST);
        if (state.pendingSecret !== command.sealedSecret) throw changedMeanwhile();
        if (command.step === null) throw invalidCode();
        const { recoveryCodeHashes, step } = command;
        return [{ type: 'TwoFactorEnabled', data: { userId, recoveryCodeHashes, step, at } }];
      }
      case 'DisableTwoFactor':
      case 'ConfirmWithCode':
      case 'CompleteSignIn': {
        if (!state.enabled) throw refuse.conflict(TWO_FACTOR_OFF);
        if (state.secret !== command.sealedSecret) throw changedMeanwhile();
        const used = useProof(state, command.proof, userId, at);
        if (command.type === 'DisableTwoFactor') return [...used, { type: 'TwoFactorDisabled', data: { userId, at } }];
        if (command.type === 'ConfirmWithCode') return used;
        return [...used, { type: 'LoginSucceeded', data: { userId, at } }];
      }
    }
  },
};
