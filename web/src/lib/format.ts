/** "12.34" or 12.34 → "$12.34"; a missing or unparsable amount shows as $0.00. */
export function usd(amount: string | number | undefined | null): string {
  const value = Number(amount ?? 0);
  return `$${(Number.isFinite(value) ? value : 0).toFixed(2)}`;
}

/** 1 → "1 post", 2 → "2 posts" (English count with the noun in the right number). */
export function countOf(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * Dates: one way to write each kind of fact, in the reader's time zone, with fixed English month
 * names (the locale's own would differ between browsers, e.g. 'Sep' and 'Sept').
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

type DateInput = string | number | Date | null | undefined;

/** A calendar day with no time ("2027-01-12") is that day wherever the reader is, not UTC midnight. */
const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const day = typeof value === 'string' ? DAY_ONLY.exec(value) : null;
  const date = day
    ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]))
    : value instanceof Date
      ? value
      : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** A day: "12 Jan 2027" (member since, post date, payout date, conversion date); `fallback` when missing. */
export function formatDate(value: DateInput, fallback = ''): string {
  const date = toDate(value);
  return date ? `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}` : fallback;
}

/** A time of day, 24-hour: "14:05". */
export function formatTime(value: DateInput, fallback = ''): string {
  const date = toDate(value);
  return date ? `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}` : fallback;
}

/** A moment: "12 Jan 2027, 14:05". */
export function formatDateTime(value: DateInput, fallback = ''): string {
  const date = toDate(value);
  return date ? `${formatDate(date)}, ${formatTime(date)}` : fallback;
}

/** Month and day only, as SPEC §2 asks of Next Payout: "Mar 5". */
export function formatMonthDay(value: DateInput, fallback = ''): string {
  const date = toDate(value);
  return date ? `${MONTHS[date.getMonth()]} ${date.getDate()}` : fallback;
}

/** How long ago, for fresh things (notifications): "just now", "5m ago", "3h ago", "2d ago", then the day. */
export function timeAgo(value: DateInput, now = Date.now()): string {
  const date = toDate(value);
  if (!date) return '';
  const minutes = Math.floor((now - date.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes}m ago`;
  if (minutes < 24 * 60) return `${Math.floor(minutes / 60)}h ago`;
  if (minutes < 7 * 24 * 60) return `${Math.floor(minutes / (24 * 60))}d ago`;
  return formatDate(date);
}
