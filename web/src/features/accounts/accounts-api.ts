import type { LoginRequest } from '@contracts/accounts';
import type { TwoFactorCodeRequest, TwoFactorRequired } from '@contracts/two-factor';
import { api } from '@/lib/api';

export interface RegisterPayload {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  paymentToken: string;
}

/** The accounts calls of SPEC §7. Their errors are handled by the forms (no central 401). */
export const accountsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `{ twoFactorRequired: true }` when the account has two-factor on: then `loginSecondFactor`. */
    login: build.mutation<Partial<TwoFactorRequired>, LoginRequest>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
      extraOptions: { on401: 'error' },
      invalidatesTags: ['CurrentUser', 'SubscriptionStatus'],
    }),
    loginSecondFactor: build.mutation<unknown, TwoFactorCodeRequest>({
      query: (body) => ({ url: '/api/auth/login/2fa', method: 'POST', body }),
      extraOptions: { on401: 'error' },
      invalidatesTags: ['CurrentUser', 'SubscriptionStatus'],
    }),
    register: build.mutation<{ message?: string }, RegisterPayload>({
      query: (body) => ({ url: '/api/auth/register', method: 'POST', body }),
      extraOptions: { on401: 'error' },
      // Not invalidated here: the welcome toast shows first, the page refreshes the user itself.
    }),
    resetPasswordRequest: build.mutation<unknown, { email: string }>({
      query: (body) => ({ url: '/api/auth/reset-password-request', method: 'POST', body }),
      extraOptions: { on401: 'error' },
    }),
    resetPassword: build.mutation<unknown, { token: string; password: string; confirmPassword: string }>({
      query: (body) => ({ url: '/api/auth/reset-password', method: 'POST', body }),
      extraOptions: { on401: 'error' },
    }),
  }),
});

export const {
  useLoginMutation,
  useLoginSecondFactorMutation,
  useRegisterMutation,
  useResetPasswordRequestMutation,
  useResetPasswordMutation,
} = accountsApi;
