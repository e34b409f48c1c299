import type {
  TwoFactorCodeRequest,
  TwoFactorRecoveryCodes,
  TwoFactorSetup,
  TwoFactorStatus,
} from '@contracts/two-factor';
import { api } from '@/lib/api';

/** Two-factor authentication calls of the Security page. */
export const securityApi = api.enhanceEndpoints({ addTagTypes: ['TwoFactor'] }).injectEndpoints({
  endpoints: (build) => ({
    twoFactorStatus: build.query<TwoFactorStatus, void>({ query: () => '/api/auth/2fa', providesTags: ['TwoFactor'] }),
    startTwoFactorSetup: build.mutation<TwoFactorSetup, void>({
      query: () => ({ url: '/api/auth/2fa/setup', method: 'POST' }),
    }),
    enableTwoFactor: build.mutation<TwoFactorRecoveryCodes, TwoFactorCodeRequest>({
      query: (body) => ({ url: '/api/auth/2fa/enable', method: 'POST', body }),
      invalidatesTags: ['TwoFactor'],
    }),
    disableTwoFactor: build.mutation<TwoFactorStatus, TwoFactorCodeRequest>({
      query: (body) => ({ url: '/api/auth/2fa/disable', method: 'POST', body }),
      invalidatesTags: ['TwoFactor'],
    }),
  }),
});

export const {
  useTwoFactorStatusQuery,
  useStartTwoFactorSetupMutation,
  useEnableTwoFactorMutation,
  useDisableTwoFactorMutation,
} = securityApi;
