/** "12.34" or 12.34 → "$12.34"; a missing or unparsable amount shows as $0.00. */
export function usd(amount: string | number | undefined | null): string {
  const value = Number(amount ?? 0);
  return `$${(Number.isFinite(value) ? value : 0).toFixed(2)}`;
}

/** 1 → "1 post", 2 → "2 posts" (English count with the noun in the right number). */
export function countOf(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
