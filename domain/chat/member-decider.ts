import { refuse } from '../shared/errors';
import type { Decider } from '../shared/command-handler';
import type { MemberEvent, PreferencesData, ProfileData } from './events';

/** One chat member (stream `chatMember-<userId>`): profile, matching preferences, blocks. */
export interface MemberState {
  profile: ProfileData | null;
  preferences: PreferencesData | null;
  blocked: Set<string>;
}

export type MemberCommand =
  | { type: 'SaveProfile'; userId: string; profile: ProfileData; now: Date }
  | { type: 'SavePreferences'; userId: string; preferences: PreferencesData; now: Date }
  | { type: 'BlockUser'; userId: string; blockedId: string; reason: string | null; now: Date };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const memberDecider: Decider<MemberCommand, MemberState, MemberEvent> = {
  initialState: { profile: null, preferences: null, blocked: new Set() },
  evolve(state, event) {
    switch (event.type) {
      case 'ChatProfileSaved': {
        const { userId: _u, savedAt: _s, ...profile } = event.data;
        return { ...state, profile };
      }
      case 'ChatPreferencesSaved': {
        const { userId: _u, savedAt: _s, ...preferences } = event.data;
        return { ...state, preferences };
      }
      case 'ChatUserBlocked':
        return { ...state, blocked: new Set(state.blocked).add(event.data.blockedId) };
    }
  },
  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'SaveProfile':
        // Saving the same profile again records nothing new.
        if (same(state.profile, command.profile)) return [];
        return [{ type: 'ChatProfileSaved', data: { userId: command.userId, ...command.profile, savedAt: at } }];
      case 'SavePreferences':
        if (same(state.preferences, command.preferences)) return [];
        return [
          { type: 'ChatPreferencesSaved', data: { userId: command.userId, ...command.preferences, savedAt: at } },
        ];
      case 'BlockUser':
        if (command.blockedId === command.userId)
          throw refuse.validation('You cannot block yourself', { userId: 'You cannot block yourself' });
        if (state.blocked.has(command.blockedId)) return [];
        return [
          {
            type: 'ChatUserBlocked',
            data: { blockerId: command.userId, blockedId: command.blockedId, reason: command.reason, blockedAt: at },
          },
        ];
    }
  },
};
