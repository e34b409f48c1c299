import { z } from 'zod';
import { text } from './text';

/**
 * Promotions (issue 21): a creator's offer on one tier, a free trial of N days or a percentage
 * off the first month, limited in count and time and shared as a link. Renewals are always at
 * the tier's price. Shared by the API and the web client.
 */

export const PROMOTION_LIMITS = {
  trialDays: { min: 1, max: 90 },
  percentOff: { min: 5, max: 90 },
  maxRedemptions: { min: 1, max: 100_000 },
  /** How far ahead a promotion may end. */
  longestRunDays: 365,
} as const;

/** A discount is a percentage of the tier's price (not a fixed price), so it holds when the price changes. */
export function discountedCents(priceCents: number, percentOff: number): number {
  // Integer cents throughout: round half up to the cent.
  return Math.floor((priceCents * (100 - percentOff) + 50) / 100);
}

const whole = (name: string, { min, max }: { min: number; max: number }) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be between ${min} and ${max}`)
    .max(max, `${name} must be between ${min} and ${max}`);

const common = {
  tierId: text({ error: 'Tier is required' }).trim().min(1, 'Tier is required').max(100),
  maxRedemptions: whole('Max redemptions', PROMOTION_LIMITS.maxRedemptions),
  endsAt: z.iso.datetime({ offset: true, error: 'End date must be a date and time' }),
};

/** POST /api/creators/me/promotions. */
export const createPromotionSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('trial'), trialDays: whole('Trial days', PROMOTION_LIMITS.trialDays), ...common }),
    z.object({
      kind: z.literal('discount'),
      percentOff: whole('Percent off', PROMOTION_LIMITS.percentOff),
      ...common,
    }),
  ],
  { error: 'Kind must be trial or discount' },
);
export type CreatePromotionRequest = z.input<typeof createPromotionSchema>;

export type PromotionKind = 'trial' | 'discount';
/** `used_up`: every redemption taken; `expired`: past its end date; `ended`: the creator ended it. */
export type PromotionStatus = 'active' | 'ended' | 'expired' | 'used_up';

/** A promotion as its creator sees it (GET /api/creators/me/promotions). */
export interface PromotionView {
  id: string;
  creatorId: string;
  tierId: string;
  tierName: string;
  kind: PromotionKind;
  /** Trials only. */
  trialDays: number | null;
  /** Discounts only. */
  percentOff: number | null;
  maxRedemptions: number;
  redemptions: number;
  remaining: number;
  endsAt: string;
  endedAt: string | null;
  createdAt: string;
  status: PromotionStatus;
}

/** The offer behind a share link (GET /api/promotions/:id), for any member. */
export interface PromotionOffer {
  id: string;
  creatorId: string;
  creatorName: string;
  tierId: string;
  tierName: string;
  kind: PromotionKind;
  trialDays: number | null;
  percentOff: number | null;
  /** The tier's monthly price now, USD with 2 decimals: every renewal is charged this. */
  price: string;
  /** What the first period costs: '0.00' for a trial. */
  firstPeriodPrice: string;
  remaining: number;
  endsAt: string;
  status: PromotionStatus;
}
