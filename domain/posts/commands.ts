import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { postDecider, type PostChanges } from './decider';
import { postStream } from './events';

/**
 * The posts context's way in: publishing (`publish.ts`), likes and comments. api/ and
 * realtime/ import this file and events.ts only.
 */
export { publishDuePosts, publishPost, SCHEDULED_POSTS_TICK_MS } from './publish';

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

/** The creator changes their post (content, lock, media; its time while scheduled). */
export function editPost(
  store: EventStore,
  input: { postId: string; actorId: string; changes: PostChanges },
  context: CommandContext,
) {
  return handleCommand(
    store,
    postStream(input.postId),
    postDecider,
    { type: 'EditPost', ...input, at: context.now },
    context,
  );
}

/** The creator deletes their post, or cancels it before its time. */
export function deletePost(store: EventStore, input: { postId: string; actorId: string }, context: CommandContext) {
  return handleCommand(
    store,
    postStream(input.postId),
    postDecider,
    { type: 'DeletePost', ...input, at: context.now },
    context,
  );
}

/** A comment's author, or the post's creator, deletes the comment. */
export function deleteComment(
  store: EventStore,
  input: { postId: string; commentId: string; actorId: string },
  context: CommandContext,
) {
  return handleCommand(
    store,
    postStream(input.postId),
    postDecider,
    { type: 'DeleteComment', ...input, at: context.now },
    context,
  );
}
