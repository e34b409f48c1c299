import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { postDecider } from './decider';
import { postStream } from './events';

/**
 * The posts context's way in: publishing (`publish.ts`), likes and comments. api/ and
 * realtime/ import this file and events.ts only.
 */
export { publishPost } from './publish';

/** Likes a post, or takes the like back if the member had liked it; the state says which. */
export function likePost(store: EventStore, input: { postId: string; userId: string }, context: CommandContext) {
  return handleCommand(
    store,
    postStream(input.postId),
    postDecider,
    { type: 'ToggleLike', ...input, at: context.now },
    context,
  );
}

export function commentOnPost(
  store: EventStore,
  input: { postId: string; commentId: string; userId: string; content: string },
  context: CommandContext,
) {
  return handleCommand(
    store,
    postStream(input.postId),
    postDecider,
    { type: 'CommentOnPost', ...input, at: context.now },
    context,
  );
}
