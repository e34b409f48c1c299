import type { CreatePromotionRequest, PromotionView } from '@contracts/promotions';
import { api } from '@/lib/api';

/** The creator's own promotions: list, create, end (each change refreshes the offers shown too). */
export const promotionsAdminApi = api.enhanceEndpoints({ addTagTypes: ['Promotions'] }).injectEndpoints({
  endpoints: (build) => ({
    myPromotions: build.query<PromotionView[], void>({
      query: () => '/api/creators/me/promotions',
      providesTags: ['Promotions'],
    }),
    createPromotion: build.mutation<PromotionView, CreatePromotionRequest>({
      query: (body) => ({ url: '/api/creators/me/promotions', method: 'POST', body }),
      invalidatesTags: ['Promotions'],
    }),
    endPromotion: build.mutation<PromotionView, string>({
      query: (id) => ({ url: `/api/creators/me/promotions/${encodeURIComponent(id)}/end`, method: 'POST' }),
      invalidatesTags: ['Promotions'],
    }),
  }),
});

export const { useMyPromotionsQuery, useCreatePromotionMutation, useEndPromotionMutation } = promotionsAdminApi;
