import type { MassMessageSummary, SendMassMessageRequest } from '@contracts/mass-messages';
import { api } from '@/lib/api';

/** The creator's mass messages (issue 21): send one to a segment, and how each did. */
export const massMessagesApi = api.enhanceEndpoints({ addTagTypes: ['MassMessages'] }).injectEndpoints({
  endpoints: (build) => ({
    massMessages: build.query<MassMessageSummary[], void>({
      query: () => '/api/mass-messages',
      providesTags: ['MassMessages'],
    }),
    sendMassMessage: build.mutation<MassMessageSummary, SendMassMessageRequest & { idempotencyKey: string }>({
      query: ({ idempotencyKey, ...body }) => ({
        url: '/api/mass-messages',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: ['MassMessages'],
    }),
  }),
});

export const { useMassMessagesQuery, useSendMassMessageMutation } = massMessagesApi;
