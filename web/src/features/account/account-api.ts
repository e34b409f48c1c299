import type {
  AccountDeletedResponse,
  AccountExport,
  AccountExportPreparing,
  DeleteAccountRequest,
} from '@contracts/account';
import type { TwoFactorStatus } from '@contracts/two-factor';
import { api } from '@/lib/api';

/** The member's own account (issue 23): download everything about it, or delete it. */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Whether deleting asks for a code. A 401 is no central redirect: right after a deletion the
    // session is gone while this query may still refetch.
    accountTwoFactorStatus: build.query<TwoFactorStatus, void>({
      query: () => '/api/auth/2fa',
      extraOptions: { on401: 'error' },
    }),
    // A mutation, started untracked, so the whole export never sits in the store.
    exportAccount: build.mutation<AccountExport | AccountExportPreparing, void>({
      query: () => '/api/account/export',
    }),
    deleteAccount: build.mutation<AccountDeletedResponse, DeleteAccountRequest>({
      query: (body) => ({ url: '/api/account/delete', method: 'POST', body }),
      // A 401 here is a wrong password, shown in the form, not a lost session.
      extraOptions: { on401: 'error' },
    }),
  }),
});

export const { useAccountTwoFactorStatusQuery, useDeleteAccountMutation } = accountApi;

/** A 202: the file is too large to build now; a notification links to it when ready. */
export const isPreparing = (answer: AccountExport | AccountExportPreparing): answer is AccountExportPreparing =>
  'status' in answer && answer.status === 'preparing';
