import { z } from 'zod';
import { text } from './text';

/**
 * Crypto over HTTP (SPEC §3, §5): crypto wallets, the conversion of stablecoins to the USD
 * balance, rates and the balance with its conversions. Crypto amounts are integer 1e-8 units
 * (bigint), rates integer 1e-4 units; strings with 8 and 4 decimals at the edge.
 */

export const CRYPTO_TYPES = ['USDC', 'USDT'] as const;
export type CryptoType = (typeof CRYPTO_TYPES)[number];

/** Service fee 3.00 % in basis points. */
export const SERVICE_FEE_BASIS_POINTS = 300;
export const MINIMUM_CONVERSION_NET_CENTS = 1000;
export const CRYPTO_DECIMALS = 8;
export const RATE_DECIMALS = 4;
export const RATES_REFRESH_MS = 30_000;

// ---------- fixed-point helpers (shared by API and web) ----------

function formatFixed(units: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  return `${sign}${abs / scale}.${(abs % scale).toString().padStart(decimals, '0')}`;
}

/** Crypto 1e-8 units -> "20.00000000". */
export const formatCryptoUnits = (units: bigint): string => formatFixed(units, CRYPTO_DECIMALS);
/** Rate 1e-4 units -> "1.0002". */
export const formatRate = (units: bigint | number): string => formatFixed(BigInt(units), RATE_DECIMALS);

const CRYPTO_TEXT = /^(\d{1,12})(?:\.(\d+))?$/;

/** "20.5" -> 2050000000n; null when not a plain non-negative decimal with at most 8 places. */
export function parseCryptoUnits(text: string): bigint | null {
  const match = CRYPTO_TEXT.exec(text.trim());
  if (!match || (match[2] ?? '').length > CRYPTO_DECIMALS) return null;
  return BigInt(match[1]) * 10n ** 8n + BigInt((match[2] ?? '').padEnd(CRYPTO_DECIMALS, '0'));
}

/** "1.0002" -> 10002n. */
export function parseRateUnits(text: string): bigint | null {
  const match = /^(\d{1,6})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  return BigInt(match[1]) * 10_000n + BigInt((match[2] ?? '').padEnd(RATE_DECIMALS, '0'));
}

/** A JSON number as its plain decimal text (no exponent), or null if that is not exact. */
function numberText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const plain = value.toString();
  if (!/e/i.test(plain)) return plain;
  const fixed = value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
  return Number(fixed) === value ? fixed : null;
}

// ---------- request schemas (SPEC §5 messages) ----------

export const cryptoTypeField = z.enum(CRYPTO_TYPES, { error: 'Crypto type must be USDC or USDT' });

/**
 * A crypto amount as text or number: must be above 0 ('Please enter a valid crypto amount')
 * with at most 8 decimals ('Invalid crypto amount format'). Normalized to a string.
 */
export const cryptoAmountField = z
  .union([z.string(), z.number()], { error: 'Please enter a valid crypto amount' })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? numberText(value) : value.trim();
    const parsed = text === null ? NaN : Number(text);
    if (text === null || text === '' || !Number.isFinite(parsed) || parsed <= 0) {
      ctx.addIssue({ code: 'custom', message: 'Please enter a valid crypto amount' });
      return z.NEVER;
    }
    const units = parseCryptoUnits(text);
    if (units === null) {
      ctx.addIssue({ code: 'custom', message: 'Invalid crypto amount format' });
      return z.NEVER;
    }
    if (units <= 0n) {
      ctx.addIssue({ code: 'custom', message: 'Please enter a valid crypto amount' });
      return z.NEVER;
    }
    return formatCryptoUnits(units);
  });

const walletAddress = (required: string) =>
  text({ error: required })
    .trim()
    .min(1, required)
    .max(128, 'Please enter a valid wallet address')
    .regex(/^[A-Za-z0-9]+$/, 'Please enter a valid wallet address');

export const calculateConversionSchema = z.object({ cryptoAmount: cryptoAmountField, cryptoType: cryptoTypeField });
export type CalculateConversionRequest = z.input<typeof calculateConversionSchema>;

export const registerWalletSchema = z.object({
  cryptoType: cryptoTypeField,
  walletAddress: walletAddress('Please enter a valid wallet address'),
});
export type RegisterWalletRequest = z.input<typeof registerWalletSchema>;

/** The crypto deposit schema: type, amount (up to 8 places), address. */
export const convertSchema = z.object({
  cryptoAmount: cryptoAmountField,
  cryptoType: cryptoTypeField,
  walletAddress: walletAddress('Wallet address is required'),
});
export type ConvertRequest = z.input<typeof convertSchema>;

// ---------- answers ----------

export type CryptoRates = Record<CryptoType, string> & { updatedAt: string };

export interface CryptoWallet {
  id: string;
  cryptoType: CryptoType;
  walletAddress: string;
  balance: string;
  isActive: boolean;
  createdAt: string;
}

export interface ConversionPreview {
  cryptoAmount: string;
  cryptoType: CryptoType;
  exchangeRate: string;
  grossUsdAmount: string;
  serviceFeeAmount: string;
  serviceFeePercent: string;
  netUsdAmount: string;
  isValidMinimum: boolean;
}

export type TransactionStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';

export interface ConvertResponse {
  message: string;
  /** The new conversion's number (its ConversionRecord.id). */
  conversionId: number;
  transactionId: string;
  status: TransactionStatus;
  preview: ConversionPreview;
}

/** SPEC §3 conversion history record. */
export interface ConversionRecord {
  /**
   * The conversion's number, a positive integer (what /api/subscribe/crypto takes as
   * conversionId). Null only for a conversion requested before numbers existed.
   */
  id: number | null;
  /** The crypto transaction behind it (internal uuid). */
  transactionId: string;
  cryptoType: CryptoType;
  cryptoAmount: string;
  usdAmount: string;
  netAmount: string;
  exchangeRate: string;
  feeAmount: string;
  status: TransactionStatus;
  createdAt: string;
  usedForSubscription: boolean;
  subscriptionMonths: number | null;
}

export interface CryptoBalance {
  totalUsd: string;
  conversions: ConversionRecord[];
}
