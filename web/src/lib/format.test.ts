import {
  clockDuration,
  countOf,
  formatDate,
  formatDateTime,
  formatMonthDay,
  formatTime,
  setReaderTimeZone,
  timeAgo,
  usd,
  usdShort,
} from './format';

// Local times, so the expectations hold in any time zone the tests run in.
const local = (year: number, month: number, day: number, hours = 12, minutes = 0) =>
  new Date(year, month, day, hours, minutes).toISOString();

describe('dates', () => {
  it('writes a day as "12 Jan 2027", every month with the same short English name', () => {
    expect(formatDate(local(2027, 0, 12))).toBe('12 Jan 2027');
    expect(formatDate(local(2025, 8, 18))).toBe('18 Sep 2025');
    expect(formatDate(local(2026, 11, 1))).toBe('1 Dec 2026');
    expect(formatDate(new Date(2026, 4, 31, 23, 59))).toBe('31 May 2026');
  });

  it('reads a calendar day without a time as that day in any time zone', () => {
    expect(formatDate('2027-01-12')).toBe('12 Jan 2027');
    expect(formatMonthDay('2026-03-05')).toBe('Mar 5');
  });

  it('writes a moment as "12 Jan 2027, 14:05" and a time as 24-hour "09:05"', () => {
    expect(formatDateTime(local(2027, 0, 12, 14, 5))).toBe('12 Jan 2027, 14:05');
    expect(formatTime(local(2027, 0, 12, 9, 5))).toBe('09:05');
    expect(formatTime(local(2027, 0, 12, 0, 0))).toBe('00:00');
  });

  it('writes Next Payout as month and day (SPEC §2)', () => {
    expect(formatMonthDay(local(2026, 2, 5))).toBe('Mar 5');
  });

  it("writes a moment in the reader's time zone when a server renders the page for them", () => {
    try {
      setReaderTimeZone(() => 'Pacific/Auckland'); // UTC+13 in January
      expect(formatDateTime('2027-01-12T11:30:00Z')).toBe('13 Jan 2027, 00:30');
      expect(formatMonthDay('2027-01-12T11:30:00Z')).toBe('Jan 13');
      setReaderTimeZone(() => 'America/Los_Angeles'); // UTC-8
      expect(formatDateTime('2027-01-12T07:05:00Z')).toBe('11 Jan 2027, 23:05');
      expect(formatDate('2027-01-12')).toBe('12 Jan 2027'); // a calendar day stays that day
    } finally {
      setReaderTimeZone(() => undefined);
    }
  });

  it('says how long ago for the last week, then the day', () => {
    const now = new Date(2027, 0, 12, 12).getTime();
    const before = (ms: number) => new Date(now - ms).toISOString();
    expect(timeAgo(before(30_000), now)).toBe('just now');
    expect(timeAgo(before(5 * 60_000), now)).toBe('5m ago');
    expect(timeAgo(before(3 * 3_600_000), now)).toBe('3h ago');
    expect(timeAgo(before(2 * 86_400_000), now)).toBe('2d ago');
    expect(timeAgo(before(8 * 86_400_000), now)).toBe('4 Jan 2027');
    expect(timeAgo(null, now)).toBe('');
  });

  it('gives the fallback for a missing or unreadable date', () => {
    for (const format of [formatDate, formatDateTime, formatTime, formatMonthDay]) {
      expect(format(null)).toBe('');
      expect(format(undefined, 'N/A')).toBe('N/A');
      expect(format('', '—')).toBe('—');
      expect(format('not a date', 'N/A')).toBe('N/A');
    }
  });
});

describe('money and counts', () => {
  it('usd shows two decimals and $0.00 for nothing', () => {
    expect(usd('12.3')).toBe('$12.30');
    expect(usd(null)).toBe('$0.00');
    expect(usd('x')).toBe('$0.00');
  });

  it("usdShort drops whole dollars' cents and puts the sign before the $", () => {
    expect(usdShort(6)).toBe('$6');
    expect(usdShort(2.5)).toBe('$2.50');
    expect(usdShort(-2)).toBe('-$2');
    expect(usdShort(-1.99)).toBe('-$1.99');
    expect(usdShort(0)).toBe('$0');
  });

  it('countOf puts the noun in the right number', () => {
    expect(countOf(1, 'post')).toBe('1 post');
    expect(countOf(2, 'post')).toBe('2 posts');
    expect(countOf(0, 'child', 'children')).toBe('0 children');
  });

  it('clockDuration writes a video length as players do', () => {
    expect(clockDuration(7)).toBe('0:07');
    expect(clockDuration(2.4)).toBe('0:02');
    expect(clockDuration(754)).toBe('12:34');
    expect(clockDuration(3725)).toBe('1:02:05');
  });
});
