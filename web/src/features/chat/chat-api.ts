import { api } from '@/lib/api';

/** Blocking and reporting the current chat partner (by chat session: the page never learns the partner's id). */
export const chatApi = api.injectEndpoints({
  endpoints: (build) => ({
    blockChatPartner: build.mutation<{ message: string }, { roomId: string; reason?: string }>({
      query: ({ roomId, reason }) => ({
        url: `/api/chat/sessions/${encodeURIComponent(roomId)}/block`,
        method: 'POST',
        body: reason ? { reason } : {},
      }),
    }),
    reportChatSession: build.mutation<{ message: string }, { roomId: string; reason: string }>({
      query: ({ roomId, reason }) => ({
        url: `/api/chat/sessions/${encodeURIComponent(roomId)}/report`,
        method: 'POST',
        body: { reason },
      }),
    }),
  }),
});

export const { useBlockChatPartnerMutation, useReportChatSessionMutation } = chatApi;
