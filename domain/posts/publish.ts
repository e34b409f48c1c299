import { creatorDecider } from '../creators/decider';
import { creatorStream } from '../creators/events';
import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { deterministicId, newId } from '../shared/ids';
import { postDecider, type PostCommand } from './decider';
import { postStream } from './events';

export interface PublishInput {
  creatorId: string;
  title: string;
  content: string;
  mediaUrl: string | null;
  isPublic: boolean;
  /** Uploaded media in order (issue 18); the caller checked ownership and readiness. */
  mediaIds?: string[];
  /** Out at this time rather than now (issue 21): a future time within a year. */
  scheduledAt?: Date;
}

/** Only registered creators publish; each post is its own stream. */
export async function publishPost(store: EventStore, input: PublishInput, context: CommandContext, postId = newId()) {
  const creator = await loadState(store, creatorStream(input.creatorId), creatorDecider);
  if (!creator.state.registered) throw refuse.forbidden('Only creators can publish posts');
  const { scheduledAt, ...post } = input;
  const command: PostCommand = scheduledAt
    ? { type: 'SchedulePost', postId, ...post, scheduledAt, at: context.now }
    : { type: 'PublishPost', postId, ...post, at: context.now };
  return handleCommand(store, postStream(postId), postDecider, command, context);
}

/** How often the scheduled-posts tick looks for posts whose time has come. */
export const SCHEDULED_POSTS_TICK_MS = 15_000;

/**
 * The scheduled-posts tick: each post whose time has come (candidates from the read model)
 * is published by its own stream, which re-checks; the event id derives from the post, so a
 * repeated or concurrent tick publishes it once.
 */
export async function publishDuePosts(store: EventStore, postIds: string[], now: Date): Promise<number> {
  let published = 0;
  for (const postId of postIds) {
    const result = await handleCommand(
      store,
      postStream(postId),
      postDecider,
      { type: 'PublishScheduledPost', postId, at: now },
      { actorId: 'system:scheduled-posts', now },
      { eventIds: [deterministicId('scheduled-post-published', postId)] },
    );
    published += result.events.length;
  }
  return published;
}
