import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { notificationsDecider } from './decider';
import { notificationsStream } from './events';

/**
 * The notifications context's way in for api/: marking notifications read. (The email port,
 * `email.ts`, is taken by the contexts that send mail.)
 */

/** Marks the listed notifications read, or with no list every one that arrived up to now. */
export function markNotificationsRead(
  store: EventStore,
  input: { userId: string; ids?: string[] },
  context: CommandContext,
) {
  const command = input.ids
    ? { type: 'MarkNotificationsRead' as const, userId: input.userId, ids: input.ids, at: context.now }
    : { type: 'MarkAllNotificationsRead' as const, userId: input.userId, at: context.now };
  return handleCommand(store, notificationsStream(input.userId), notificationsDecider, command, context);
}
