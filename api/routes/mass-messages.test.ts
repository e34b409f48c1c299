import { randomUUID } from 'node:crypto';
import { creditBalance } from '../../domain/wallet/balance';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';
import { verifyIdentity } from '../../ops/testing/identity-verification';
import { person } from '../../ops/testing/payouts-fixtures';

/** Mass messages over HTTP (issue 21): segments, blocked pairs left out, delivery, unlocks crediting the creator. */
jest.setTimeout(180_000);
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ trustProxy: true });
});
afterAll(() => stack.close());

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
type Member = TestMember;

const member = (firstName: string) => signUpMember(stack, firstName, { lastName: 'Mass' });

const DAY = 86_400_000;
/** A subscription period to the creator's tier, ending `endsInDays` from now (negative: ended). */
async function subscription(subscriberId: string, tierId: string, endsInDays: number) {
  const end = Date.now() + endsInDays * DAY;
  await stack.store.append(
    `creatorSubscription-${subscriberId}_${creator.id}`,
    [
      {
        type: 'CreatorSubscriptionStarted',
        data: {
          subscriptionId: randomUUID(),
          subscriberId,
          creatorId: creator.id,
          tierId,
          tierName: tierId === 'default-basic' ? 'Basic' : 'Premium',
          priceCents: 500,
          transactionId: `txn_${randomUUID()}`,
          startDate: new Date(end - 30 * DAY).toISOString(),
          endDate: new Date(end).toISOString(),
        },
      },
    ],
    { expectedRevision: 'any' },
  );
}

let creator: Member;
let fan: Member;
const ids: Record<string, string> = {};
beforeAll(async () => {
  [creator, fan] = await Promise.all([member('Carla'), member('Fiona')]);
  await creator.agent.post('/api/creators/register').send({ bio: 'Mass messages' }).expect(201);
  await verifyIdentity(stack, creator.agent, creator.id);
  const [premium, lapsed, longGone, blockedByCreator, blockedCreator] = await Promise.all(
    ['member', 'member', 'member', 'member', 'member'].map(() => person(stack, 'member')),
  );
  Object.assign(ids, {
    fan: fan.id,
    premium: premium.userId,
    lapsed: lapsed.userId,
    longGone: longGone.userId,
    blockedByCreator: blockedByCreator.userId,
    blockedCreator: blockedCreator.userId,
  });
  await subscription(fan.id, 'default-basic', 20);
  await subscription(premium.userId, 'default-premium', 5);
  await subscription(lapsed.userId, 'default-basic', -10);
  await subscription(longGone.userId, 'default-basic', -100);
  await subscription(blockedByCreator.userId, 'default-basic', 20);
  await subscription(blockedCreator.userId, 'default-basic', 20);
  await creator.agent.post('/api/blocks').send({ userId: blockedByCreator.userId }).expect(201);
  await blockedCreator.agent.post('/api/blocks').send({ userId: creator.id }).expect(201);
  await eventually(
    () => stack.db('user_blocks').whereIn('blocker_id', [creator.id, blockedCreator.userId]).count('* as n').first(),
    (row) => Number(row?.n) === 2,
  );
  await eventually(
    () => stack.db('creator_subscriptions').where({ creator_id: creator.id }).count('* as n').first(),
    (row) => Number(row?.n) === 6,
  );
});

const summaries = (): Promise<Array<Record<string, unknown>>> =>
  creator.agent
    .get('/api/mass-messages')
    .expect(200)
    .then((res) => res.body);

async function delivered(id: string) {
  const summary = await eventually(
    async () => (await summaries()).find((summary) => summary.id === id),
    (summary) => summary?.delivered === true,
    30_000,
  );
  // The messages read model is another projector: it may still be applying the delivery.
  expect(await stack.settle()).toBe(true);
  return summary;
}

/** Who has a message of this mass message in their conversation with the creator (read model). */
async function receivers(massMessageId: string): Promise<string[]> {
  const rows = await stack.db('messages').where({ sender_id: creator.id, content: `Hello ${massMessageId}` });
  return rows.map((row) => row.receiver_id as string).sort();
}

async function send(body: Record<string, unknown>) {
  const tag = unique();
  const res = await creator.agent
    .post('/api/mass-messages')
    .send({ content: `Hello ${tag}`, ...body })
    .expect(201);
  await stack.db('messages').where({ sender_id: creator.id, content: `Hello ${tag}` });
  return { ...res.body, tag };
}

describe('mass messages', () => {
  it('reaches the active subscribers, leaving out blocked pairs either way, and the lapsed and tier segments', async () => {
    const active = await send({ segment: 'active', price: '3.00' });
    expect(active).toMatchObject({ segment: 'active', price: '3.00', recipients: 2, unlocked: 0, revenue: '0.00' });
    expect(await delivered(active.id)).toMatchObject({ sent: 2, delivered: true });
    expect(await receivers(active.tag)).toEqual([ids.fan, ids.premium].sort());

    const premium = await send({ segment: 'tier', tierId: 'default-premium' });
    expect(premium).toMatchObject({ recipients: 1, tierName: 'Premium', price: null });
    await delivered(premium.id);
    expect(await receivers(premium.tag)).toEqual([ids.premium]);

    const lapsed = await send({ segment: 'lapsed' });
    await delivered(lapsed.id);
    expect(await receivers(lapsed.tag)).toEqual([ids.lapsed]);
  });

  it('arrives as an ordinary locked paid message that the subscriber unlocks, crediting the creator', async () => {
    const paid = await send({ segment: 'tier', tierId: 'default-basic', price: '4.00' });
    await delivered(paid.id);
    const thread = (await fan.agent.get(`/api/messages/${creator.id}`).expect(200)).body as Array<{
      id: string;
      content: string | null;
      locked: boolean;
      price: string | null;
    }>;
    const message = thread.find((m) => m.price === '4.00' && m.locked)!;
    expect(message).toMatchObject({ content: null, locked: true });
    await creditBalance(
      stack.store,
      fan.id,
      { amountCents: 1000, reason: 'test', reference: `test:${unique()}` },
      { actorId: null, now: new Date() },
    );
    const unlocked = (await fan.agent.post(`/api/messages/${message.id}/unlock`).expect(200)).body;
    expect(unlocked).toMatchObject({ content: `Hello ${paid.tag}`, locked: false });
    const stats = await eventually(
      async () => (await summaries()).find((summary) => summary.id === paid.id),
      (summary) => summary?.unlocked === 1,
    );
    expect(stats).toMatchObject({ recipients: 1, sent: 1, unlocked: 1, revenue: '4.00' });
    const credits = await eventually(
      () => stack.store.readStream(`creatorAccount-${creator.id}`),
      (events) => events.some((e) => (e.data as { source?: string }).source === 'message_unlock'),
    );
    const credit = credits.find((e) => (e.data as { source?: string }).source === 'message_unlock')!;
    expect(credit.data).toMatchObject({ grossCents: 400, creatorShareCents: 360 });
  });

  it('refuses members who are not creators, an empty segment, a tier segment without a tier and a bad price', async () => {
    const notCreator = await fan.agent
      .post('/api/mass-messages')
      .send({ segment: 'active', content: 'Hi' })
      .expect(403);
    expect(notCreator.body.error).toBe('Only creators can send mass messages');
    await fan.agent.get('/api/mass-messages').expect(403);
    const empty = await creator.agent
      .post('/api/mass-messages')
      .send({ segment: 'tier', tierId: 'no-such-tier', content: 'Hi' })
      .expect(422);
    expect(empty.body.error).toBe('No one is in this segment yet');
    const noTier = await creator.agent.post('/api/mass-messages').send({ segment: 'tier', content: 'Hi' }).expect(400);
    expect(noTier.body.fields.tierId).toBe('Choose a tier');
    await creator.agent
      .post('/api/mass-messages')
      .send({ segment: 'active', content: 'Hi', price: '0.50' })
      .expect(400);
    await creator.agent.post('/api/mass-messages').send({ segment: 'everyone', content: 'Hi' }).expect(400);
  });

  it('sends once per Idempotency-Key', async () => {
    const body = { segment: 'active', content: `Hello once ${unique()}` };
    const first = await creator.agent
      .post('/api/mass-messages')
      .set('Idempotency-Key', 'mass-1')
      .send(body)
      .expect(201);
    const again = await creator.agent
      .post('/api/mass-messages')
      .set('Idempotency-Key', 'mass-1')
      .send(body)
      .expect(201);
    expect(again.body.id).toBe(first.body.id);
    await delivered(first.body.id);
    expect(
      await stack.db('messages').where({ sender_id: creator.id, content: body.content }).count('* as n').first(),
    ).toEqual({
      n: '2',
    });
  });
});
