import { z } from 'zod';
import { text } from './text';

/** HTTP payloads of tips (issue 21), shared by API and web. */

export const MIN_TIP_CENTS = 100;
export const MAX_TIP_CENTS = 50_000;
export const TIP_RANGE_TEXT = 'A tip is $1.00 to $500.00';
export const BLOCKED_TIP = "You can't tip this creator";
export const TIP_SOURCES = ['card', 'balance'] as const;
export type TipSource = (typeof TIP_SOURCES)[number];

export const tipSchema = z.object({
  creatorId: text({ error: 'Creator is required' }).trim().min(1, 'Creator is required').max(100),
  amountCents: z
    .number({ error: 'Amount is required' })
    .int('Amount must be whole cents')
    .min(MIN_TIP_CENTS, TIP_RANGE_TEXT)
    .max(MAX_TIP_CENTS, TIP_RANGE_TEXT),
  postId: text().trim().max(100).optional().nullable(),
  message: text().trim().max(500, 'At most 500 characters').optional().nullable(),
  source: z.enum(TIP_SOURCES, { error: 'Pay by card or from your balance' }).default('card'),
});
export type TipRequest = z.input<typeof tipSchema>;

/** A tip as its giver sees it once given. */
export interface Tip {
  id: string;
  creatorId: string;
  amount: string;
  postId: string | null;
  message: string | null;
  source: TipSource;
  createdAt: string;
}
