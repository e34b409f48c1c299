import { PerUserRateLimit } from './rate-limits';

describe('PerUserRateLimit', () => {
  it('allows a minute’s worth at once, then one more per 60/perMinute seconds, per user', () => {
    const joins = new PerUserRateLimit(30);
    for (let i = 0; i < 30; i++) expect(joins.take('a', 0)).toBe(true);
    expect(joins.take('a', 0)).toBe(false);
    expect(joins.take('b', 0)).toBe(true); // another user has a bucket of their own
    expect(joins.take('a', 1999)).toBe(false);
    expect(joins.take('a', 2000)).toBe(true); // 60 s / 30 = one join every 2 s
    expect(joins.take('a', 2000)).toBe(false);
    for (let i = 0; i < 30; i++) expect(joins.take('a', 62_000)).toBe(true);
    expect(joins.take('a', 62_000)).toBe(false);
  });

  it('forgets only the users whose bucket has filled up again', () => {
    const skips = new PerUserRateLimit(60);
    skips.take('a', 0);
    skips.take('b', 30_000);
    skips.sweep(60_000);
    expect(skips.size()).toBe(1);
    skips.sweep(90_000);
    expect(skips.size()).toBe(0);
  });

  it('limits nothing with Infinity (load generators)', () => {
    const unlimited = new PerUserRateLimit(Infinity);
    for (let i = 0; i < 1000; i++) expect(unlimited.take('a', 0)).toBe(true);
    expect(unlimited.size()).toBe(0);
  });
});
