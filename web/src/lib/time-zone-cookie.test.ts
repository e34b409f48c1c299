import { TIME_ZONE_COOKIE } from '@contracts/member-pages';
import { rememberTimeZone } from './time-zone-cookie';

const zoneCookie = () => document.cookie.split('; ').find((pair) => pair.startsWith(`${TIME_ZONE_COOKIE}=`));

describe('rememberTimeZone', () => {
  let asked: jest.SpyInstance;

  beforeEach(() => {
    document.cookie = `${TIME_ZONE_COOKIE}=; max-age=0; path=/`;
    localStorage.clear();
    asked = jest.spyOn(Intl, 'DateTimeFormat');
  });
  afterEach(() => jest.restoreAllMocks());

  it('sets the cookie to the zone on a first visit', async () => {
    await rememberTimeZone();
    const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(zoneCookie()).toBe(`${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`);
  });

  it('does not ask Intl again while the cookie is there and the offset is the same', async () => {
    await rememberTimeZone();
    asked.mockClear();
    await rememberTimeZone();
    expect(asked).not.toHaveBeenCalled();
  });

  it('asks again when the offset changed, or the cookie is gone', async () => {
    await rememberTimeZone();
    localStorage.setItem('tz-offset', '12345');
    asked.mockClear();
    await rememberTimeZone();
    expect(asked).toHaveBeenCalledTimes(1);
    document.cookie = `${TIME_ZONE_COOKIE}=; max-age=0; path=/`;
    await rememberTimeZone();
    expect(asked).toHaveBeenCalledTimes(2);
    expect(zoneCookie()).toBeDefined();
  });

  describe('in a browser with workers', () => {
    /** A worker as the browser runs web/public/time-zone.js: it answers once, fails to start, or is refused. */
    class ZoneWorker {
      static answer: string | null = 'Pacific/Auckland';
      static refused = false;
      static started: string[] = [];
      static terminated = 0;
      onmessage: ((message: MessageEvent<unknown>) => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(url: string) {
        if (ZoneWorker.refused) throw new DOMException('Refused by policy', 'SecurityError');
        ZoneWorker.started.push(url);
        setTimeout(() =>
          ZoneWorker.answer === null
            ? this.onerror?.()
            : this.onmessage?.(new MessageEvent('message', { data: ZoneWorker.answer })),
        );
      }
      terminate() {
        ZoneWorker.terminated++;
      }
    }

    beforeEach(() => {
      ZoneWorker.answer = 'Pacific/Auckland';
      ZoneWorker.refused = false;
      ZoneWorker.started = [];
      ZoneWorker.terminated = 0;
      (globalThis as { Worker?: unknown }).Worker = ZoneWorker;
    });
    afterEach(() => delete (globalThis as { Worker?: unknown }).Worker);

    it("takes the worker's answer, and the page never asks Intl itself", async () => {
      await rememberTimeZone();
      expect(ZoneWorker.started).toEqual(['/time-zone.js']);
      expect(ZoneWorker.terminated).toBe(1);
      expect(asked).not.toHaveBeenCalled();
      expect(zoneCookie()).toBe(`${TIME_ZONE_COOKIE}=${encodeURIComponent('Pacific/Auckland')}`);
    });

    it('asks Intl itself when the browser refuses to make the worker', async () => {
      ZoneWorker.refused = true;
      await rememberTimeZone();
      expect(asked).toHaveBeenCalledTimes(1);
      expect(zoneCookie()).toBeDefined();
    });

    it('asks Intl itself when the worker cannot start', async () => {
      ZoneWorker.answer = null;
      await rememberTimeZone();
      expect(asked).toHaveBeenCalledTimes(1);
      expect(ZoneWorker.terminated).toBe(1);
      expect(zoneCookie()).toBe(
        `${TIME_ZONE_COOKIE}=${encodeURIComponent(new Intl.DateTimeFormat().resolvedOptions().timeZone)}`,
      );
    });
  });
});
