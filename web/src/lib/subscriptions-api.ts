import type { MemberSubscription, MemberSubscriptions, RenewalSource } from '@contracts/creator-subscriptions';
import { api } from './api';

/** A member's creator subscriptions over time: the list, cancel, resume, tier change, renewal source, money-back (issue 21). */
const subscriptionsBase = api.enhanceEndpoints({
  addTagTypes: ['MySubscriptions', 'CreatorSubscription', 'Posts', 'Feed', 'Creators'],
});

interface SubscriptionArg {
  id: string;
  creatorId: string;
}

/** What a change to one subscription makes stale: the list, the creator page's check, and (access) posts. */
const touched = (_result: unknown, _error: unknown, { creatorId }: SubscriptionArg) => [
  'MySubscriptions' as const,
  { type: 'CreatorSubscription' as const, id: creatorId },
  'Posts' as const,
  'Feed' as const,
  'Creators' as const,
];

const action = (path: string) => (arg: SubscriptionArg & { tierId?: string }) => ({
  url: `/api/subscriptions/${encodeURIComponent(arg.id)}/${path}`,
  method: 'POST' as const,
  body: arg.tierId ? { tierId: arg.tierId } : {},
});

export const subscriptionsApi = subscriptionsBase.injectEndpoints({
  endpoints: (build) => ({
    mySubscriptions: build.query<MemberSubscriptions, void>({
      query: () => '/api/subscriptions',
      providesTags: ['MySubscriptions'],
    }),
    cancelCreatorSubscription: build.mutation<MemberSubscription, SubscriptionArg>({
      query: action('cancel'),
      invalidatesTags: touched,
    }),
    resumeSubscription: build.mutation<MemberSubscription, SubscriptionArg>({
      query: action('resume'),
      invalidatesTags: touched,
    }),
    changeSubscriptionTier: build.mutation<MemberSubscription, SubscriptionArg & { tierId: string }>({
      query: action('tier'),
      invalidatesTags: touched,
    }),
    /** POST /api/subscriptions/:id/renewal-source: renewals paid by the card on file or from the USD balance. */
    setRenewalSource: build.mutation<MemberSubscription, SubscriptionArg & { source: RenewalSource }>({
      query: ({ id, source }) => ({
        url: `/api/subscriptions/${encodeURIComponent(id)}/renewal-source`,
        method: 'POST',
        body: { source },
      }),
      invalidatesTags: touched,
    }),
    refundSubscription: build.mutation<MemberSubscription, SubscriptionArg>({
      query: action('refund'),
      invalidatesTags: touched,
    }),
  }),
});

export const {
  useMySubscriptionsQuery,
  useCancelCreatorSubscriptionMutation,
  useResumeSubscriptionMutation,
  useChangeSubscriptionTierMutation,
  useSetRenewalSourceMutation,
  useRefundSubscriptionMutation,
} = subscriptionsApi;
