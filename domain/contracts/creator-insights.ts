import { z } from 'zod';
import { text } from './text';

/** HTTP payloads of a creator's insights: their subscribers and their analytics (issue 19), shared by API and web. */

export const SUBSCRIBER_STATUSES = ['active', 'ended'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** GET /api/creators/:id/subscribers: a name search, a status, the cursor of the next page and its size. */
export const subscribersQuerySchema = z.object({
  q: text().max(200, 'Search is too long').optional(),
  status: z.enum(SUBSCRIBER_STATUSES, { error: 'Status must be active or ended' }).optional(),
  cursor: text().max(200, 'Invalid cursor').optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number from 1 to 100' })
    .int('Limit must be a number from 1 to 100')
    .min(1, 'Limit must be a number from 1 to 100')
    .max(100, 'Limit must be a number from 1 to 100')
    .default(25),
});
export type SubscribersQuery = z.input<typeof subscribersQuerySchema>;

/** One member who has subscribed to the creator, with their latest paid period. */
export interface CreatorSubscriber {
  userId: string;
  name: string;
  avatarUrl: string | null;
  /** The tier of the latest subscription. */
  tierName: string;
  /** When they first subscribed. */
  since: string;
  status: SubscriberStatus;
  /** Whether the latest subscription renews (active or retrying a declined renewal), not canceled or ended. */
  renews: boolean;
  /** The paid period's end when it renews… */
  renewsAt?: string;
  /** …or when it ends (or ended). */
  endsAt?: string;
}

export interface SubscribersPage {
  subscribers: CreatorSubscriber[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

export const ANALYTICS_DAYS = [7, 30, 90] as const;
export type AnalyticsDays = (typeof ANALYTICS_DAYS)[number];
export const ANALYTICS_DAYS_MESSAGE = 'days must be 7, 30 or 90';

/** GET /api/creators/:id/analytics?days=7|30|90 (30 when left out). */
export const analyticsQuerySchema = z.object({
  days: z
    .enum(['7', '30', '90'], { error: ANALYTICS_DAYS_MESSAGE })
    .default('30')
    .transform((days) => Number(days) as AnalyticsDays),
});

/** One UTC day of the window; every day is present, zeros included. */
export interface AnalyticsDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** The creator's 90% share of the day's sales (less reversals), integer cents. */
  earningsCents: number;
  /** Members whose subscription started that day (not continuing one that ran until then). */
  subscribersGained: number;
  /** Members whose paid period ended that day without a next one. */
  subscribersLost: number;
  /** Tips received that day, and what they paid (gross integer cents). */
  tips: number;
  tipsCents: number;
  /** Paid messages unlocked that day, and what they paid (gross integer cents). */
  unlocks: number;
  unlocksCents: number;
}

/** Sums over a period of `days` days. */
export interface PeriodTotals {
  earningsCents: number;
  subscribersGained: number;
  subscribersLost: number;
  postsPublished: number;
  /** Likes less unlikes, plus comments, on the creator's posts. */
  interactions: number;
  tips: number;
  tipsCents: number;
  unlocks: number;
  unlocksCents: number;
}

export interface TopPost {
  id: string;
  title: string;
  likeCount: number;
  commentCount: number;
}

export interface CreatorAnalytics {
  days: AnalyticsDays;
  /** First and last day of the window (UTC, inclusive; the last is today). */
  from: string;
  to: string;
  daily: AnalyticsDay[];
  /** This window, and the window of the same length just before it. */
  current: PeriodTotals;
  previous: PeriodTotals;
  /** The creator's five most liked posts (all time). */
  topPosts: TopPost[];
}
