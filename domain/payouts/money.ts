/** The payout money rules in one place: the 90/10 split, the hold, the processing fee. */

export const PLATFORM_FEE_PERCENT = 10;
/** Chargeback hold: earnings stay pending this long before they can be withdrawn. */
export const EARNINGS_HOLD_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

// The processing fee is part of the contract the web shows: defined once, in domain/contracts.
export { payoutFee } from '../contracts/payouts';

/** Integer split of a sale: the platform fee is 10% rounded half up, the creator gets the rest. */
export function splitEarnings(grossCents: number): { creatorShareCents: number; platformFeeCents: number } {
  const platformFeeCents = Math.floor((grossCents * PLATFORM_FEE_PERCENT + 50) / 100);
  return { creatorShareCents: grossCents - platformFeeCents, platformFeeCents };
}

export function availableAtFor(occurredAt: Date): Date {
  return new Date(occurredAt.getTime() + EARNINGS_HOLD_DAYS * DAY_MS);
}
