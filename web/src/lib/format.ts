/** "12.34" or 12.34 → "$12.34"; a missing or unparsable amount shows as $0.00. */
export function usd(amount: string | number | undefined | null): string {
  const value = Number(amount ?? 0);
  return `$${(Number.isFinite(value) ? value : 0).toFixed(2)}`;
}

/** Dollars where space is short (chart axes, preset amounts): 6 → "$6", 2.5 → "$2.50", -2 → "-$2". */
export function usdShort(amount: number): string {
  const text = usd(Math.abs(amount)).replace(/\.00$/, '');
  return amount < 0 ? `-${text}` : text;
}

/** 1 → "1 post", 2 → "2 posts" (English count with the noun in the right number). */
export function countOf(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A video's length as players show it: 7 → "0:07", 754 → "12:34", 3725 → "1:02:05". */
export function clockDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const [hours, minutes, secs] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (value: number) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(secs)}` : `${minutes}:${pad(secs)}`;
}

/**
 * Dates: one way to write each kind of fact, in the reader's time zone, with fixed English month
 * names (the locale's own would differ between browsers, e.g. 'Sep' and 'Sept').
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

type DateInput = string | number | Date | null | undefined;

/** A calendar day with no time ("2027-01-12") is that day wherever the reader is, not UTC midnight. */
const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A moment as the reader's calendar and clock show it (month 0-11). */
interface Parts {
  year: number;
  month: number;
  day: number;
  hours: number;
  minutes: number;
}

/**
 * The reader's time zone when it is not this runtime's own: a page rendered on the server for a
 * member (web/src/app/member-page.tsx) is written in the zone their browser reported, so the
 * browser adopts the same text. Undefined in the browser: the local clock is the reader's.
 */
let readerTimeZone: () => string | undefined = () => undefined;

/** @public (set by the server-side renderer, web/src/app/member-page.tsx) */
export function setReaderTimeZone(zone: () => string | undefined): void {
  readerTimeZone = zone;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function inZone(date: Date, timeZone: string): Parts {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    const fields = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' } as const;
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', ...fields });
    zoneFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(date);
  const value = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
  return {
    year: value('year'),
    month: value('month') - 1,
    day: value('day'),
    hours: value('hour'),
    minutes: value('minute'),
  };
}

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

function partsOf(value: DateInput): Parts | null {
  const day = typeof value === 'string' ? DAY_ONLY.exec(value) : null;
  if (day) return { year: Number(day[1]), month: Number(day[2]) - 1, day: Number(day[3]), hours: 0, minutes: 0 };
  const date = toDate(value);
  if (!date) return null;
  const zone = readerTimeZone();
  if (zone) return inZone(date, zone);
  return {
    year: date.getFullYear(),
    month: date.getMonth(),
    day: date.getDate(),
    hours: date.getHours(),
    minutes: date.getMinutes(),
  };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** A day: "12 Jan 2027" (member since, post date, payout date, conversion date); `fallback` when missing. */
export function formatDate(value: DateInput, fallback = ''): string {
  const parts = partsOf(value);
  return parts ? `${parts.day} ${MONTHS[parts.month]} ${parts.year}` : fallback;
}

/** A time of day, 24-hour: "14:05". */
export function formatTime(value: DateInput, fallback = ''): string {
  const parts = partsOf(value);
  return parts ? `${twoDigits(parts.hours)}:${twoDigits(parts.minutes)}` : fallback;
}

/** A moment: "12 Jan 2027, 14:05". */
export function formatDateTime(value: DateInput, fallback = ''): string {
  return partsOf(value) ? `${formatDate(value)}, ${formatTime(value)}` : fallback;
}

/** Month and day only, as SPEC §2 asks of Next Payout: "Mar 5". */
export function formatMonthDay(value: DateInput, fallback = ''): string {
  const parts = partsOf(value);
  return parts ? `${MONTHS[parts.month]} ${parts.day}` : fallback;
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
