import { z } from 'zod';
import { sendMessageSchema } from './messaging';
import { text } from './text';

/** HTTP payloads of mass messages (issue 21), shared by API and web. */

export const MASS_MESSAGE_SEGMENTS = ['active', 'tier', 'lapsed'] as const;
export type MassMessageSegmentKind = (typeof MASS_MESSAGE_SEGMENTS)[number];
export const LAPSED_WITHIN_DAYS = 90;

/** Content, price and media follow the rules of an ordinary paid message. */
export const sendMassMessageSchema = sendMessageSchema
  .omit({ receiverId: true })
  .extend({
    segment: z.enum(MASS_MESSAGE_SEGMENTS, { error: 'Choose who receives it' }),
    tierId: text().trim().max(100).optional().nullable(),
  })
  .refine((body) => body.segment !== 'tier' || !!body.tierId, {
    message: 'Choose a tier',
    path: ['tierId'],
  });
export type SendMassMessageRequest = z.input<typeof sendMassMessageSchema>;

/** A mass message as its creator sees it, with how it did. */
export interface MassMessageSummary {
  id: string;
  content: string;
  segment: MassMessageSegmentKind;
  /** The tier's name for a tier segment. */
  tierName: string | null;
  /** USD price of a pay-per-view message, e.g. "4.99"; null when free. */
  price: string | null;
  mediaCount: number;
  recipients: number;
  /** Recipients whose conversation shows it (all of them once delivered). */
  sent: number;
  delivered: boolean;
  unlocked: number;
  /** What the unlocks paid, gross (the creator earns 90%). */
  revenue: string;
  createdAt: string;
}
