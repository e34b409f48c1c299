import type supertest from 'supertest';
import { creditBalance } from '../../domain/wallet/balance';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { verifyIdentity } from '../../ops/testing/identity-verification';

/**
 * Creators and social through HTTP on a real PostgreSQL: every route walked as a visitor, an
 * unsubscribed member, a subscribed member, another creator and the owner (SPEC §6).
 */
jest.setTimeout(60_000);
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ trustProxy: true });
});
afterAll(() => stack.close());

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
type Agent = supertest.Agent;
interface Member {
  agent: Agent;
  id: string;
}

async function member(firstName: string, lastName = 'Test', token = `dev_tok_${unique()}`): Promise<Member> {
  const agent = stack.agent().set('X-Forwarded-For', `10.9.${counter % 250}.${++counter % 250}`);
  const password = 'Passw0rdGood';
  const res = await agent
    .post('/api/auth/register')
    .send({
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}.${unique()}@example.com`,
      password,
      confirmPassword: password,
      paymentToken: token,
    })
    .expect(201);
  // Under heavy machine load the sign-up may answer before the read model caught up: wait for it.
  for (let i = 0; i < 400; i++) {
    const me = await agent.get('/api/auth/user');
    if (me.status === 200 && me.body.subscriptionStatus === 'active') return { agent, id: me.body.id };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`sign-up of ${firstName} did not activate: ${JSON.stringify(res.body)}`);
}

const earningsCredited = (creatorId: string) =>
  stack.store
    .readStream(`creatorAccount-${creatorId}`)
    .then((events) => events.filter((e) => e.type === 'EarningsCredited'));
const stats = (creatorId: string) =>
  owner.agent
    .get(`/api/creators/${creatorId}/stats`)
    .expect(200)
    .then((res) => res.body);

let owner: Member;
let other: Member;
let subscribed: Member;
let unsubscribed: Member;
let visitor: Agent;
let lockedPostId: string;
let publicPostId: string;

beforeAll(async () => {
  [owner, other, subscribed, unsubscribed] = await Promise.all([
    member('Olivia', 'Owner'),
    member('Oscar', 'Other'),
    member('Sam', 'Subscriber'),
    member('Uma', 'Unsub'),
  ]);
  visitor = stack.agent();
  await owner.agent
    .post('/api/creators/register')
    .send({ bio: 'Sunset photography and travel diaries', coverImageUrl: 'https://img.test/cover.jpg' })
    .expect(201);
  await other.agent.post('/api/creators/register').send({ bio: '' }).expect(400);
  await other.agent.post('/api/creators/register').send({ bio: 'Cooking' }).expect(201);
  await verifyIdentity(stack, owner.agent, owner.id); // locked posts need it (issue 20)
  lockedPostId = (
    await owner.agent
      .post('/api/posts')
      .send({ title: 'Locked one', content: 'secret words', mediaUrl: 'https://img.test/secret.jpg' })
      .expect(201)
  ).body.id;
  publicPostId = (
    await owner.agent
      .post('/api/posts')
      .send({ title: 'Hello all', content: 'public words', isPublic: true })
      .expect(201)
  ).body.id;
  await subscribed.agent
    .post('/api/subscriptions')
    .send({ creatorId: owner.id, tierId: 'default-premium' })
    .expect(201);
  expect(await stack.settle()).toBe(true); // a loaded machine may lag beyond the API's bounded read-your-writes wait
});

describe('creator registration and profiles', () => {
  it('makes the user a creator (isCreator, role) and lists them with name, bio, cover and price label', async () => {
    const me = await owner.agent.get('/api/auth/user').expect(200);
    expect(me.body).toMatchObject({ isCreator: true, role: 'creator' });
    const creator = (await unsubscribed.agent.get(`/api/creators/${owner.id}`).expect(200)).body;
    expect(creator).toMatchObject({
      id: owner.id,
      name: 'Olivia Owner',
      bio: 'Sunset photography and travel diaries',
      coverImageUrl: 'https://img.test/cover.jpg',
      price: '9.99',
      postCount: 2,
      subscriberCount: 1,
    });
    // Without tiers the label says what the tier dialog offers: its cheapest (fallback) tier.
    const tiers = (await unsubscribed.agent.get(`/api/creators/${owner.id}/tiers`).expect(200)).body;
    expect(tiers[0]).toMatchObject({ name: 'Basic', price: creator.price, isDefault: true });
    await owner.agent.post('/api/creators/register').send({ bio: 'again' }).expect(409);
    await owner.agent.post('/api/creators/register').send({ bio: 'x', coverImageUrl: 'not a url' }).expect(400);
  });

  it('searches names and bios, 404s unknown ids, 401s visitors', async () => {
    const byBio = (await unsubscribed.agent.get('/api/creators').query({ q: 'sunset' }).expect(200)).body;
    expect(byBio.map((c: { id: string }) => c.id)).toEqual([owner.id]);
    const byName = (await unsubscribed.agent.get('/api/creators').query({ q: 'oscar oth' }).expect(200)).body;
    expect(byName.map((c: { id: string }) => c.id)).toEqual([other.id]);
    expect((await unsubscribed.agent.get('/api/creators').query({ q: '%' }).expect(200)).body).toEqual([]);
    await unsubscribed.agent.get('/api/creators/00000000-0000-4000-8000-000000000000').expect(404);
    // A malformed id: the parameter check's 404, as on every route.
    const malformed = await unsubscribed.agent.get('/api/creators/nope').expect(404);
    expect(malformed.body).toEqual({ error: 'Not found: no record has this id', code: 'NOT_FOUND' });
    await unsubscribed.agent.get(`/api/creators/${unsubscribed.id}`).expect(404);
    // A creator's tiers, posts and subscription check: 404 for anyone not a creator, as the card.
    for (const path of ['tiers', 'posts']) {
      await unsubscribed.agent.get(`/api/creators/${unsubscribed.id}/${path}`).expect(404);
      await unsubscribed.agent.get(`/api/creators/nope/${path}`).expect(404);
    }
    await unsubscribed.agent.get(`/api/subscriptions/check/${unsubscribed.id}`).expect(404);
    await visitor.get('/api/creators').expect(401);
    await visitor.get(`/api/creators/${owner.id}`).expect(401);
  });
});

describe('tiers', () => {
  it('offers the three fallback tiers while none exist, and only the owner manages tiers', async () => {
    const tiers = (await unsubscribed.agent.get(`/api/creators/${other.id}/tiers`).expect(200)).body;
    expect(tiers.map((t: { name: string; price: string; popular: boolean }) => [t.name, t.price, t.popular])).toEqual([
      ['Basic', '9.99', false],
      ['Premium', '19.99', true],
      ['VIP', '39.99', false],
    ]);
    const tier = { name: 'Gold', description: 'All access', price: '14.50', features: ['Everything'] };
    await visitor.post(`/api/creators/${other.id}/tiers`).send(tier).expect(401);
    await unsubscribed.agent.post(`/api/creators/${other.id}/tiers`).send(tier).expect(403);
    await owner.agent.post(`/api/creators/${other.id}/tiers`).send(tier).expect(403);
    await unsubscribed.agent.post(`/api/creators/${unsubscribed.id}/tiers`).send(tier).expect(403); // not a creator
    await other.agent
      .post(`/api/creators/${other.id}/tiers`)
      .send({ ...tier, price: '1.999' })
      .expect(400);
    const created = (await other.agent.post(`/api/creators/${other.id}/tiers`).send(tier).expect(201)).body;
    expect(created).toMatchObject({ name: 'Gold', price: '14.50', features: ['Everything'] });
    const edited = (
      await other.agent
        .put(`/api/creators/${other.id}/tiers/${created.id}`)
        .send({ ...tier, price: 15 })
        .expect(200)
    ).body;
    expect(edited.price).toBe('15.00');
    await owner.agent.put(`/api/creators/${other.id}/tiers/${created.id}`).send(tier).expect(403);
    const listed = (await unsubscribed.agent.get(`/api/creators/${other.id}/tiers`).expect(200)).body;
    expect(listed.map((t: { id: string }) => t.id)).toEqual([created.id]);
    expect((await unsubscribed.agent.get(`/api/creators/${other.id}`).expect(200)).body.price).toBe('15.00');
    await unsubscribed.agent
      .post('/api/subscriptions')
      .send({ creatorId: other.id, tierId: 'default-basic' })
      .expect(404);
  });
});

describe('creator subscriptions', () => {
  it('charges the tier, starts a month, refuses a second, and credits 90% through the process manager', async () => {
    const check = (await subscribed.agent.get(`/api/subscriptions/check/${owner.id}`).expect(200)).body;
    expect(check.subscribed).toBe(true);
    expect((await unsubscribed.agent.get(`/api/subscriptions/check/${owner.id}`).expect(200)).body.subscribed).toBe(
      false,
    );
    await subscribed.agent
      .post('/api/subscriptions')
      .send({ creatorId: owner.id, tierId: 'default-basic' })
      .expect(409);
    await owner.agent.post('/api/subscriptions').send({ creatorId: owner.id, tierId: 'default-basic' }).expect(422);
    await visitor.post('/api/subscriptions').send({ creatorId: owner.id, tierId: 'default-basic' }).expect(401);
    await unsubscribed.agent.post('/api/subscriptions').send({ creatorId: owner.id, tierId: 'nope' }).expect(404);
    await unsubscribed.agent.post('/api/subscriptions').send({ creatorId: owner.id }).expect(400);
    const credits = await eventually(
      () => earningsCredited(owner.id),
      (events) => events.length >= 1,
    );
    expect(credits.map((e) => e.data)).toEqual([
      expect.objectContaining({
        grossCents: 1999,
        creatorShareCents: 1799,
        platformFeeCents: 200,
        source: 'subscription',
      }),
    ]);
  });

  it('refuses a declined card with 402 and starts nothing', async () => {
    const poor = await member('Pat', 'Poor', `dev_tok_renewal_fails_${unique()}`);
    const res = await poor.agent
      .post('/api/subscriptions')
      .send({ creatorId: owner.id, tierId: 'default-basic' })
      .expect(402);
    expect(res.body.error).toBe('Your card was declined.');
    expect((await poor.agent.get(`/api/subscriptions/check/${owner.id}`).expect(200)).body.subscribed).toBe(false);
  });
});

describe('posts, feed, likes, comments', () => {
  it('never sends a locked post content or media to a viewer who is neither subscribed nor the owner', async () => {
    const forUnsub = (await unsubscribed.agent.get(`/api/creators/${owner.id}/posts`).expect(200)).body;
    const locked = forUnsub.find((p: { id: string }) => p.id === lockedPostId);
    expect(locked).toMatchObject({ locked: true, content: null, mediaUrl: null, hasMedia: true, title: 'Locked one' });
    expect(JSON.stringify(forUnsub)).not.toContain('secret');
    expect(JSON.stringify((await other.agent.get(`/api/posts/${lockedPostId}`).expect(200)).body)).not.toContain(
      'secret',
    );
    for (const viewer of [subscribed, owner]) {
      const post = (await viewer.agent.get(`/api/posts/${lockedPostId}`).expect(200)).body;
      expect(post).toMatchObject({ locked: false, content: 'secret words', mediaUrl: 'https://img.test/secret.jpg' });
    }
    await visitor.get(`/api/creators/${owner.id}/posts`).expect(401);
    // The page's list: readable for a subscriber and the owner, empty for a creator without posts.
    for (const viewer of [subscribed, owner]) {
      const list = (await viewer.agent.get(`/api/creators/${owner.id}/posts`).expect(200)).body;
      expect(list.map((p: { id: string }) => p.id)).toEqual([publicPostId, lockedPostId]);
      expect(list[1]).toMatchObject({ locked: false, content: 'secret words', creator: { name: 'Olivia Owner' } });
    }
    expect((await owner.agent.get(`/api/creators/${other.id}/posts`).expect(200)).body).toEqual([]);
  });

  it('validates new posts and lets only creators publish', async () => {
    const missing = await owner.agent.post('/api/posts').send({ title: ' ', content: '' }).expect(400);
    expect(missing.body.fields).toMatchObject({ title: 'Title is required', content: 'Content is required' });
    await owner.agent.post('/api/posts').send({ title: 'a', content: 'b', mediaUrl: 'nope' }).expect(400);
    await unsubscribed.agent.post('/api/posts').send({ title: 'a', content: 'b' }).expect(403);
    await visitor.post('/api/posts').send({ title: 'a', content: 'b' }).expect(401);
  });

  it('builds the feed from subscribed creators and public posts, newest first, paginated', async () => {
    const feed = (await subscribed.agent.get('/api/posts/feed').expect(200)).body;
    expect(feed.posts.map((p: { id: string }) => p.id)).toEqual([publicPostId, lockedPostId]);
    const unsubFeed = (await unsubscribed.agent.get('/api/posts/feed').expect(200)).body;
    expect(unsubFeed.posts.map((p: { id: string }) => p.id)).toEqual([publicPostId]);
    const first = (await subscribed.agent.get('/api/posts/feed').query({ limit: 1 }).expect(200)).body;
    expect(first.posts.map((p: { id: string }) => p.id)).toEqual([publicPostId]);
    const second = (
      await subscribed.agent.get('/api/posts/feed').query({ limit: 1, cursor: first.nextCursor }).expect(200)
    ).body;
    expect(second.posts.map((p: { id: string }) => p.id)).toEqual([lockedPostId]);
    expect(second.nextCursor).toBeNull();
    await visitor.get('/api/posts/feed').expect(401);
  });

  it('toggles likes and takes comments from readers only', async () => {
    await unsubscribed.agent.post(`/api/posts/${lockedPostId}/like`).expect(403);
    await other.agent.post(`/api/posts/${lockedPostId}/like`).expect(403);
    await visitor.post(`/api/posts/${lockedPostId}/like`).expect(401);
    await subscribed.agent.post('/api/posts/00000000-0000-4000-8000-000000000000/like').expect(404);
    expect((await subscribed.agent.post(`/api/posts/${lockedPostId}/like`).expect(200)).body).toEqual({
      liked: true,
      count: 1,
    });
    expect((await owner.agent.post(`/api/posts/${lockedPostId}/like`).expect(200)).body).toEqual({
      liked: true,
      count: 2,
    });
    expect((await subscribed.agent.post(`/api/posts/${lockedPostId}/like`).expect(200)).body).toEqual({
      liked: false,
      count: 1,
    });
    expect((await unsubscribed.agent.post(`/api/posts/${publicPostId}/like`).expect(200)).body).toEqual({
      liked: true,
      count: 1,
    });

    await unsubscribed.agent.post(`/api/posts/${lockedPostId}/comments`).send({ content: 'hi' }).expect(403);
    await subscribed.agent.post(`/api/posts/${lockedPostId}/comments`).send({ content: '  ' }).expect(400);
    const comment = (
      await subscribed.agent.post(`/api/posts/${lockedPostId}/comments`).send({ content: ' Lovely ' }).expect(201)
    ).body;
    expect(comment).toMatchObject({ content: 'Lovely', userName: 'Sam Subscriber' });
    expect((await owner.agent.get(`/api/posts/${lockedPostId}/comments`).expect(200)).body).toHaveLength(1);
    await unsubscribed.agent.get(`/api/posts/${lockedPostId}/comments`).expect(403);
    const post = (await subscribed.agent.get(`/api/posts/${lockedPostId}`).expect(200)).body;
    expect(post).toMatchObject({ likeCount: 1, commentCount: 1, liked: false });
  });
});

describe('creator stats', () => {
  it('are for the creator only', async () => {
    // The earnings come from the creator-earnings process manager, after the subscription settled.
    const mine = await eventually(
      () => stats(owner.id),
      (s) => s.totalEarnings === '17.99' && s.subscriberCount === 1 && s.postCount === 2,
    );
    expect(mine).toMatchObject({ totalEarnings: '17.99', subscriberCount: 1, postCount: 2 });
    // Likes and comments so far: 2 on the locked post, 1 on the public one; over 2 posts × 1 subscriber.
    expect(mine.engagementRate).toBe(150);
    for (const agent of [subscribed.agent, unsubscribed.agent, other.agent])
      await agent.get(`/api/creators/${owner.id}/stats`).expect(403);
    await visitor.get(`/api/creators/${owner.id}/stats`).expect(401);
    // Anyone not a creator: 404 (before 403), their own or another's.
    await subscribed.agent.get(`/api/creators/${subscribed.id}/stats`).expect(404);
    await owner.agent.get(`/api/creators/${subscribed.id}/stats`).expect(404);
    await owner.agent.get('/api/creators/nope/stats').expect(404);
  });

  it('earn 90% of every sale: two at one price count twice', async () => {
    const [gold] = (await other.agent.get(`/api/creators/${other.id}/tiers`).expect(200)).body;
    for (const fan of [subscribed, unsubscribed])
      await fan.agent.post('/api/subscriptions').send({ creatorId: other.id, tierId: gold.id }).expect(201);
    const theirs = await eventually(
      () =>
        other.agent
          .get(`/api/creators/${other.id}/stats`)
          .expect(200)
          .then((res) => res.body),
      (s) => s.subscriberCount === 2,
    );
    // 2 × (15.00 - 1.50 fee).
    expect(theirs).toEqual({ totalEarnings: '27.00', subscriberCount: 2, postCount: 0, engagementRate: 0 });
  });
});

describe('messages', () => {
  it('trims, refuses empty text, allows prices from creators only', async () => {
    await subscribed.agent.post('/api/messages').send({ receiverId: owner.id, content: '   ' }).expect(400);
    await subscribed.agent
      .post('/api/messages')
      .send({ receiverId: owner.id, content: 'pay me', price: '5.00' })
      .expect(403);
    await subscribed.agent
      .post('/api/messages')
      .send({ receiverId: '00000000-0000-4000-8000-000000000000', content: 'x' })
      .expect(404);
    await visitor.post('/api/messages').send({ receiverId: owner.id, content: 'x' }).expect(401);
    expect((await owner.agent.get(`/api/conversations/${subscribed.id}`).expect(200)).body.user).toMatchObject({
      id: subscribed.id,
      name: 'Sam Subscriber',
      isCreator: false,
    });
    await owner.agent.get('/api/conversations/nope').expect(404);
    await visitor.get(`/api/conversations/${subscribed.id}`).expect(401);
    const sent = (
      await subscribed.agent.post('/api/messages').send({ receiverId: owner.id, content: '  Hi there  ' }).expect(201)
    ).body;
    expect(sent).toMatchObject({ content: 'Hi there', isPaid: false, locked: false });
  });

  it('keeps a paid message locked for its receiver until paid from the balance, then credits the creator', async () => {
    const paid = (
      await owner.agent
        .post('/api/messages')
        .send({ receiverId: subscribed.id, content: 'exclusive pic', price: '4.99' })
        .expect(201)
    ).body;
    expect(paid).toMatchObject({ content: 'exclusive pic', isPaid: true, price: '4.99', locked: false });

    const conversations = (await subscribed.agent.get('/api/conversations').expect(200)).body;
    expect(conversations[0]).toMatchObject({
      user: { id: owner.id, name: 'Olivia Owner' },
      lastMessage: 'Paid message',
    });
    const thread = (await subscribed.agent.get(`/api/messages/${owner.id}`).expect(200)).body;
    expect(thread.map((m: { content: string | null }) => m.content)).toEqual(['Hi there', null]);
    expect(JSON.stringify(thread)).not.toContain('exclusive');
    expect((await owner.agent.get('/api/conversations').expect(200)).body[0].lastMessage).toBe('exclusive pic');

    const short = await subscribed.agent.post(`/api/messages/${paid.id}/unlock`).expect(402);
    expect(short.body.error).toMatch(/^Insufficient balance/);
    await owner.agent.post(`/api/messages/${paid.id}/unlock`).expect(403);
    await unsubscribed.agent.post(`/api/messages/${paid.id}/unlock`).expect(404);
    await visitor.post(`/api/messages/${paid.id}/unlock`).expect(401);

    await creditBalance(
      stack.store,
      subscribed.id,
      { amountCents: 1000, reason: 'test', reference: `test:${unique()}` },
      { actorId: null, now: new Date() },
    );
    const unlocked = (await subscribed.agent.post(`/api/messages/${paid.id}/unlock`).expect(200)).body;
    expect(unlocked).toMatchObject({ content: 'exclusive pic', isUnlocked: true, locked: false });
    await subscribed.agent.post(`/api/messages/${paid.id}/unlock`).expect(409);
    const wallet = (await stack.store.readStream(`wallet-${subscribed.id}`)).map((e) => e.type);
    expect(wallet).toEqual(['WalletCredited', 'WalletDebited']);
    // The unlock's credit is the process manager's, and the stats read it from a read model after that.
    const credits = await eventually(
      () => earningsCredited(owner.id),
      (events) => events.length >= 2,
    );
    expect(credits.map((e) => (e.data as { source: string; creatorShareCents: number }).source)).toEqual([
      'subscription',
      'message_unlock',
    ]);
    expect(
      (
        await eventually(
          () => stats(owner.id),
          (s) => s.totalEarnings === '22.48',
        )
      ).totalEarnings,
    ).toBe('22.48');
  });
});
