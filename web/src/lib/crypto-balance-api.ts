import type { CryptoBalance } from '@contracts/crypto';
import { api } from './api';

/** GET /api/crypto/balance (SPEC §7): shown by the wallet and by the plan options (paying with it). */
export const cryptoBalanceApi = api.enhanceEndpoints({ addTagTypes: ['CryptoBalance'] }).injectEndpoints({
  endpoints: (build) => ({
    cryptoBalance: build.query<CryptoBalance, void>({
      query: () => '/api/crypto/balance',
      providesTags: ['CryptoBalance'],
    }),
  }),
});

export const { useCryptoBalanceQuery } = cryptoBalanceApi;
