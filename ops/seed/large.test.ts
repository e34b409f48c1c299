import { startTestStack, type TestStack } from '../testing/harness';
import { seedLarge, type LargePlan } from './large';
import { DEMO_CREATOR, DEMO_LOGIN } from './names';

// The large seed's generator at a tiny scale, on the whole product (projections and process
// managers run beside it, as they would against a live installation).
const PLAN: LargePlan = {
  members: 4,
  creators: 2,
  postsPerCreator: 2,
  subscriptionsPerMember: 2,
  likesPerMember: 2,
  conversationsPerMember: 2,
  minEvents: 0,
  parallel: 4,
};

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

const countRows = async (table: string) => Number((await stack.db(table).count({ n: '*' }))[0].n);

it('creates every kind of activity through commands, and the read models show it', async () => {
  const report = await seedLarge(stack, PLAN);
  expect(report.failures).toEqual({ count: 0, first: [] });
  const counts: Record<string, number> = Object.fromEntries(
    (await stack.db.raw(`SELECT event_type, count(*)::int AS n FROM events GROUP BY event_type`)).rows.map(
      (row: { event_type: string; n: number }) => [row.event_type, row.n],
    ),
  );
  expect(counts).toMatchObject({
    UserRegistered: 7, // 4 members, 2 creators, the finance staff account
    CreatorRegistered: 2,
    TierCreated: 4,
    IdentityVerificationSubmitted: 2,
    IdentityVerified: 2,
    PostPublished: 4,
    ChatProfileSaved: 4,
    ChatPreferencesSaved: 4,
    CryptoWalletRegistered: 4,
    CryptoConversionCompleted: 4,
    CreatorSubscriptionStarted: 8,
    PostLiked: 8,
    MessageSent: 16,
    MessageUnlocked: 4,
    EarningsCredited: 12, // 8 subscriptions and 4 unlocks
    PaymentAccountAdded: 2,
    PayoutRequested: 2,
    PayoutProcessingStarted: 1,
  });
  expect(report.events).toBe(Object.values(counts).reduce((a, b) => a + b, 0));

  expect(await stack.settle(60_000)).toBe(true);
  expect(await countRows('creators')).toBe(2);
  expect(await countRows('post_likes')).toBe(8);
  expect(await countRows('creator_subscriptions')).toBe(8);
  expect(await countRows('messages')).toBe(16);
  expect(
    await stack
      .db('messages')
      .where({ is_paid: true, is_unlocked: true })
      .count({ n: '*' })
      .then((r) => Number(r[0].n)),
  ).toBe(4);
  expect(await countRows('payouts')).toBe(2);
  expect(await countRows('user_profiles')).toBe(4);
  expect(
    await stack
      .db('crypto_transactions')
      .where({ status: 'completed' })
      .count({ n: '*' })
      .then((r) => Number(r[0].n)),
  ).toBe(4);

  // The demo member signs in with the shared password and sees the followed creators' posts.
  const agent = stack.agent();
  await agent.post('/api/auth/login').send({ email: DEMO_LOGIN.email, password: DEMO_LOGIN.password }).expect(200);
  const feed = await agent.get('/api/posts/feed').expect(200);
  expect(feed.body.posts.length).toBeGreaterThan(0);

  // Seeded creators are identity-verified, so the demo creator publishes a locked post.
  const creator = stack.agent();
  await creator
    .post('/api/auth/login')
    .send({ email: DEMO_CREATOR.email, password: DEMO_CREATOR.password })
    .expect(200);
  expect((await creator.get('/api/creators/verification').expect(200)).body.state).toBe('verified');
  await creator.post('/api/posts').send({ title: 'Subscribers only', content: 'Locked', isPublic: false }).expect(201);
});
