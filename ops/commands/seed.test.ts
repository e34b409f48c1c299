import { seed } from './seed';
import { openFixture, type Fixture } from '../testing/command-fixtures';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await openFixture();
});
afterAll(() => fixture.close());

it('creates a small living dataset through the API: accounts, creators, tiers, posts, subscriptions, likes, messages, conversions, payouts, chat profiles', async () => {
  const report = await seed(fixture.database.url, { members: 3, creators: 2, postsPerCreator: 2, minEvents: 0 });
  expect(report.failures).toEqual([]);
  const counts = Object.fromEntries(
    (await fixture.db.raw(`SELECT event_type, count(*)::int AS n FROM events GROUP BY event_type`)).rows.map(
      (row: { event_type: string; n: number }) => [row.event_type, row.n],
    ),
  );
  expect(counts.UserRegistered).toBe(6); // 5 people and the finance staff account
  expect(counts.CreatorRegistered).toBe(2);
  expect(report.steps).toMatchObject({
    creators: 2,
    'creator tiers': 2,
    posts: 4,
    'creator subscriptions': expect.any(Number),
    likes: expect.any(Number),
    messages: expect.any(Number),
  });
  expect(report.steps.likes).toBeGreaterThan(0);
  expect(report.events).toBeLessThanOrEqual(Object.values(counts).reduce((a: number, b) => a + (b as number), 0));
  expect(counts.PayoutRequested).toBe(2);
  expect(counts.CryptoConversionRequested).toBeGreaterThan(0);
  // The demo member can sign in and sees the creators.
  const users = await fixture
    .db('users')
    .whereIn('email', ['demo@example.com', 'creator@example.com', 'admin@example.com'])
    .select('email', 'role');
  expect(users.map((u: { email: string }) => u.email).sort()).toEqual([
    'admin@example.com',
    'creator@example.com',
    'demo@example.com',
  ]);
}, 240_000);
