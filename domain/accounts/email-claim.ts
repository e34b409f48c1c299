import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext, type Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { emailStream, type EmailClaimEvent } from './events';

/**
 * Who owns an email address, on `email-<hash>`: EmailClaimed gives it to a user, EmailReleased
 * (a sign-up that was given back) frees it again. Every claim is appended with the revision
 * that was read, so two claims of one free address can never both succeed.
 */

export const EMAIL_TAKEN = 'An account with this email already exists';

export interface EmailClaimState {
  owner: string | null;
}

export type EmailClaimCommand =
  | { type: 'ClaimEmail'; userId: string; email: string; now: Date }
  | { type: 'ReleaseEmail'; userId: string; email: string; reason: string; now: Date };

export const emailClaimDecider: Decider<EmailClaimCommand, EmailClaimState, EmailClaimEvent> = {
  initialState: { owner: null },
  evolve(state, event) {
    if (event.type === 'EmailClaimed') return { owner: event.data.userId };
    // Only the owner's release frees it (a stray release of an older claim changes nothing).
    return state.owner === event.data.userId ? { owner: null } : state;
  },
  decide(command, state) {
    const { userId, email } = command;
    const at = command.now.toISOString();
    if (command.type === 'ClaimEmail') {
      if (state.owner === userId) return [];
      if (state.owner !== null) throw refuse.conflict(EMAIL_TAKEN);
      return [{ type: 'EmailClaimed', data: { userId, email, at } }];
    }
    // Releasing is for the claim's own sign-up only: never anyone else's address.
    if (state.owner !== userId) return [];
    return [{ type: 'EmailReleased', data: { userId, email, reason: command.reason, at } }];
  },
};

/** Claims the address for the user (409 when someone else holds it); claiming it again writes nothing. */
export function claimEmail(store: EventStore, email: string, userId: string, context: CommandContext) {
  return handleCommand(
    store,
    emailStream(email),
    emailClaimDecider,
    { type: 'ClaimEmail', userId, email, now: context.now },
    context,
  );
}

/** Frees the address if this user holds it, so it can be registered again. */
export function releaseEmail(
  store: EventStore,
  email: string,
  userId: string,
  reason: string,
  context: CommandContext,
) {
  return handleCommand(
    store,
    emailStream(email),
    emailClaimDecider,
    { type: 'ReleaseEmail', userId, email, reason, now: context.now },
    context,
  );
}
