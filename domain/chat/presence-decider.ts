import type { Decider } from '../shared/command-handler';
import type { PresenceEvent } from './events';

/** A member's chat presence (stream `chatPresence-<userId>`), recorded by the realtime service. */
export interface PresenceState {
  online: boolean;
}

export type PresenceCommand = { type: 'GoOnline' | 'GoOffline'; userId: string; now: Date };

export const presenceDecider: Decider<PresenceCommand, PresenceState, PresenceEvent> = {
  initialState: { online: false },
  evolve: (_state, event) => ({ online: event.type === 'ChatMemberWentOnline' }),
  // A change is recorded only when it changes something (a retry records nothing twice).
  decide(command, state) {
    const data = { userId: command.userId, at: command.now.toISOString() };
    if (command.type === 'GoOnline') return state.online ? [] : [{ type: 'ChatMemberWentOnline', data }];
    return state.online ? [{ type: 'ChatMemberWentOffline', data }] : [];
  },
};
