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

  it('sets the cookie to the zone on a first visit', () => {
    rememberTimeZone();
    const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(zoneCookie()).toBe(`${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`);
  });

  it('does not ask Intl again while the cookie is there and the offset is the same', () => {
    rememberTimeZone();
    asked.mockClear();
    rememberTimeZone();
    expect(asked).not.toHaveBeenCalled();
  });

  it('asks again when the offset changed, or the cookie is gone', () => {
    rememberTimeZone();
    localStorage.setItem('tz-offset', '12345');
    asked.mockClear();
    rememberTimeZone();
    expect(asked).toHaveBeenCalledTimes(1);
    document.cookie = `${TIME_ZONE_COOKIE}=; max-age=0; path=/`;
    rememberTimeZone();
    expect(asked).toHaveBeenCalledTimes(2);
    expect(zoneCookie()).toBeDefined();
  });
});
