import { z } from 'zod';
import type { MemberSubscription } from './creator-subscriptions';
import { text } from './text';

/** HTTP payloads of creators, tiers and creator subscriptions (SPEC §3, §5, §9), shared by API and web. */

export const DEFAULT_CREATOR_BIO = 'Content creator sharing amazing experiences';

const optionalUrl = (message: string) =>
  text()
    .trim()
    .max(2000, message)
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(z.url(message).optional());

export const registerCreatorSchema = z.object({
  bio: text({ error: 'Bio is required' }).trim().min(1, 'Bio is required').max(2000, 'Bio too long'),
  coverImageUrl: optionalUrl('Cover image must be a valid URL'),
});

/**
 * PUT /api/creators/me/watermark, and the answer of it and of GET: whether images served to
 * anyone but the creator carry the page name and a code naming the viewer (issue 18).
 */
export const watermarkSettingSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});
export type WatermarkSetting = z.infer<typeof watermarkSettingSchema>;

/** GET /api/creators: a search text (names and bios) and how many. */
export const creatorSearchSchema = z.object({
  q: text().max(200, 'Search is too long').optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/** USD with at most 2 decimals, from a string or number: becomes integer cents. */
export const usdPriceField = z
  .union([z.string(), z.number()], { error: 'Price is required' })
  .transform((value) => String(value).trim())
  .pipe(z.string().regex(/^\d{1,6}(\.\d{1,2})?$/, 'Price must be an amount like 9.99'))
  .transform((value) => Math.round(Number(value) * 100))
  .pipe(z.number().int().min(100, 'Price must be at least 1.00').max(99_999_99, 'Price too high'));

export const tierSchema = z.object({
  name: text({ error: 'Tier name is required' }).trim().min(1, 'Tier name is required').max(60, 'Tier name too long'),
  description: text().trim().max(500, 'Description too long').optional().default(''),
  price: usdPriceField,
  features: z
    .array(text().trim().min(1).max(120, 'Feature too long'))
    .max(20, 'At most 20 features')
    .optional()
    .default([]),
});
export type TierRequest = z.input<typeof tierSchema>;

export const subscribeSchema = z.object({
  creatorId: text({ error: 'Creator is required' }).trim().min(1, 'Creator is required').max(100),
  tierId: text({ error: 'Tier is required' }).trim().min(1, 'Tier is required').max(100),
  /** A promotion's share link (issue 21): a trial or a first-month discount for the first period. */
  promotionId: z.uuid({ error: 'Promotion not found' }).optional(),
});

/** A creator as any member sees them: no email address (names fall back to 'Creator'). */
export interface Creator {
  id: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  bio: string;
  coverImageUrl: string | null;
  profileImageUrl: string | null;
  /** Cheapest tier, else the default label: USD string with 2 decimals. */
  price: string;
  postCount: number;
  subscriberCount: number;
  /** Identity verified (issue 20): the "Verified" badge beside the name. */
  verified: boolean;
}

export interface Tier {
  id: string;
  creatorId: string;
  name: string;
  description: string;
  price: string;
  features: string[];
  popular: boolean;
  /** A fallback tier shown while the creator has none (SPEC §9). */
  isDefault: boolean;
}

export interface CreatorStats {
  totalEarnings: string;
  subscriberCount: number;
  postCount: number;
  /** Percent with one decimal; see ENGAGEMENT_RATE_DEFINITION. */
  engagementRate: number;
}

export const ENGAGEMENT_RATE_DEFINITION =
  'Engagement = likes + comments on your posts ÷ (posts × subscribers) × 100; 0% when you have no posts or no subscribers.';

export interface SubscriptionCheck {
  subscribed: boolean;
  tierId?: string | null;
  endDate?: string | null;
  /** The running subscription's state (renewal, cancel, tier change, money-back), when subscribed. */
  subscription?: MemberSubscription | null;
}
