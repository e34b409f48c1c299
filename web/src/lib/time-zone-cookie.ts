import { TIME_ZONE_COOKIE } from '@contracts/member-pages';

const OFFSET_KEY = 'tz-offset';

/**
 * The browser's time zone, for the server to write dates in when it renders a page for this
 * member (api/http/member-pages.ts reads the cookie), kept a year. Set again whenever the cookie
 * is gone or the UTC offset differs from the one it was set at (a trip, daylight saving time):
 * the zone's name costs Intl's first use, a long task on a phone; the offset and cookie are cheap.
 */
export function rememberTimeZone(): void {
  const offset = String(new Date().getTimezoneOffset());
  const known = document.cookie.split('; ').some((pair) => pair.startsWith(`${TIME_ZONE_COOKIE}=`));
  if (known && localStorage.getItem(OFFSET_KEY) === offset) return;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone) return;
  document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
  localStorage.setItem(OFFSET_KEY, offset);
}
