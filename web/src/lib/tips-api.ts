import type { Tip, TipRequest } from '@contracts/tips';
import { api } from './api';

/** POST /api/tips (issue 21): the tip dialog on post cards, creator pages and message threads. */
export const tipsApi = api.enhanceEndpoints({ addTagTypes: ['CryptoBalance'] }).injectEndpoints({
  endpoints: (build) => ({
    tip: build.mutation<Tip, TipRequest & { idempotencyKey: string }>({
      query: ({ idempotencyKey, ...body }) => ({
        url: '/api/tips',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // A tip from the balance spends it.
      invalidatesTags: ['CryptoBalance'],
    }),
  }),
});

export const { useTipMutation } = tipsApi;
