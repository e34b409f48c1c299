import type {
  AdminPage,
  AdminPayoutRow,
  AdminResource,
  PayoutAction,
  RefundRequest,
  RefundResponse,
  RevenueDay,
  StreamEventView,
} from '@contracts/admin';
import { api } from '@/lib/api';

/** The finance console's calls (role admin). Filters travel as the same query string the URL keeps. */
export const adminApi = api
  .enhanceEndpoints({ addTagTypes: ['AdminTable', 'AdminRevenue', 'AdminStream'] })
  .injectEndpoints({
    endpoints: (build) => ({
      adminTable: build.query<AdminPage<Record<string, unknown>>, { resource: AdminResource; search: string }>({
        query: ({ resource, search }) => `/api/admin/${resource}${search ? `?${search}` : ''}`,
        providesTags: ['AdminTable'],
        keepUnusedDataFor: 0,
      }),
      revenue: build.query<RevenueDay[], { from?: string; to?: string }>({
        query: ({ from, to }) =>
          `/api/admin/revenue?${new URLSearchParams({ ...(from ? { from } : {}), ...(to ? { to } : {}) })}`,
        providesTags: ['AdminRevenue'],
      }),
      streamEvents: build.query<
        { streamName: string; events: StreamEventView[] },
        { streamName: string; related?: string }
      >({
        query: ({ streamName, related }) =>
          `/api/admin/streams/${encodeURIComponent(streamName)}/events${related ? `?related=${encodeURIComponent(related)}` : ''}`,
        providesTags: ['AdminStream'],
        keepUnusedDataFor: 0,
      }),
      payoutAction: build.mutation<AdminPayoutRow, { id: string; action: PayoutAction; reason?: string }>({
        query: ({ id, action, reason }) => ({
          url: `/api/admin/payouts/${id}/${action}`,
          method: 'POST',
          body: reason ? { reason } : {},
        }),
        invalidatesTags: ['AdminTable', 'AdminStream', 'AdminRevenue'],
      }),
      refundPayment: build.mutation<RefundResponse, RefundRequest & { id: string }>({
        query: ({ id, ...body }) => ({
          url: `/api/admin/payments/${encodeURIComponent(id)}/refund`,
          method: 'POST',
          body,
        }),
        invalidatesTags: ['AdminTable', 'AdminStream', 'AdminRevenue'],
      }),
    }),
  });

export const {
  useAdminTableQuery,
  useRevenueQuery,
  useStreamEventsQuery,
  usePayoutActionMutation,
  useRefundPaymentMutation,
} = adminApi;
