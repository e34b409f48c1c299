import type { BillingEntry, BillingHistoryPage, BillingMethod, BillingStatus, Receipt } from '@contracts/billing';
import { api } from '@/lib/api';
import { usd } from '@/lib/format';

/** The member's billing history (pages newest first, by cursor) and the receipt of one charge. */
export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    billingHistory: build.infiniteQuery<BillingHistoryPage, void, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ pageParam }) =>
        pageParam ? `/api/billing/history?cursor=${encodeURIComponent(pageParam)}` : '/api/billing/history',
    }),
    receipt: build.query<Receipt, string>({
      query: (id) => `/api/billing/receipts/${encodeURIComponent(id)}`,
    }),
  }),
});

export const { useBillingHistoryInfiniteQuery, useReceiptQuery } = billingApi;

/** How the money moved: "Card •••• 4242", "USD balance", "USDC". */
export function methodLabel(method: BillingMethod): string {
  if (method.type === 'card') return method.cardLast4 ? `Card •••• ${method.cardLast4}` : 'Card on file';
  if (method.type === 'crypto') return method.cryptoType;
  return 'USD balance';
}

export const STATUS_CHIPS: Record<
  BillingStatus,
  { label: string; color: 'success' | 'default' | 'error' | 'warning' }
> = {
  paid: { label: 'Paid', color: 'success' },
  credited: { label: 'Credited', color: 'success' },
  refunded: { label: 'Refunded', color: 'default' },
  // Not 'info': the theme's light blue on white reads at 3.9:1, under the 4.5:1 small text needs.
  partially_refunded: { label: 'Partially refunded', color: 'default' },
  failed: { label: 'Failed', color: 'error' },
  pending: { label: 'Pending', color: 'warning' },
  // A refused renewal attempt: red as failed (4.98:1 on white, 4.7:1 on the dark paper).
  declined: { label: 'Declined', color: 'error' },
};

/** Charges as they cost ("$1.99"), credits with a plus ("+$19.40"). */
export const signedAmount = (entry: Pick<BillingEntry, 'amount' | 'direction'>) =>
  entry.direction === 'credit' ? `+${usd(entry.amount)}` : usd(entry.amount);
