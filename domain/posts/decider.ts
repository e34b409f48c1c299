import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { PostEvent } from './events';

export interface PostState {
  published: boolean;
  creatorId: string | null;
  isPublic: boolean;
  likers: Set<string>;
}

export type PostCommand =
  | {
      type: 'PublishPost';
      postId: string;
      creatorId: string;
      title: string;
      content: string;
      mediaUrl: string | null;
      isPublic: boolean;
      at: Date;
    }
  | { type: 'ToggleLike'; postId: string; userId: string; at: Date }
  | { type: 'CommentOnPost'; postId: string; commentId: string; userId: string; content: string; at: Date };

/** What kind of media a URL points at, from its extension; null when there is none. */
export function mediaTypeOf(url: string | null): string | null {
  if (!url) return null;
  const path = url.split(/[?#]/)[0].toLowerCase();
  if (/\.(mp4|webm|mov|m4v|ogv)$/.test(path)) return 'video';
  if (/\.(mp3|wav|ogg|m4a)$/.test(path)) return 'audio';
  return 'image';
}

export const postDecider: Decider<PostCommand, PostState, PostEvent> = {
  initialState: { published: false, creatorId: null, isPublic: false, likers: new Set() },
  evolve(state, event) {
    switch (event.type) {
      case 'PostPublished':
        return { ...state, published: true, creatorId: event.data.creatorId, isPublic: event.data.isPublic };
      case 'PostLiked':
        return { ...state, likers: new Set(state.likers).add(event.data.userId) };
      case 'PostUnliked': {
        const likers = new Set(state.likers);
        likers.delete(event.data.userId);
        return { ...state, likers };
      }
      case 'PostCommented':
        return state;
    }
  },
  decide(command, state) {
    const at = command.at.toISOString();
    if (command.type === 'PublishPost') {
      if (state.published) throw refuse.conflict('This post already exists');
      return [
        {
          type: 'PostPublished',
          data: {
            postId: command.postId,
            creatorId: command.creatorId,
            title: command.title,
            content: command.content,
            mediaUrl: command.mediaUrl,
            mediaType: mediaTypeOf(command.mediaUrl),
            isPublic: command.isPublic,
            publishedAt: at,
          },
        },
      ];
    }
    if (!state.published || !state.creatorId) throw refuse.notFound('Post not found');
    const creatorId = state.creatorId;
    if (command.type === 'ToggleLike') {
      const type = state.likers.has(command.userId) ? 'PostUnliked' : 'PostLiked';
      return [{ type, data: { postId: command.postId, creatorId, userId: command.userId, at } }];
    }
    return [
      {
        type: 'PostCommented',
        data: {
          postId: command.postId,
          creatorId,
          commentId: command.commentId,
          userId: command.userId,
          content: command.content,
          at,
        },
      },
    ];
  },
};
