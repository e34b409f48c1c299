import { z } from 'zod';
import { text } from './text';

/** The site plan over HTTP (SPEC §2, §7): the 6-month plan from the balance, age verification, access. */

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

export interface MembershipActionResult {
  success: boolean;
  message: string;
}

// The access rule lives in a zod-free module the web client's first load can import.
export { hasSiteAccess } from './site-access';
