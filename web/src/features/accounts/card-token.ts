import { nanoid } from '@reduxjs/toolkit';
import { DEV_TOKEN_PREFIX, manualCardSchema } from '@contracts/accounts';
import { fieldErrors } from './field-errors';

export interface CardFields {
  cardNumber: string;
  expiry: string;
  cvv: string;
}

/**
 * SPEC §4: without a card provider's tokenization script on the page, the manual checks of
 * SPEC §5 run and a development placeholder token (`dev_tok_` + random suffix) stands in.
 * The card fields themselves never leave the browser. `now` decides whether the card has expired.
 */
export function tokenizeCard(card: CardFields, now: Date): { token: string } | { errors: Record<string, string> } {
  const parsed = manualCardSchema(now).safeParse(card);
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  return { token: `${DEV_TOKEN_PREFIX}${nanoid(24)}` };
}

/** "4242424242424242" -> "4242 4242 4242 4242" (digits only, at most 19). */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1228" -> "12/28"; keeps what the user typed when it is already MM/YY. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}
