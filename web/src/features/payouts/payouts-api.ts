import type { PaymentAccountRequest, PaymentAccountView, PayoutDashboard, PayoutView } from '@contracts/payouts';
import { api } from '@/lib/api';
import { formatMonthDay } from '@/lib/format';

/** SPEC §7 payout calls (creator only). */
export const payoutsApi = api
  .enhanceEndpoints({ addTagTypes: ['PayoutDashboard', 'PaymentAccounts', 'Payouts'] })
  .injectEndpoints({
    endpoints: (build) => ({
      payoutDashboard: build.query<PayoutDashboard, string>({
        query: (userId) => `/api/payouts/${userId}/dashboard`,
        providesTags: ['PayoutDashboard'],
      }),
      paymentAccounts: build.query<PaymentAccountView[], string>({
        query: (userId) => `/api/payment-accounts/${userId}`,
        providesTags: ['PaymentAccounts'],
      }),
      payouts: build.query<PayoutView[], string>({
        query: (userId) => `/api/payouts/${userId}`,
        providesTags: ['Payouts'],
      }),
      addPaymentAccount: build.mutation<PaymentAccountView, PaymentAccountRequest>({
        query: (body) => ({ url: '/api/payment-accounts', method: 'POST', body }),
        invalidatesTags: ['PaymentAccounts'],
      }),
      requestPayout: build.mutation<PayoutView, { paymentAccountId: string; amount: string; idempotencyKey: string }>({
        query: ({ idempotencyKey, ...body }) => ({
          url: '/api/payouts',
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': idempotencyKey },
        }),
        invalidatesTags: ['PayoutDashboard', 'Payouts'],
      }),
    }),
  });

export const {
  usePayoutDashboardQuery,
  usePaymentAccountsQuery,
  usePayoutsQuery,
  useAddPaymentAccountMutation,
  useRequestPayoutMutation,
} = payoutsApi;

/** SPEC §2: Next Payout shows month and day, or N/A. */
export function monthDay(iso: string | null | undefined): string {
  return formatMonthDay(iso, 'N/A');
}

/** SPEC §4: unknown or missing payout status shows as pending. */
export function payoutStatus(
  status: string | null | undefined,
): 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled' {
  return status === 'processing' || status === 'completed' || status === 'failed' || status === 'cancelled'
    ? status
    : 'pending';
}
