import { randomUUID } from 'node:crypto';
import { FALLBACK_TIERS } from '../../domain/creators/fallback-tiers';
import { splitEarnings } from '../../domain/payouts/money';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';

/** A creator's subscribers and analytics through HTTP on a real PostgreSQL: owner only, searchable, paged, summed. */
jest.setTimeout(120_000);
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ trustProxy: true });
});
afterAll(() => stack.close());

type Member = TestMember;

const member = (firstName: string, lastName: string) => signUpMember(stack, firstName, { lastName });

const DAY = 86_400_000;
const price = (tierId: string) => FALLBACK_TIERS.find((tier) => tier.tierId === tierId)!.priceCents;
const share = (tierId: string) => splitEarnings(price(tierId)).creatorShareCents;

let owner: Member;
let other: Member;
let subscribers: Member[];
const tiers = ['default-basic', 'default-premium', 'default-basic'];

beforeAll(async () => {
  owner = await member('Olivia', 'Owner');
  other = await member('Oscar', 'Lapsed');
  subscribers = [await member('Alice', 'Anders'), await member('Bob', 'Brown'), await member('Carla', 'Anderson')];
  await owner.agent.post('/api/creators/register').send({ bio: 'Insights' }).expect(201);
  // Oscar subscribed 40 days ago, a month that ended 10 days ago: the previous window gained him, this one lost him.
  const start = new Date(Date.now() - 40 * DAY);
  await stack.store.append(
    `creatorSubscription-${other.id}_${owner.id}`,
    [
      {
        type: 'CreatorSubscriptionStarted',
        data: {
          subscriptionId: randomUUID(),
          subscriberId: other.id,
          creatorId: owner.id,
          tierId: 'default-vip',
          tierName: 'VIP',
          priceCents: price('default-vip'),
          transactionId: 'tx-lapsed',
          startDate: start.toISOString(),
          endDate: new Date(start.getTime() + 30 * DAY).toISOString(),
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  for (const [index, subscriber] of subscribers.entries())
    await subscriber.agent.post('/api/subscriptions').send({ creatorId: owner.id, tierId: tiers[index] }).expect(201);
  expect(await stack.settle()).toBe(true); // earnings are credited by a process manager
});

/** Tips and unlocks (issue 21) are counted too: none here. */
const NO_TIPS_OR_UNLOCKS = { tips: 0, tipsCents: 0, unlocks: 0, unlocksCents: 0 };

describe('GET /api/creators/:id/subscribers', () => {
  const list = (query = '') => owner.agent.get(`/api/creators/${owner.id}/subscribers${query}`).expect(200);

  it('lists every member who subscribed, newest first, with tier, since, status and end', async () => {
    const { body } = await list();
    expect(body.nextCursor).toBeNull();
    expect(body.subscribers.map((s: { name: string }) => s.name)).toEqual([
      'Carla Anderson',
      'Bob Brown',
      'Alice Anders',
      'Oscar Lapsed',
    ]);
    const [carla] = body.subscribers;
    // A running subscription renews at its period's end (issue 21).
    expect(carla).toMatchObject({ userId: subscribers[2].id, tierName: 'Basic', status: 'active', renews: true });
    expect(carla).not.toHaveProperty('endsAt');
    expect(new Date(carla.renewsAt).getTime() - new Date(carla.since).getTime()).toBeGreaterThan(27 * DAY);
    expect(body.subscribers[3]).toMatchObject({ userId: other.id, tierName: 'VIP', status: 'ended' });
    expect(body.subscribers[1].tierName).toBe('Premium');
  });

  it('searches names case-insensitively and filters by status', async () => {
    const names = async (query: string) =>
      (await list(query)).body.subscribers.map((s: { name: string }) => s.name).sort();
    expect(await names('?q=ANDERS')).toEqual(['Alice Anders', 'Carla Anderson']);
    expect(await names('?q=bob%20brown')).toEqual(['Bob Brown']);
    expect(await names('?q=%25')).toEqual([]);
    expect(await names('?status=ended')).toEqual(['Oscar Lapsed']);
    expect(await names('?status=active&q=o')).toEqual(['Bob Brown', 'Carla Anderson']);
  });

  it('pages by cursor without repeating or skipping anyone', async () => {
    const first = (await list('?limit=3')).body;
    expect(first.subscribers).toHaveLength(3);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await list(`?limit=3&cursor=${first.nextCursor}`)).body;
    expect(second.subscribers.map((s: { name: string }) => s.name)).toEqual(['Oscar Lapsed']);
    expect(second.nextCursor).toBeNull();
    const bad = await owner.agent.get(`/api/creators/${owner.id}/subscribers?cursor=nonsense`).expect(400);
    expect(bad.body).toMatchObject({ error: 'Invalid cursor', code: 'VALIDATION_ERROR' });
    await owner.agent.get(`/api/creators/${owner.id}/subscribers?limit=0`).expect(400);
    await owner.agent.get(`/api/creators/${owner.id}/subscribers?status=gone`).expect(400);
  });
});

describe('GET /api/creators/:id/analytics', () => {
  it('sums the earnings and subscribers of the subscriptions made, this window and the previous one', async () => {
    const { body } = await owner.agent.get(`/api/creators/${owner.id}/analytics?days=30`).expect(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(body).toMatchObject({ days: 30, to: today });
    expect(body.daily).toHaveLength(30);
    expect(body.daily.at(-1)).toEqual({
      date: today,
      earningsCents: tiers.reduce((sum, tier) => sum + share(tier), 0),
      subscribersGained: 3,
      subscribersLost: 0,
      ...NO_TIPS_OR_UNLOCKS,
    });
    const sum = (key: string) => body.daily.reduce((total: number, day: Record<string, number>) => total + day[key], 0);
    expect(body.current).toEqual({
      earningsCents: sum('earningsCents'),
      subscribersGained: 3,
      subscribersLost: 1,
      postsPublished: 0,
      interactions: 0,
      ...NO_TIPS_OR_UNLOCKS,
    });
    expect(sum('subscribersLost')).toBe(1);
    expect(body.previous).toMatchObject({
      earningsCents: share('default-vip'),
      subscribersGained: 1,
      subscribersLost: 0,
    });
    // Seven days hold none of Oscar's month: only today's three.
    const week = (await owner.agent.get(`/api/creators/${owner.id}/analytics?days=7`).expect(200)).body;
    expect(week.daily).toHaveLength(7);
    expect(week.current).toMatchObject({ subscribersGained: 3, subscribersLost: 0 });
    expect(
      (await owner.agent.get(`/api/creators/${owner.id}/analytics?days=90`).expect(200)).body.current,
    ).toMatchObject({
      earningsCents: body.current.earningsCents + share('default-vip'),
      subscribersGained: 4,
    });
  });

  it('lists the most liked posts', async () => {
    const post = (
      await owner.agent.post('/api/posts').send({ title: 'Hello', content: 'words', isPublic: true }).expect(201)
    ).body;
    await subscribers[0].agent.post(`/api/posts/${post.id}/like`).expect(200);
    expect(await stack.settle()).toBe(true);
    const { body } = await owner.agent.get(`/api/creators/${owner.id}/analytics`).expect(200);
    expect(body.days).toBe(30);
    expect(body.topPosts).toEqual([{ id: post.id, title: 'Hello', likeCount: 1, commentCount: 0 }]);
    expect(body.current).toMatchObject({ postsPublished: 1, interactions: 1 });
  });

  it('refuses other days values with a clear message', async () => {
    for (const days of ['14', 'abc', '7.0', '']) {
      const res = await owner.agent.get(`/api/creators/${owner.id}/analytics?days=${days}`).expect(400);
      expect(res.body).toMatchObject({ error: 'days must be 7, 30 or 90', code: 'VALIDATION_ERROR' });
    }
  });
});

describe('access', () => {
  it('is for the creator alone: others 403, unknown creators 404, visitors 401', async () => {
    for (const path of ['subscribers', 'analytics']) {
      await other.agent.get(`/api/creators/${owner.id}/${path}`).expect(403);
      await subscribers[0].agent.get(`/api/creators/${owner.id}/${path}`).expect(403);
      await other.agent.get(`/api/creators/${randomUUID()}/${path}`).expect(404);
      await owner.agent.get(`/api/creators/not-a-uuid/${path}`).expect(404);
      await stack.agent().get(`/api/creators/${owner.id}/${path}`).expect(401);
    }
  });
});
