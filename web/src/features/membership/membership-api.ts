import type { MembershipActionResult, SubscribeWithCryptoRequest, VerifyAgeRequest } from '@contracts/membership';
import { api, isApiError } from '@/lib/api';

/** SPEC §7 membership actions; each refreshes the user, the status and the balance (SPEC §4). */
export const membershipApi = api
  .enhanceEndpoints({ addTagTypes: ['CryptoBalance', 'CryptoConversions'] })
  .injectEndpoints({
    endpoints: (build) => ({
      subscribe: build.mutation<MembershipActionResult, void>({
        query: () => ({ url: '/api/subscribe', method: 'POST', body: {} }),
        invalidatesTags: ['CurrentUser', 'SubscriptionStatus'],
      }),
      subscribeWithCrypto: build.mutation<MembershipActionResult, SubscribeWithCryptoRequest>({
        query: (body) => ({ url: '/api/subscribe/crypto', method: 'POST', body }),
        invalidatesTags: ['CurrentUser', 'SubscriptionStatus', 'CryptoBalance', 'CryptoConversions'],
      }),
      cancelSubscription: build.mutation<MembershipActionResult, void>({
        query: () => ({ url: '/api/cancel-subscription', method: 'POST', body: {} }),
        invalidatesTags: ['CurrentUser', 'SubscriptionStatus'],
      }),
      verifyAge: build.mutation<MembershipActionResult, VerifyAgeRequest>({
        query: (body) => ({ url: '/api/verify-age', method: 'POST', body }),
        invalidatesTags: ['CurrentUser', 'SubscriptionStatus'],
      }),
    }),
  });

export const {
  useSubscribeMutation,
  useSubscribeWithCryptoMutation,
  useCancelSubscriptionMutation,
  useVerifyAgeMutation,
} = membershipApi;

/** A refusal the server answered with `{success: false, message}` (declined card, short balance…). */
export function failedAnswer(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const body = error.bodyJson as { success?: unknown; message?: unknown } | undefined;
  return body?.success === false && typeof body.message === 'string' ? body.message : null;
}

export function requiresAgeVerification(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 403 &&
    (error.bodyJson as { requiresAgeVerification?: unknown } | undefined)?.requiresAgeVerification === true
  );
}
