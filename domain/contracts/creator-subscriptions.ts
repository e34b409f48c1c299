import { z } from 'zod';
import { text } from './text';

/** HTTP payloads of a member's creator subscriptions over time (issue 21), shared by API and web. */

export type CreatorSubscriptionStatus = 'active' | 'canceled' | 'past_due' | 'expired' | 'refunded';

/** One subscription as its member sees it ("My subscriptions", the creator page's controls). */
export interface MemberSubscription {
  id: string;
  creatorId: string;
  creatorName: string;
  creatorAvatarUrl: string | null;
  tierId: string;
  tierName: string;
  /** What the current period was charged: USD string with 2 decimals ("0.00" on a trial). */
  price: string;
  status: CreatorSubscriptionStatus;
  startedAt: string;
  /** The paid period's end. */
  periodEnd: string;
  /** When the next charge is tried (active: the period end; past due: the next retry); null when it will not renew. */
  renewsAt: string | null;
  /** When access ends unless renewed (canceled, past due: the grace end, expired, refunded); null while active. */
  endsAt: string | null;
  /** The tier charged from the next period on, when the member changed it. */
  nextTier: { tierId: string; tierName: string; price: string } | null;
  /** The money-back guarantee may still be claimed until then (7 days after the last charge); null when not. */
  refundableUntil: string | null;
  /** How renewals are paid: the card on file, or the USD balance (the member's choice). */
  renewFrom: RenewalSource;
}

export type RenewalSource = 'card' | 'balance';

export interface MemberSubscriptions {
  subscriptions: MemberSubscription[];
}

export const changeTierSchema = z.object({
  tierId: text({ error: 'Tier is required' }).trim().min(1, 'Tier is required').max(100),
});

/** POST /api/subscriptions/:id/renewal-source: how the next renewals are paid. */
export const renewalSourceSchema = z.object({
  source: z.enum(['card', 'balance'], { error: 'Choose card or balance' }),
});
