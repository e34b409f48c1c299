import type {
  CalculateConversionRequest,
  ConversionPreview,
  ConversionRecord,
  ConvertRequest,
  ConvertResponse,
  CryptoRates,
  CryptoWallet,
  RegisterWalletRequest,
} from '@contracts/crypto';
import { api } from '@/lib/api';

/** SPEC §7 crypto calls. */
export const cryptoApi = api
  .enhanceEndpoints({ addTagTypes: ['CryptoWallets', 'CryptoBalance', 'CryptoConversions'] })
  .injectEndpoints({
    endpoints: (build) => ({
      cryptoRates: build.query<CryptoRates, void>({ query: () => '/api/crypto/rates' }),
      cryptoWallets: build.query<CryptoWallet[], void>({
        query: () => '/api/crypto/wallets',
        providesTags: ['CryptoWallets'],
      }),
      registerWallet: build.mutation<CryptoWallet, RegisterWalletRequest>({
        query: (body) => ({ url: '/api/crypto/wallets', method: 'POST', body }),
        invalidatesTags: ['CryptoWallets'],
      }),
      calculateConversion: build.mutation<ConversionPreview, CalculateConversionRequest>({
        query: (body) => ({ url: '/api/crypto/calculate', method: 'POST', body }),
      }),
      convertCrypto: build.mutation<ConvertResponse, ConvertRequest & { idempotencyKey: string }>({
        query: ({ idempotencyKey, ...body }) => ({
          url: '/api/crypto/convert',
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': idempotencyKey },
        }),
        invalidatesTags: ['CryptoBalance', 'CryptoConversions', 'CryptoWallets'],
      }),
      cryptoConversions: build.query<ConversionRecord[], void>({
        query: () => '/api/crypto/conversions',
        providesTags: ['CryptoConversions'],
      }),
    }),
  });

export const {
  useCryptoRatesQuery,
  useCryptoWalletsQuery,
  useRegisterWalletMutation,
  useCalculateConversionMutation,
  useConvertCryptoMutation,
  useCryptoConversionsQuery,
} = cryptoApi;

/** SPEC §9: wallet addresses are shown as their first 6 and last 4 characters. */
export function shortAddress(address: string): string {
  return address.length <= 10 ? address : `${address.slice(0, 6)}...${address.slice(-4)}`;
}
