import { MAX_ATTACHED_MEDIA } from '../contracts/posts';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { PostContent, PostEvent } from './events';

/** Where a post is in its life: written for later, out, or deleted (issue 21). */
type PostStatus = 'none' | 'scheduled' | 'published' | 'deleted';

export interface PostState {
  status: PostStatus;
  /** Out and not deleted: likes and comments are taken. */
  published: boolean;
  creatorId: string | null;
  isPublic: boolean;
  /** The content as it stands (kept so a scheduled post comes out as last edited). */
  content: PostContent | null;
  /** While scheduled: when it comes out. */
  scheduledAt: string | null;
  likers: Set<string>;
  /** Live comments: id → author. */
  comments: Map<string, string>;
}

/** What an edit may change; an absent field keeps its value. `scheduledAt` only before publication. */
export interface PostChanges {
  title?: string;
  content?: string;
  mediaUrl?: string | null;
  isPublic?: boolean;
  mediaIds?: string[];
  scheduledAt?: Date;
}

interface NewPost {
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

export type PostCommand =
  | ({ type: 'PublishPost' } & NewPost)
  | ({ type: 'SchedulePost'; scheduledAt: Date } & NewPost)
  /** The tick: publishes a scheduled post whose time has come; nothing otherwise. */
  | { type: 'PublishScheduledPost'; postId: string; at: Date }
  | { type: 'EditPost'; postId: string; actorId: string; changes: PostChanges; at: Date }
  | { type: 'DeletePost'; postId: string; actorId: string; at: Date }
  | { type: 'ToggleLike'; postId: string; userId: string; at: Date }
  | { type: 'CommentOnPost'; postId: string; commentId: string; userId: string; content: string; at: Date }
  | { type: 'DeleteComment'; postId: string; commentId: string; actorId: string; at: Date };

/** How far ahead a post may be scheduled. */
const MAX_SCHEDULE_AHEAD_MS = 365 * 24 * 60 * 60_000;

/** A schedule time must lie ahead of now and within a year. */
function checkedScheduledAt(scheduledAt: Date, now: Date): string {
  if (Number.isNaN(scheduledAt.getTime()))
    throw refuse.validation('scheduledAt must be a date and time', { scheduledAt: 'Must be a date and time' });
  if (scheduledAt.getTime() <= now.getTime())
    throw refuse.validation('A post can only be scheduled for a time in the future', {
      scheduledAt: 'Choose a time in the future',
    });
  if (scheduledAt.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS)
    throw refuse.validation('A post can be scheduled at most a year ahead', {
      scheduledAt: 'Choose a time within a year',
    });
  return scheduledAt.toISOString();
}

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

function contentOf(command: NewPost): PostContent {
  return {
    title: command.title,
    content: command.content,
    mediaUrl: command.mediaUrl,
    mediaType: mediaTypeOf(command.mediaUrl),
    isPublic: command.isPublic,
    ...checkedMediaIds(command.mediaIds ?? []),
  };
}

/** The content after an edit: changed fields replaced, the rest kept. */
function edited(current: PostContent, changes: PostChanges): PostContent {
  const mediaUrl = changes.mediaUrl === undefined ? current.mediaUrl : changes.mediaUrl;
  return {
    title: changes.title ?? current.title,
    content: changes.content ?? current.content,
    isPublic: changes.isPublic ?? current.isPublic,
    mediaUrl,
    mediaType: mediaTypeOf(mediaUrl),
    ...checkedMediaIds(changes.mediaIds ?? current.mediaIds ?? []),
  };
}

const withoutEventFields = (data: PostContent): PostContent => ({
  title: data.title,
  content: data.content,
  mediaUrl: data.mediaUrl,
  mediaType: data.mediaType,
  isPublic: data.isPublic,
  ...(data.mediaIds?.length ? { mediaIds: data.mediaIds } : {}),
});

function evolveContent(state: PostState, data: PostContent): PostState {
  return { ...state, content: withoutEventFields(data), isPublic: data.isPublic };
}

/** The post's creator may change it; anyone else is refused. An unknown or deleted post is not found. */
function ownedPost(state: PostState, actorId: string): string {
  if (state.status === 'none' || state.status === 'deleted' || !state.creatorId)
    throw refuse.notFound('Post not found');
  if (state.creatorId !== actorId) throw refuse.forbidden('Only the creator of this post can change it');
  return state.creatorId;
}

function decideEdit(command: Extract<PostCommand, { type: 'EditPost' }>, state: PostState): PostEvent[] {
  const creatorId = ownedPost(state, command.actorId);
  const { scheduledAt } = command.changes;
  if (scheduledAt && state.status !== 'scheduled')
    throw refuse.conflict('This post is published already; its time can no longer change');
  return [
    {
      type: 'PostEdited',
      data: {
        postId: command.postId,
        creatorId,
        ...edited(state.content!, command.changes),
        scheduledAt: scheduledAt ? checkedScheduledAt(scheduledAt, command.at) : state.scheduledAt,
        at: command.at.toISOString(),
      },
    },
  ];
}

function decideCommentDelete(command: Extract<PostCommand, { type: 'DeleteComment' }>, state: PostState): PostEvent[] {
  const author = state.comments.get(command.commentId);
  if (!author) throw refuse.notFound('Comment not found');
  if (command.actorId !== author && command.actorId !== state.creatorId)
    throw refuse.forbidden('Only the author of a comment or the creator of the post can delete it');
  return [
    {
      type: 'PostCommentDeleted',
      data: {
        postId: command.postId,
        creatorId: state.creatorId!,
        commentId: command.commentId,
        userId: author,
        deletedBy: command.actorId,
        at: command.at.toISOString(),
      },
    },
  ];
}

/** A new post: out now, or (scheduled) written now and out at its time. */
function decideNew(command: Extract<PostCommand, { type: 'PublishPost' | 'SchedulePost' }>, state: PostState) {
  if (state.status !== 'none') throw refuse.conflict('This post already exists');
  const ids = { postId: command.postId, creatorId: command.creatorId };
  const at = command.at.toISOString();
  if (command.type === 'PublishPost')
    return [{ type: 'PostPublished', data: { ...ids, ...contentOf(command), publishedAt: at } } as const];
  const scheduledAt = checkedScheduledAt(command.scheduledAt, command.at);
  return [{ type: 'PostScheduled', data: { ...ids, ...contentOf(command), scheduledAt, at } } as const];
}

export const postDecider: Decider<PostCommand, PostState, PostEvent> = {
  initialState: {
    status: 'none',
    published: false,
    creatorId: null,
    isPublic: false,
    content: null,
    scheduledAt: null,
    likers: new Set(),
    comments: new Map(),
  },
  evolve(state, event) {
    switch (event.type) {
      case 'PostPublished':
        return {
          ...evolveContent(state, event.data),
          status: 'published',
          published: true,
          creatorId: event.data.creatorId,
          scheduledAt: null,
        };
      case 'PostScheduled':
        return {
          ...evolveContent(state, event.data),
          status: 'scheduled',
          creatorId: event.data.creatorId,
          scheduledAt: event.data.scheduledAt,
        };
      case 'PostEdited':
        return { ...evolveContent(state, event.data), scheduledAt: event.data.scheduledAt };
      case 'PostDeleted':
        return { ...state, status: 'deleted', published: false, scheduledAt: null };
      case 'PostLiked':
        return { ...state, likers: new Set(state.likers).add(event.data.userId) };
      case 'PostUnliked': {
        const likers = new Set(state.likers);
        likers.delete(event.data.userId);
        return { ...state, likers };
      }
      case 'PostCommented':
        return { ...state, comments: new Map(state.comments).set(event.data.commentId, event.data.userId) };
      case 'PostCommentDeleted': {
        const comments = new Map(state.comments);
        comments.delete(event.data.commentId);
        return { ...state, comments };
      }
    }
  },
  decide(command, state) {
    const at = command.at.toISOString();
    switch (command.type) {
      case 'PublishPost':
      case 'SchedulePost':
        return decideNew(command, state);
      case 'PublishScheduledPost':
        if (state.status !== 'scheduled' || Date.parse(state.scheduledAt!) > command.at.getTime()) return [];
        return [
          {
            type: 'PostPublished',
            data: {
              postId: command.postId,
              creatorId: state.creatorId!,
              ...state.content!,
              // Out at the time chosen, so it takes that place in feeds, however late the tick.
              publishedAt: state.scheduledAt!,
              fromSchedule: true,
            },
          },
        ];
      case 'EditPost':
        return decideEdit(command, state);
      case 'DeletePost':
        return [
          { type: 'PostDeleted', data: { postId: command.postId, creatorId: ownedPost(state, command.actorId), at } },
        ];
      case 'DeleteComment':
        if (!state.published) throw refuse.notFound('Post not found');
        return decideCommentDelete(command, state);
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
