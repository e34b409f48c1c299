import type { CreatorShareReversedData } from './events';

/** What a reversal needs to know of each of the creator's earnings. */
interface HeldEarning {
  grossCents: number;
  creatorShareCents: number;
  availableAt: string;
  reversed: boolean;
  cutCents: number;
  reversedGrossCents: number;
}

type Plan = Pick<
  CreatorShareReversedData,
  'grossCents' | 'creatorShareCents' | 'platformFeeCents' | 'fromPending' | 'fromAvailableCents' | 'carriedCents'
>;

/**
 * The creator's share of `given` more cents of a sale given back, when `before` were given back
 * already: proportional to the sale's split and exact in cents (integer division on the running
 * total, so every partial refund adds up to the whole share once the whole sale is given back).
 */
export function shareOfGivenBack(
  sale: { grossCents: number; creatorShareCents: number },
  beforeCents: number,
  givenCents: number,
): number {
  const shareUpTo = (gross: number) =>
    gross >= sale.grossCents ? sale.creatorShareCents : Math.floor((sale.creatorShareCents * gross) / sale.grossCents);
  return shareUpTo(beforeCents + givenCents) - shareUpTo(beforeCents);
}

/**
 * How a reversal is taken: the part of the sale still standing (never more than was sold), its
 * share and fee, and where the share comes from: pending earnings first (the sale's own, then
 * those released soonest), then the available balance, the rest carried below zero.
 * Null when nothing of the sale is left to reverse.
 */
export function planShareReversal(
  earnings: Record<string, HeldEarning>,
  /** The creator's available balance now. */
  availableCents: number,
  command: { reference: string; grossCents: number; now: Date },
): Plan | null {
  const sale = earnings[command.reference];
  if (!sale || sale.reversed) return null;
  const grossCents = Math.min(command.grossCents, sale.grossCents - sale.reversedGrossCents);
  if (grossCents <= 0) return null;
  const creatorShareCents = shareOfGivenBack(sale, sale.reversedGrossCents, grossCents);

  const now = command.now.toISOString();
  const pending = Object.entries(earnings)
    .filter(([, e]) => !e.reversed && e.availableAt > now && e.creatorShareCents > e.cutCents)
    .sort(([refA, a], [refB, b]) => {
      const own = Number(refB === command.reference) - Number(refA === command.reference);
      return own || a.availableAt.localeCompare(b.availableAt) || refA.localeCompare(refB);
    });
  let rest = creatorShareCents;
  const fromPending: Plan['fromPending'] = [];
  for (const [reference, earning] of pending) {
    if (rest === 0) break;
    const cents = Math.min(rest, earning.creatorShareCents - earning.cutCents);
    fromPending.push({ reference, cents });
    rest -= cents;
  }
  const fromAvailableCents = Math.min(rest, Math.max(0, availableCents));
  return {
    grossCents,
    creatorShareCents,
    platformFeeCents: grossCents - creatorShareCents,
    fromPending,
    fromAvailableCents,
    carriedCents: rest - fromAvailableCents,
  };
}
