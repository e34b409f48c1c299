import type { ChatUserBlocked } from '../chat/events';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { BlockEvent } from './events';

/** A member's block list (`blockList-<userId>`): whom they blocked, once each; never themselves. */
export interface BlockListState {
  blocked: Set<string>;
}

export type BlockCommand =
  | { type: 'BlockUser'; userId: string; blockedId: string; reason: string | null; now: Date }
  | { type: 'UnblockUser'; userId: string; blockedId: string; now: Date };

/** The chat's blocks from before this context (`ChatUserBlocked` on the member's chat stream). */
export type LegacyBlockEvent = ChatUserBlocked;

export const blockListDecider: Decider<BlockCommand, BlockListState, BlockEvent | LegacyBlockEvent> = {
  initialState: { blocked: new Set() },
  evolve(state, event) {
    const blocked = new Set(state.blocked);
    if (event.type === 'UserUnblocked') blocked.delete(event.data.blockedId);
    else blocked.add(event.data.blockedId);
    return { blocked };
  },
  decide(command, state) {
    const { userId, blockedId } = command;
    const at = command.now.toISOString();
    if (command.type === 'UnblockUser') {
      if (!state.blocked.has(blockedId)) throw refuse.notFound('This user is not blocked');
      return [{ type: 'UserUnblocked', data: { blockerId: userId, blockedId, unblockedAt: at } }];
    }
    if (blockedId === userId)
      throw refuse.validation('You cannot block yourself', { userId: 'You cannot block yourself' });
    if (state.blocked.has(blockedId)) return [];
    return [{ type: 'UserBlocked', data: { blockerId: userId, blockedId, reason: command.reason, blockedAt: at } }];
  },
};
