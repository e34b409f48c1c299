import { z } from 'zod';
import type { MediaAttachment } from './media';
import { text } from './text';

/** HTTP payloads of posts, likes, comments and the feed (SPEC §3, §5), shared by API and web. */

/** How many uploaded items one post or message may carry. */
export const MAX_ATTACHED_MEDIA = 20;

/** `mediaIds` of a new post or message: the caller's own ready items, in the order shown. */
export function mediaIdsSchema() {
  return mediaIdsList().optional().default([]);
}

function mediaIdsList() {
  return z
    .array(text({ error: 'Each media id must be a string' }).trim().min(1).max(100), {
      error: 'mediaIds must be a list of media ids',
    })
    .max(MAX_ATTACHED_MEDIA, `At most ${MAX_ATTACHED_MEDIA} media items can be attached`)
    .refine((ids) => new Set(ids).size === ids.length, 'The same media item is attached twice');
}

export const createPostSchema = z.object({
  title: text({ error: 'Title is required' }).trim().min(1, 'Title is required').max(200, 'Title too long'),
  content: text({ error: 'Content is required' }).trim().min(1, 'Content is required').max(10_000, 'Content too long'),
  mediaUrl: text()
    .trim()
    .max(2000, 'Media URL must be a valid URL')
    .optional()
    .nullable()
    .transform((value) => (value ? value : undefined))
    .pipe(z.url('Media URL must be a valid URL').optional()),
  isPublic: z.boolean({ error: 'isPublic must be true or false' }).optional().default(false),
  mediaIds: mediaIdsSchema(),
  /** Issue 21: publish at this time (ISO 8601, in the future, within a year) instead of now. */
  scheduledAt: scheduledAtSchema().optional(),
});
export type CreatePostRequest = z.input<typeof createPostSchema>;

function scheduledAtSchema() {
  return text({ error: 'scheduledAt must be a date and time' })
    .trim()
    .max(40, 'scheduledAt must be a date and time')
    .refine((value) => !Number.isNaN(Date.parse(value)), 'scheduledAt must be a date and time')
    .transform((value) => new Date(value));
}

/** An edit by the post's creator: only the fields sent change; `scheduledAt` only while scheduled. */
export const editPostSchema = createPostSchema
  .omit({ isPublic: true, mediaIds: true, scheduledAt: true })
  .partial()
  .extend({
    isPublic: z.boolean({ error: 'isPublic must be true or false' }).optional(),
    mediaIds: mediaIdsList().optional(),
    scheduledAt: scheduledAtSchema().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Nothing to change');
export type EditPostRequest = z.input<typeof editPostSchema>;

export const commentSchema = z.object({
  content: text({ error: 'Comment is required' }).trim().min(1, 'Comment is required').max(2000, 'Comment too long'),
});

export const FEED_PAGE_SIZE = 20;
export const feedQuerySchema = z.object({
  cursor: text().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).optional().default(FEED_PAGE_SIZE),
});

export interface PostAuthor {
  id: string;
  name: string;
  profileImageUrl: string | null;
}

/**
 * A post as a viewer sees it: locked posts carry neither content nor media URL, and their
 * `media` only blurred previews.
 */
export interface Post {
  id: string;
  creatorId: string;
  creator: PostAuthor;
  title: string;
  content: string | null;
  mediaUrl: string | null;
  mediaType: string | null;
  hasMedia: boolean;
  isPublic: boolean;
  locked: boolean;
  likeCount: number;
  commentCount: number;
  liked: boolean;
  createdAt: string;
  /** Uploaded photos and videos in order (issue 18); empty when none. */
  media: MediaAttachment[];
  /** Only on its creator's scheduled post (issue 21): when it comes out. */
  scheduledAt?: string;
}

export interface FeedPage {
  posts: Post[];
  nextCursor: string | null;
}

export interface LikeResult {
  liked: boolean;
  count: number;
}

export interface Comment {
  id: string;
  postId: string;
  userId: string;
  userName: string;
  content: string;
  createdAt: string;
}
