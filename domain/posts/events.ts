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
  };
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

export type PostEvent = PostPublished | PostLiked | PostUnliked | PostCommented;

export const postStream = (postId: string) => `post-${postId}`;
