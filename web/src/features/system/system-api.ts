import type { EventPage, RebuildJobView, SystemStatusView } from '@contracts/system';
import { api } from '@/lib/api';

export interface EventFilters {
  type?: string;
  stream?: string;
  from?: string;
  to?: string;
  before?: string;
}

const queryString = (filters: EventFilters) =>
  new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString();

/** The System page's calls (role admin): status and rebuilds are polled while the page is open. */
export const systemApi = api.enhanceEndpoints({ addTagTypes: ['SystemRebuild'] }).injectEndpoints({
  endpoints: (build) => ({
    systemStatus: build.query<SystemStatusView, void>({ query: () => '/api/system/status', keepUnusedDataFor: 0 }),
    rebuildJob: build.query<{ job: RebuildJobView | null }, void>({
      query: () => '/api/system/rebuild',
      providesTags: ['SystemRebuild'],
      keepUnusedDataFor: 0,
    }),
    startRebuild: build.mutation<{ job: RebuildJobView }, { projection: string }>({
      query: (body) => ({ url: '/api/system/rebuild', method: 'POST', body }),
      invalidatesTags: ['SystemRebuild'],
    }),
    logEvents: build.query<EventPage, EventFilters>({
      query: (filters) => `/api/system/events?${queryString(filters)}`,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useSystemStatusQuery, useRebuildJobQuery, useStartRebuildMutation, useLogEventsQuery } = systemApi;
