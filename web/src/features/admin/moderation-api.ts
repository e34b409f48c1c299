import type {
  ModerationPage,
  ModerationResult,
  ReportStatus,
  ReportTargetType,
  ResolveReportRequest,
  ResolveReportResult,
  StaffReasonRequest,
  SuspendUserRequest,
} from '@contracts/safety';
import { api } from '@/lib/api';

export interface ModerationFilters {
  status?: ReportStatus;
  targetType?: ReportTargetType;
}

export type AccountActionRequest =
  ({ action: 'suspend' } & SuspendUserRequest) | ({ action: 'ban' | 'reinstate' } & StaffReasonRequest);

/** The moderation queue (role admin): reports page by page (cursor), and the staff actions. */
export const moderationApi = api.enhanceEndpoints({ addTagTypes: ['ModerationReports'] }).injectEndpoints({
  endpoints: (build) => ({
    moderationReports: build.infiniteQuery<ModerationPage, ModerationFilters, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg, pageParam }) => {
        const search = new URLSearchParams();
        if (queryArg.status) search.set('status', queryArg.status);
        if (queryArg.targetType) search.set('targetType', queryArg.targetType);
        if (pageParam) search.set('cursor', pageParam);
        const query = search.toString();
        return `/api/admin/reports${query ? `?${query}` : ''}`;
      },
      providesTags: ['ModerationReports'],
      keepUnusedDataFor: 0,
    }),
    resolveReport: build.mutation<ResolveReportResult, { reportId: string } & ResolveReportRequest>({
      query: ({ reportId, ...body }) => ({
        url: `/api/admin/reports/${encodeURIComponent(reportId)}/resolve`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['ModerationReports'],
    }),
    accountAction: build.mutation<ModerationResult, { userId: string } & AccountActionRequest>({
      query: ({ userId, action, ...body }) => ({
        url: `/api/admin/users/${encodeURIComponent(userId)}/${action}`,
        method: 'POST',
        body,
      }),
      invalidatesTags: ['ModerationReports'],
    }),
  }),
});

export const { useModerationReportsInfiniteQuery, useResolveReportMutation, useAccountActionMutation } = moderationApi;
