import type {
  AdminVerification,
  AdminVerificationPage,
  VerificationDecision,
  VerificationState,
} from '@contracts/verification';
import { api } from '@/lib/api';

/** Compliance staff's identity verifications (issue 20): page by page (cursor), and the decision. */
export const verificationsAdminApi = api
  .enhanceEndpoints({ addTagTypes: ['AdminVerifications', 'IdentityVerification'] })
  .injectEndpoints({
    endpoints: (build) => ({
      adminVerifications: build.infiniteQuery<AdminVerificationPage, { state?: VerificationState }, string | null>({
        infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (lastPage) => lastPage.nextCursor },
        query: ({ queryArg, pageParam }) => {
          const search = new URLSearchParams();
          if (queryArg.state) search.set('state', queryArg.state);
          if (pageParam) search.set('cursor', pageParam);
          const query = search.toString();
          return `/api/admin/verifications${query ? `?${query}` : ''}`;
        },
        providesTags: ['AdminVerifications'],
        keepUnusedDataFor: 0,
      }),
      decideVerification: build.mutation<AdminVerification, { id: string } & VerificationDecision>({
        query: ({ id, ...body }) => ({
          url: `/api/admin/verifications/${encodeURIComponent(id)}/decide`,
          method: 'POST',
          body,
        }),
        invalidatesTags: ['AdminVerifications', 'IdentityVerification'],
      }),
    }),
  });

export const { useAdminVerificationsInfiniteQuery, useDecideVerificationMutation } = verificationsAdminApi;

/** Where a submission's photo is served (staff only; each viewing is recorded). */
export const verificationFileUrl = (id: string, kind: 'document' | 'selfie') =>
  `/api/admin/verifications/${encodeURIComponent(id)}/files/${kind}`;
