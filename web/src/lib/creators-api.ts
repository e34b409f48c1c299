import type { Creator, CreatorStats, SubscriptionCheck, Tier, TierRequest } from '@contracts/creators';
import type { Comment, CreatePostRequest, EditPostRequest, FeedPage, LikeResult, Post } from '@contracts/posts';
import { api } from './api';

/** Creators, tiers, creator subscriptions, posts, feed, likes and comments (SPEC §7). */
const creatorsBase = api.enhanceEndpoints({
  addTagTypes: ['Creators', 'Posts', 'Feed', 'Tiers', 'CreatorSubscription', 'Stats', 'Comments', 'ScheduledPosts'],
});

export const creatorsApi = creatorsBase.injectEndpoints({
  endpoints: (build) => ({
    /** All creators, or those matching `q` (name or bio, names first), at most `limit`. */
    creators: build.query<Creator[], { q?: string; limit?: number } | void>({
      query: (arg) => {
        const params = new URLSearchParams();
        if (arg && arg.q) params.set('q', arg.q);
        if (arg && arg.limit) params.set('limit', String(arg.limit));
        const query = params.toString();
        return query ? `/api/creators?${query}` : '/api/creators';
      },
      providesTags: ['Creators'],
    }),
    creator: build.query<Creator, string>({
      query: (id) => `/api/creators/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Creators', id }],
    }),
    tiers: build.query<Tier[], string>({
      query: (id) => `/api/creators/${encodeURIComponent(id)}/tiers`,
      providesTags: (_result, _error, id) => [{ type: 'Tiers', id }],
    }),
    creatorPosts: build.query<Post[], string>({
      query: (id) => `/api/creators/${encodeURIComponent(id)}/posts`,
      providesTags: ['Posts'],
    }),
    creatorStats: build.query<CreatorStats, string>({
      query: (id) => `/api/creators/${encodeURIComponent(id)}/stats`,
      providesTags: ['Stats'],
    }),
    subscriptionCheck: build.query<SubscriptionCheck, string>({
      query: (creatorId) => `/api/subscriptions/check/${encodeURIComponent(creatorId)}`,
      providesTags: (_result, _error, id) => [{ type: 'CreatorSubscription', id }],
    }),
    feed: build.query<FeedPage, { cursor?: string | null } | void>({
      query: (arg) =>
        arg && arg.cursor ? `/api/posts/feed?cursor=${encodeURIComponent(arg.cursor)}` : '/api/posts/feed',
      providesTags: ['Feed'],
    }),
    comments: build.query<Comment[], string>({
      query: (postId) => `/api/posts/${encodeURIComponent(postId)}/comments`,
      providesTags: (_result, _error, id) => [{ type: 'Comments', id }],
    }),
    registerCreator: build.mutation<Creator, { bio: string; coverImageUrl?: string }>({
      query: (body) => ({ url: '/api/creators/register', method: 'POST', body }),
      invalidatesTags: ['CurrentUser', 'Creators'],
    }),
    createTier: build.mutation<Tier, { creatorId: string; tier: TierRequest }>({
      query: ({ creatorId, tier }) => ({
        url: `/api/creators/${encodeURIComponent(creatorId)}/tiers`,
        method: 'POST',
        body: tier,
      }),
      invalidatesTags: (_result, _error, { creatorId }) => [{ type: 'Tiers', id: creatorId }, 'Creators'],
    }),
    updateTier: build.mutation<Tier, { creatorId: string; tierId: string; tier: TierRequest }>({
      query: ({ creatorId, tierId, tier }) => ({
        url: `/api/creators/${encodeURIComponent(creatorId)}/tiers/${encodeURIComponent(tierId)}`,
        method: 'PUT',
        body: tier,
      }),
      invalidatesTags: (_result, _error, { creatorId }) => [{ type: 'Tiers', id: creatorId }, 'Creators'],
    }),
    subscribeToCreator: build.mutation<unknown, { creatorId: string; tierId: string; promotionId?: string }>({
      query: (body) => ({ url: '/api/subscriptions', method: 'POST', body }),
      invalidatesTags: (_result, _error, { creatorId }) => [
        { type: 'CreatorSubscription', id: creatorId },
        'Posts',
        'Feed',
        'Creators',
        'Stats',
      ],
    }),
    createPost: build.mutation<Post, CreatePostRequest>({
      query: (body) => ({ url: '/api/posts', method: 'POST', body }),
      invalidatesTags: ['Posts', 'Feed', 'Stats', 'Creators', 'ScheduledPosts'],
    }),
    /** The signed-in creator's posts waiting for their time (issue 21). */
    scheduledPosts: build.query<Post[], void>({
      query: () => '/api/posts/scheduled',
      providesTags: ['ScheduledPosts'],
    }),
    editPost: build.mutation<Post, { postId: string; changes: EditPostRequest }>({
      query: ({ postId, changes }) => ({
        url: `/api/posts/${encodeURIComponent(postId)}`,
        method: 'PATCH',
        body: changes,
      }),
      invalidatesTags: ['Posts', 'Feed', 'ScheduledPosts'],
    }),
    deletePost: build.mutation<void, string>({
      query: (postId) => ({ url: `/api/posts/${encodeURIComponent(postId)}`, method: 'DELETE' }),
      invalidatesTags: ['Posts', 'Feed', 'Stats', 'Creators', 'ScheduledPosts'],
    }),
    deleteComment: build.mutation<void, { postId: string; commentId: string }>({
      query: ({ postId, commentId }) => ({
        url: `/api/posts/${encodeURIComponent(postId)}/comments/${encodeURIComponent(commentId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, _error, { postId }) => [{ type: 'Comments', id: postId }, 'Posts', 'Feed'],
    }),
    likePost: build.mutation<LikeResult, string>({
      query: (postId) => ({ url: `/api/posts/${encodeURIComponent(postId)}/like`, method: 'POST' }),
    }),
    addComment: build.mutation<Comment, { postId: string; content: string }>({
      query: ({ postId, content }) => ({
        url: `/api/posts/${encodeURIComponent(postId)}/comments`,
        method: 'POST',
        body: { content },
      }),
      invalidatesTags: (_result, _error, { postId }) => [{ type: 'Comments', id: postId }],
    }),
  }),
});

export const {
  useCreatorsQuery,
  useCreatorQuery,
  useTiersQuery,
  useCreatorPostsQuery,
  useCreatorStatsQuery,
  useSubscriptionCheckQuery,
  useFeedQuery,
  useCommentsQuery,
  useRegisterCreatorMutation,
  useCreateTierMutation,
  useUpdateTierMutation,
  useSubscribeToCreatorMutation,
  useCreatePostMutation,
  useLikePostMutation,
  useAddCommentMutation,
  useScheduledPostsQuery,
  useEditPostMutation,
  useDeletePostMutation,
  useDeleteCommentMutation,
} = creatorsApi;
