/** "12.34" or 12.34 → "$12.34"; a missing or unparsable amount shows as $0.00. */
export function usd(amount: string | number | undefined | null): string {
  const value = Number(amount ?? 0);
  return `$${(Number.isFinite(value) ? value : 0).toFixed(2)}`;
}
