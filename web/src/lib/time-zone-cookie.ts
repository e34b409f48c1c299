import { TIME_ZONE_COOKIE } from '@contracts/member-pages';

const OFFSET_KEY = 'tz-offset';
/** The worker that names the zone (web/public/time-zone.js). */
const ZONE_WORKER = '/time-zone.js';

/**
 * The browser's time zone, for the server to write dates in when it renders a page for this
 * member (api/http/member-pages.ts reads the cookie), kept a year. Set again whenever the cookie
 * is gone or the UTC offset differs from the one it was set at (a trip, daylight saving time):
 * the offset and cookie are cheap, the zone's name is not (see `zoneName`).
 */
export async function rememberTimeZone(): Promise<void> {
  const offset = String(new Date().getTimezoneOffset());
  const known = document.cookie.split('; ').some((pair) => pair.startsWith(`${TIME_ZONE_COOKIE}=`));
  if (known && localStorage.getItem(OFFSET_KEY) === offset) return;
  const zone = await zoneName();
  if (!zone) return;
  document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
  localStorage.setItem(OFFSET_KEY, offset);
}

/**
 * Intl's first use in a page loads its time zone data: 25-40 ms on a desktop CPU, a long task of
 * 100-150 ms on a phone's CPU (measured at 4x throttling), on a member's first visit. A worker
 * asks in a thread of its own; where none can start, the page asks itself.
 */
function zoneName(): Promise<string | undefined> {
  const here = () => Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  if (typeof Worker === 'undefined') return Promise.resolve(here());
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(ZONE_WORKER);
    } catch {
      return resolve(here()); // a browser that refuses it outright (its policy, say)
    }
    const answer = (zone: string | undefined) => {
      worker.terminate();
      resolve(zone);
    };
    worker.onmessage = (message: MessageEvent<unknown>) =>
      answer(typeof message.data === 'string' && message.data ? message.data : here());
    worker.onerror = () => answer(here());
  });
}
