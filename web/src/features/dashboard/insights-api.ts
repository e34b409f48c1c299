import type {
  AnalyticsDays,
  CreatorAnalytics,
  SubscriberStatus,
  SubscribersPage,
  SubscribersQuery,
} from '@contracts/creator-insights';
import { api } from '@/lib/api';

export interface SubscribersArgs extends Pick<SubscribersQuery, 'q'> {
  creatorId: string;
  status?: SubscriberStatus;
}

function subscribersUrl({ creatorId, q, status }: SubscribersArgs, cursor: string | null): string {
  const params = new URLSearchParams();
  if (q?.trim()) params.set('q', q.trim());
  if (status) params.set('status', status);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/api/creators/${creatorId}/subscribers${query ? `?${query}` : ''}`;
}

/** The creator's own subscribers (pages by cursor) and analytics for 7, 30 or 90 days. */
export const insightsApi = api.injectEndpoints({
  endpoints: (build) => ({
    creatorSubscribers: build.infiniteQuery<SubscribersPage, SubscribersArgs, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg, pageParam }) => subscribersUrl(queryArg, pageParam),
    }),
    creatorAnalytics: build.query<CreatorAnalytics, { creatorId: string; days: AnalyticsDays }>({
      query: ({ creatorId, days }) => `/api/creators/${creatorId}/analytics?days=${days}`,
    }),
  }),
});

export const { useCreatorSubscribersInfiniteQuery, useCreatorAnalyticsQuery } = insightsApi;
