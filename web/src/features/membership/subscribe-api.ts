import { api } from '@/lib/api';

/** GET /api/subscription-status (SPEC §3 "Subscription status"). */
export interface SubscriptionStatus {
  subscriptionStatus: string;
  ageVerified: boolean;
  lastPaymentDate: string | null;
  subscriptionEndDate?: string | null;
}

export const subscribeApi = api.injectEndpoints({
  endpoints: (build) => ({
    subscriptionStatus: build.query<SubscriptionStatus, void>({
      query: () => '/api/subscription-status',
      providesTags: ['SubscriptionStatus'],
    }),
  }),
});

export const { useSubscriptionStatusQuery } = subscribeApi;
