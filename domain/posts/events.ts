/** Facts of posts, likes and comments. Stream `post-<postId>`. */

export interface PostPublished {
  type: 'PostPublished';
  data: {
    postId: string;
    creatorId: string;
    title: string;
    content: string;
    mediaUrl: string | null;
    mediaType: string | null;
    isPublic: boolean;
    publishedAt: string;
    /** Uploaded media (issue 18), in the order shown; absent when there is none. */
    mediaIds?: string[];
    /** Set when a scheduled post comes out (issue 21): its row exists already, unlisted until now. */
    fromSchedule?: true;
  };
}
/** The content of a post as written, scheduled or edited. */
export interface PostContent {
  title: string;
  content: string;
  mediaUrl: string | null;
  mediaType: string | null;
  isPublic: boolean;
  /** Uploaded media in order; absent when there is none. */
  mediaIds?: string[];
}
/** Written now, published at `scheduledAt` by the scheduled-posts tick (issue 21). */
export interface PostScheduled {
  type: 'PostScheduled';
  data: PostContent & { postId: string; creatorId: string; scheduledAt: string; at: string };
}
/**
 * The creator changed the post: its whole content after the edit, and while it is still
 * scheduled, its (possibly new) time; `scheduledAt` null once published.
 */
export interface PostEdited {
  type: 'PostEdited';
  data: PostContent & { postId: string; creatorId: string; scheduledAt: string | null; at: string };
}
/** The creator deleted the post (or cancelled it before its time): gone everywhere. */
export interface PostDeleted {
  type: 'PostDeleted';
  data: { postId: string; creatorId: string; at: string };
}
/** A comment taken down by its author or by the post's creator (`deletedBy`). */
export interface PostCommentDeleted {
  type: 'PostCommentDeleted';
  data: { postId: string; creatorId: string; commentId: string; userId: string; deletedBy: string; at: string };
}
export interface PostLiked {
  type: 'PostLiked';
  data: { postId: string; creatorId: string; userId: string; at: string };
}
export interface PostUnliked {
  type: 'PostUnliked';
  data: { postId: string; creatorId: string; userId: string; at: string };
}
export interface PostCommented {
  type: 'PostCommented';
  data: { postId: string; creatorId: string; commentId: string; userId: string; content: string; at: string };
}

export type PostEvent =
  | PostPublished
  | PostScheduled
  | PostEdited
  | PostDeleted
  | PostLiked
  | PostUnliked
  | PostCommented
  | PostCommentDeleted;

export const postStream = (postId: string) => `post-${postId}`;
