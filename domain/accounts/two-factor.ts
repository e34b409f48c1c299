import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { RECOVERY_CODE_COUNT, type TwoFactorStatus } from '../contracts/two-factor';
import type { EventStore, Position } from '../event-store/port';
import type { EmailSender } from '../notifications/email';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { userStream } from './events';
import type { TwoFactorKeys } from './two-factor-keys';
import { recoveryCodesLeft, twoFactorDecider, type Proof, type TwoFactorState } from './two-factor-decider';

/**
 * The two-factor use cases: setup, enable, disable, the sign-in's second step, and the status.
 * Codes are checked here against the unsealed secret (the decider is pure and sees only which
 * time step or recovery code matched); secrets and codes never reach a log line or an event
 * in plain text.
 */

export interface TwoFactorDeps {
  store: EventStore;
  keys: TwoFactorKeys;
  /** A new base32 TOTP secret; the demo seed passes its documented one. */
  newSecret?: () => string;
}

const ISSUER = 'Lively';
/** One 30-second step either side: a phone's clock a little off still works. */
const TOLERANCE_SECONDS = 30;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const loadTwoFactor = (store: EventStore, userId: string) => loadState(store, userStream(userId), twoFactorDecider);

/** The time step `code` shows for `secret` at `now` (± one step), or null. */
async function totpStep(secret: string, code: string, now: Date): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/** `xxxxx-xxxxx`, lowercase letters and digits without look-alikes (50 bits). */
function newRecoveryCode(): string {
  const pick = () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  const half = () => Array.from({ length: 5 }, pick).join('');
  return `${half()}-${half()}`;
}

const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** What `code` proves against the enabled secret: a TOTP time step, an unused recovery code, or nothing. */
async function proofOf(keys: TwoFactorKeys, state: TwoFactorState, code: string, now: Date): Promise<Proof> {
  const step = await totpStep(keys.unseal(state.secret!), code, now);
  if (step !== null) return { kind: 'totp', step };
  const hash = keys.recoveryCodeHash(normalizeRecoveryCode(code));
  const index = state.recoveryCodeHashes.findIndex(
    (stored, i) => stored === hash && !state.usedRecoveryCodes.includes(i),
  );
  return index >= 0 ? { kind: 'recovery', index } : null;
}

/** A new secret, pending until a code confirms it (a pending one is replaced); its otpauth URL for the QR code. */
export async function startTwoFactorSetup(
  deps: TwoFactorDeps,
  input: { userId: string; accountName: string },
  context: CommandContext,
): Promise<{ otpauthUrl: string; position: Position | null }> {
  const secret = (deps.newSecret ?? (() => generateSecret()))();
  const result = await handleCommand(
    deps.store,
    userStream(input.userId),
    twoFactorDecider,
    { type: 'StartTwoFactorSetup', sealedSecret: deps.keys.seal(secret), now: context.now },
    context,
  );
  return { otpauthUrl: generateURI({ issuer: ISSUER, label: input.accountName, secret }), position: result.position };
}

/** Confirms the pending secret with a code from the app: two-factor is on; the ten recovery codes are answered once. */
export async function enableTwoFactor(
  deps: TwoFactorDeps,
  input: { userId: string; code: string },
  context: CommandContext,
): Promise<{ recoveryCodes: string[]; position: Position | null }> {
  const { state } = await loadTwoFactor(deps.store, input.userId);
  const sealedSecret = state.pendingSecret ?? '';
  const step = state.pendingSecret ? await totpStep(deps.keys.unseal(sealedSecret), input.code, context.now) : null;
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const recoveryCodeHashes = recoveryCodes.map((code) => deps.keys.recoveryCodeHash(normalizeRecoveryCode(code)));
  const result = await handleCommand(
    deps.store,
    userStream(input.userId),
    twoFactorDecider,
    { type: 'EnableTwoFactor', sealedSecret, step, recoveryCodeHashes, now: context.now },
    context,
  );
  return { recoveryCodes, position: result.position };
}

/** Turns two-factor off with a code from the app or a recovery code. */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  input: { userId: string; code: string },
  context: CommandContext,
): Promise<{ position: Position | null }> {
  return { position: (await useSecondFactor(deps, input, 'DisableTwoFactor', context)).position };
}

/** The sign-in's second step: the code is used up and the sign-in recorded (LoginSucceeded). */
export async function completeTwoFactorSignIn(
  deps: TwoFactorDeps,
  input: { userId: string; code: string },
  context: CommandContext,
): Promise<{ position: Position | null }> {
  return { position: (await useSecondFactor(deps, input, 'CompleteSignIn', context)).position };
}

/** A code from the app or a recovery code confirms a grave step (deleting the account); it is used up. */
export async function confirmWithSecondFactor(
  deps: Pick<TwoFactorDeps, 'store' | 'keys'>,
  input: { userId: string; code: string },
  context: CommandContext,
): Promise<void> {
  await useSecondFactor(deps, input, 'ConfirmWithCode', context);
}

async function useSecondFactor(
  deps: Pick<TwoFactorDeps, 'store' | 'keys'>,
  input: { userId: string; code: string },
  type: 'DisableTwoFactor' | 'CompleteSignIn' | 'ConfirmWithCode',
  context: CommandContext,
) {
  const { state } = await loadTwoFactor(deps.store, input.userId);
  const proof = state.enabled ? await proofOf(deps.keys, state, input.code, context.now) : null;
  return handleCommand(
    deps.store,
    userStream(input.userId),
    twoFactorDecider,
    { type, sealedSecret: state.secret ?? '', proof, now: context.now },
    context,
  );
}

export async function twoFactorStatus(store: EventStore, userId: string): Promise<TwoFactorStatus> {
  const { state } = await loadTwoFactor(store, userId);
  return { enabled: state.enabled, recoveryCodesLeft: recoveryCodesLeft(state) };
}

/** Tells the account's owner about a sign-in from a device it was never used on (no link, nothing to click). */
export async function mailNewDeviceSignIn(
  email: EmailSender,
  input: { to: string; at: Date; device: string },
): Promise<void> {
  await email.send({
    to: input.to,
    kind: 'new-device-sign-in',
    subject: 'New sign-in to your Lively account',
    text: `Your Lively account was signed in to from a new device on ${input.at.toUTCString()}.\n\nDevice: ${input.device}\n\nIf this was you, there is nothing to do. If not, reset your password now and turn on two-factor authentication on the Security page.`,
  });
}
