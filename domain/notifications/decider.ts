import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { NotificationsEvent } from './events';

export interface NotificationsState {
  /** The newest "read all" mark, so repeating it at the same moment writes nothing. */
  readAllUpTo: string | null;
}

export type NotificationsCommand =
  | { type: 'MarkNotificationsRead'; userId: string; ids: string[]; at: Date }
  | { type: 'MarkAllNotificationsRead'; userId: string; at: Date };

/** One user's read marks (stream `notifications-<userId>`). */
export const notificationsDecider: Decider<NotificationsCommand, NotificationsState, NotificationsEvent> = {
  initialState: { readAllUpTo: null },
  evolve(state, event) {
    const { upTo } = event.data;
    return upTo && (!state.readAllUpTo || upTo > state.readAllUpTo) ? { readAllUpTo: upTo } : state;
  },
  decide(command, state) {
    const at = command.at.toISOString();
    if (command.type === 'MarkNotificationsRead') {
      const ids = [...new Set(command.ids)];
      if (ids.length === 0) throw refuse.validation('Name at least one notification', { ids: 'Required' });
      return [{ type: 'NotificationsRead', data: { userId: command.userId, ids, upTo: null, at } }];
    }
    if (state.readAllUpTo && state.readAllUpTo >= at) return [];
    return [{ type: 'NotificationsRead', data: { userId: command.userId, ids: null, upTo: at, at } }];
  },
};
