import { z } from 'zod';
import { text } from './text';

/**
 * Member money (SPEC §3, §5, §9): the site plan, the USD balance and crypto conversion.
 * Money is never a float: USD in integer cents, crypto in integer 1e-8 units (bigint), rates
 * in integer 1e-4 units; at the HTTP edge they travel as strings with 2, 8 and 4 decimals.
 */

export const CRYPTO_TYPES = ['USDC', 'USDT'] as const;
export type CryptoType = (typeof CRYPTO_TYPES)[number];

/** The site plan (SPEC §9): $1.99 a month, in cents; the one price constant (sign-up, subscribe, renewal, the 6-month plan). */
export const SITE_PLAN_PRICE_CENTS = 199;
/** 6 × 1.99 = 11.94 for 7 months (one month free). */
export const SIX_MONTH_PLAN = { months: 6, bonusMonths: 1, priceCents: 6 * SITE_PLAN_PRICE_CENTS } as const;
/** Service fee 3.00 % in basis points. */
export const SERVICE_FEE_BASIS_POINTS = 300;
export const MINIMUM_CONVERSION_NET_CENTS = 1000;
export const CRYPTO_DECIMALS = 8;
export const RATE_DECIMALS = 4;
export const RATES_REFRESH_MS = 30_000;

// ---------- fixed-point helpers (shared by API and web): the one formatCents and parseCents ----------

/** 1234 -> "12.34", -5 -> "-0.05"; takes what a bigint column gives too ("1234"). */
export function formatCents(cents: number | bigint | string): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

export interface ParseCentsOptions {
  /** Whether a leading '-' is accepted (default true). */
  signed?: boolean;
  /** At most this many whole-dollar digits (default 13). */
  maxDigits?: number;
}

/** What the payouts edge accepts: no sign, at most 12 whole-dollar digits. */
export const UNSIGNED_CENTS: ParseCentsOptions = { signed: false, maxDigits: 12 };

/**
 * "12.34" / "12.3" / "12" -> cents; null when not a USD amount with at most 2 decimals (no
 * exponent, no spaces inside). By default signed with up to 13 digits; `UNSIGNED_CENTS` for
 * amounts that can never be negative.
 */
export function parseCents(text: string, { signed = true, maxDigits = 13 }: ParseCentsOptions = {}): number | null {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match || (match[1] && !signed) || match[2].length > maxDigits) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

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

export const registerWalletSchema = z.object({ cryptoType: cryptoTypeField, walletAddress: walletAddress('Please enter a valid wallet address') });
export type RegisterWalletRequest = z.input<typeof registerWalletSchema>;

/** The crypto deposit schema: type, amount (up to 8 places), address. */
export const convertSchema = z.object({
  cryptoAmount: cryptoAmountField,
  cryptoType: cryptoTypeField,
  walletAddress: walletAddress('Wallet address is required'),
});
export type ConvertRequest = z.input<typeof convertSchema>;

/** The 6-month plan from the balance. The body may be empty; months, when given, must be 6. */
export const subscribeWithCryptoSchema = z.object({
  months: z.literal(6, { error: 'Only 6-month subscriptions available' }).optional(),
  /** A conversion's number (ConversionRecord.id), spent first. */
  conversionId: z.int({ error: 'Invalid conversion ID' }).positive({ error: 'Invalid conversion ID' }).optional(),
});
export type SubscribeWithCryptoRequest = z.input<typeof subscribeWithCryptoSchema>;

/** Age verification: a card authorization on the card on file, or on a newly tokenized card. */
export const verifyAgeSchema = z.object({
  paymentToken: text().trim().min(1, 'Payment information is required').max(200, 'Invalid payment token').optional(),
});
export type VerifyAgeRequest = z.input<typeof verifyAgeSchema>;

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

export interface MembershipActionResult {
  success: boolean;
  message: string;
}

/**
 * Whether a member may use the site (SPEC §2 gates): an active membership, or a canceled one
 * until its paid period ends, or a past-due one during the renewal grace period (the users
 * read model keeps the moment access ends in subscriptionEndDate).
 */
export function hasSiteAccess(user: { subscriptionStatus: string; subscriptionEndDate?: string | null }, now: Date = new Date()): boolean {
  if (user.subscriptionStatus === 'active') return true;
  if (user.subscriptionStatus !== 'canceled' && user.subscriptionStatus !== 'past_due') return false;
  return !!user.subscriptionEndDate && new Date(user.subscriptionEndDate) > now;
}
