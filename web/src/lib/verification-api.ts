import type { VerificationStatus } from '@contracts/verification';
import { api, isApiError } from '@/lib/api';

/**
 * The creator's identity verification (issue 20): its status (the dashboard's banner and the
 * verification page) and the form's submission (multipart: legalName, dateOfBirth, document, selfie).
 */
export const verificationApi = api.enhanceEndpoints({ addTagTypes: ['IdentityVerification'] }).injectEndpoints({
  endpoints: (build) => ({
    verificationStatus: build.query<VerificationStatus, void>({
      query: () => '/api/creators/verification',
      providesTags: ['IdentityVerification'],
    }),
    submitVerification: build.mutation<VerificationStatus, FormData>({
      query: (form) => ({ url: '/api/creators/verification', method: 'POST', body: form }),
      invalidatesTags: ['IdentityVerification'],
    }),
  }),
});

export const { useVerificationStatusQuery, useSubmitVerificationMutation } = verificationApi;

export const VERIFICATION_PATH = '/dashboard/verification';

/** The server's 403 when a creator must verify their identity first: its message, else null. */
export function identityRequiredText(error: unknown): string | null {
  if (!isApiError(error) || error.status !== 403) return null;
  const body = error.bodyJson as { code?: unknown; error?: unknown } | undefined;
  return body?.code === 'IDENTITY_VERIFICATION_REQUIRED' && typeof body.error === 'string' ? body.error : null;
}
