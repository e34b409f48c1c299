import { MAX_ATTACHED_MEDIA } from '../contracts/posts';
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
      /** Uploaded media in order; the caller checked they are the creator's own, ready items. */
      mediaIds?: string[];
      at: Date;
    }
  | { type: 'ToggleLike'; postId: string; userId: string; at: Date }
  | { type: 'CommentOnPost'; postId: string; commentId: string; userId: string; content: string; at: Date };

/** The media ids an event carries: at most MAX_ATTACHED_MEDIA, each once; none: no field. */
export function checkedMediaIds(mediaIds: string[]): { mediaIds?: string[] } {
  if (mediaIds.length > MAX_ATTACHED_MEDIA)
    throw refuse.validation(`At most ${MAX_ATTACHED_MEDIA} media items can be attached`, {
      mediaIds: `At most ${MAX_ATTACHED_MEDIA} media items can be attached`,
    });
  if (new Set(mediaIds).size !== mediaIds.length)
    throw refuse.validation('The same media item is attached twice', {
      mediaIds: 'The same media item is attached twice',
    });
  return mediaIds.length ? { mediaIds: [...mediaIds] } : {};
}

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
      const media = checkedMediaIds(command.mediaIds ?? []);
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
            ...media,
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
