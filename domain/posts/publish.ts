import { creatorDecider } from '../creators/decider';
import { creatorStream } from '../creators/events';
import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { newId } from '../shared/ids';
import { postDecider } from './decider';
import { postStream } from './events';

export interface PublishInput {
  creatorId: string;
  title: string;
  content: string;
  mediaUrl: string | null;
  isPublic: boolean;
  /** Uploaded media in order (issue 18); the caller checked ownership and readiness. */
  mediaIds?: string[];
}

/** Only registered creators publish; each post is its own stream. */
export async function publishPost(store: EventStore, input: PublishInput, context: CommandContext, postId = newId()) {
  const creator = await loadState(store, creatorStream(input.creatorId), creatorDecider);
  if (!creator.state.registered) throw refuse.forbidden('Only creators can publish posts');
  return handleCommand(
    store,
    postStream(postId),
    postDecider,
    { type: 'PublishPost', postId, ...input, at: context.now },
    context,
  );
}
