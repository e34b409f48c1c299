import type { WatermarkSetting } from '@contracts/creators';
import { api } from '@/lib/api';

/** Issue 18: the creator's visible watermark on the images others are served (GET/PUT /api/creators/me/watermark). */
const watermarkApi = api.enhanceEndpoints({ addTagTypes: ['Watermark'] }).injectEndpoints({
  endpoints: (build) => ({
    watermark: build.query<WatermarkSetting, void>({
      query: () => '/api/creators/me/watermark',
      providesTags: ['Watermark'],
    }),
    setWatermark: build.mutation<WatermarkSetting, WatermarkSetting>({
      query: (body) => ({ url: '/api/creators/me/watermark', method: 'PUT', body }),
      // The answer is the setting now: the query takes it without another request.
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(watermarkApi.util.upsertQueryData('watermark', undefined, data));
      },
    }),
  }),
});

export const { useWatermarkQuery, useSetWatermarkMutation } = watermarkApi;
