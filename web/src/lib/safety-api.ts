import type { BlockedUser, BlockResult, BlockUserRequest, ReportReceipt, ReportRequest } from '@contracts/safety';
import { api, isApiError, serverErrorText } from './api';

/** The server's words when a block stands between two members (403), e.g. "You can't message this user". */
export function refusalText(error: unknown): string | null {
  return isApiError(error) && error.status === 403 ? serverErrorText(error) : null;
}

/**
 * Blocks and reports (issue 20): one block list and one report queue for profiles, posts,
 * messages and Lively Chat. In `lib/` because several features show the safety menu.
 */
export const safetyApi = api.enhanceEndpoints({ addTagTypes: ['Blocks'] }).injectEndpoints({
  endpoints: (build) => ({
    blocks: build.query<BlockedUser[], void>({
      query: () => '/api/blocks',
      providesTags: ['Blocks'],
    }),
    blockUser: build.mutation<BlockResult, BlockUserRequest>({
      query: (body) => ({ url: '/api/blocks', method: 'POST', body }),
      invalidatesTags: ['Blocks'],
    }),
    /** Lively Chat blocks the partner by the chat session: the page never learns the partner's id. */
    blockChatPartner: build.mutation<BlockResult, { sessionId: string }>({
      query: ({ sessionId }) => ({
        url: `/api/chat/sessions/${encodeURIComponent(sessionId)}/block`,
        method: 'POST',
        body: {},
      }),
      invalidatesTags: ['Blocks'],
    }),
    unblockUser: build.mutation<BlockResult, string>({
      query: (userId) => ({ url: `/api/blocks/${encodeURIComponent(userId)}`, method: 'DELETE' }),
      invalidatesTags: ['Blocks'],
    }),
    report: build.mutation<ReportReceipt, ReportRequest>({
      query: (body) => ({ url: '/api/reports', method: 'POST', body }),
    }),
  }),
});

export const {
  useBlocksQuery,
  useBlockUserMutation,
  useBlockChatPartnerMutation,
  useUnblockUserMutation,
  useReportMutation,
} = safetyApi;
