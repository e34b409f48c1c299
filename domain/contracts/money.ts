/**
 * The money kernel (SPEC §3, §5, §9), shared by the server and the web client: USD amounts at
 * the HTTP edge and the site plan's prices. Money is never a float: USD in integer cents, crypto
 * in integer 1e-8 units (`crypto.ts`), rates in integer 1e-4 units; at the HTTP edge they travel
 * as strings with 2, 8 and 4 decimals. Why money moves (the money flows) is
 * `domain/shared/money-flows.ts`.
 */

/** The site plan (SPEC §9): $1.99 a month, in cents; the one price constant (sign-up, subscribe, renewal, the 6-month plan). */
export const SITE_PLAN_PRICE_CENTS = 199;
/** 6 × 1.99 = 11.94 for 7 months (one month free). */
export const SIX_MONTH_PLAN = { months: 6, bonusMonths: 1, priceCents: 6 * SITE_PLAN_PRICE_CENTS } as const;

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

/** What the card processor charges the platform for a chargeback (a dispute it loses), in cents. */
export const CHARGEBACK_FEE_CENTS = 1500;
