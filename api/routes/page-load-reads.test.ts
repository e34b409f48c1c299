import type { MemberSubscription } from '../../domain/contracts/creator-subscriptions';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember } from '../../ops/testing/members';
import { verifyIdentity } from '../../ops/testing/identity-verification';

jest.setTimeout(180_000);

/**
 * The reads the subscription and messages pages make on every load, each one statement (issue
 * 24): their exact answers, their 404s for an id that is no creator or no user, and their gates.
 */
let stack: TestStack;
let now = new Date('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  stack = await startTestStack({ clock: () => now, trustProxy: true });
});
afterAll(() => stack.close());

type Agent = ReturnType<TestStack['agent']>;
const DAY = 86_400_000;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const register = (firstName: string) => signUpMember(stack, firstName, { lastName: 'Reader' });

async function registerCreator(firstName: string) {
  const creator = await register(firstName);
  await creator.agent
    .post('/api/creators/register')
    .send({ bio: `${firstName} makes things` })
    .expect(201);
  await eventually(
    () => creator.agent.get(`/api/creators/${creator.id}/tiers`).then((r) => r.status),
    (status) => status === 200,
  );
  return creator;
}

const mine = (agent: Agent) =>
  agent
    .get('/api/subscriptions')
    .expect(200)
    .then((r) => r.body.subscriptions as MemberSubscription[]);

const check = (agent: Agent, creatorId: string) => agent.get(`/api/subscriptions/check/${creatorId}`);

describe('the subscription check and the member subscriptions', () => {
  it('answers the running subscription with its latest state, and nothing once it ended', async () => {
    const [cleo, dana, member, stranger] = await Promise.all([
      registerCreator('Cleo'),
      registerCreator('Dana'),
      register('Mia'),
      register('Stan'),
    ]);
    expect((await check(member.agent, cleo.id).expect(200)).body).toEqual({
      subscribed: false,
      tierId: null,
      endDate: null,
      subscription: null,
    });

    const first = (
      await member.agent.post('/api/subscriptions').send({ creatorId: cleo.id, tierId: 'default-basic' }).expect(201)
    ).body;
    now = new Date(now.getTime() + 60_000);
    const second = (
      await member.agent.post('/api/subscriptions').send({ creatorId: dana.id, tierId: 'default-premium' }).expect(201)
    ).body;
    const subscriptions = await mine(member.agent);
    // Newest first while both run; the creator's name from the users read model.
    expect(subscriptions.map((s) => [s.id, s.creatorName, s.tierId, s.price, s.status])).toEqual([
      [second.id, 'Dana Reader', 'default-premium', '19.99', 'active'],
      [first.id, 'Cleo Reader', 'default-basic', '9.99', 'active'],
    ]);
    const toCleo = subscriptions[1];
    expect(toCleo).toEqual({
      id: first.id,
      creatorId: cleo.id,
      creatorName: 'Cleo Reader',
      creatorAvatarUrl: null,
      tierId: 'default-basic',
      tierName: 'Basic',
      price: '9.99',
      status: 'active',
      startedAt: toCleo.startedAt,
      periodEnd: first.endDate,
      renewsAt: first.endDate,
      endsAt: null,
      nextTier: null,
      refundableUntil: new Date(new Date(toCleo.startedAt).getTime() + 7 * DAY).toISOString(),
      renewFrom: 'card',
    });
    expect((await check(member.agent, cleo.id).expect(200)).body).toEqual({
      subscribed: true,
      tierId: 'default-basic',
      endDate: first.endDate,
      subscription: toCleo,
    });

    // Canceled, it still runs to the period's end; the check shows the cancel.
    await member.agent.post(`/api/subscriptions/${first.id}/cancel`).send({}).expect(200);
    const canceled = (await check(member.agent, cleo.id).expect(200)).body;
    expect(canceled).toMatchObject({
      subscribed: true,
      tierId: 'default-basic',
      endDate: first.endDate,
      subscription: { id: first.id, status: 'canceled', renewsAt: null, endsAt: first.endDate },
    });

    // Refunded, access ends at once: not subscribed, and listed after the running one.
    await member.agent.post(`/api/subscriptions/${second.id}/refund`).send({}).expect(200);
    expect((await check(member.agent, dana.id).expect(200)).body).toEqual({
      subscribed: false,
      tierId: null,
      endDate: null,
      subscription: null,
    });
    expect((await mine(member.agent)).map((s) => [s.id, s.status])).toEqual([
      [first.id, 'canceled'],
      [second.id, 'refunded'],
    ]);

    // Someone who never subscribed sees none; an id that is no creator is a 404.
    expect((await check(stranger.agent, cleo.id).expect(200)).body.subscribed).toBe(false);
    expect(await mine(stranger.agent)).toEqual([]);
    for (const id of [UNKNOWN, stranger.id, member.id]) {
      const res = await check(member.agent, id).expect(404);
      expect(res.body).toMatchObject({ error: 'Creator not found', code: 'NOT_FOUND' });
    }
    await stack.agent().get(`/api/subscriptions/check/${cleo.id}`).expect(401);
    const malformed = await check(member.agent, 'not-a-uuid').expect(404);
    expect(malformed.body.error).toBe('Not found: no record has this id');
    await stack.agent().get('/api/subscriptions').expect(401);
  });
});

describe('conversations and a thread', () => {
  it('lists the last message per person, newest first, and the thread as each party sees it', async () => {
    const [creator, member, other, silent] = await Promise.all([
      registerCreator('Cora'),
      register('Milo'),
      register('Otto'),
      register('Sid'),
    ]);
    await verifyIdentity(stack, creator.agent, creator.id); // paid messages need it
    const send = async (from: Agent, receiverId: string, content: string, price?: string) => {
      now = new Date(now.getTime() + 1_000);
      return (await from.post('/api/messages').send({ receiverId, content, price }).expect(201)).body as {
        id: string;
        createdAt: string;
      };
    };
    const hello = await send(member.agent, creator.id, 'Hello Cora');
    const paid = await send(creator.agent, member.id, 'A secret', '4.99');
    const toOtto = await send(member.agent, other.id, 'Hi Otto');

    const list = (await member.agent.get('/api/conversations').expect(200)).body;
    expect(list).toEqual([
      {
        user: { id: other.id, name: 'Otto Reader', profileImageUrl: null, isCreator: false },
        lastMessage: 'Hi Otto',
        lastMessageAt: toOtto.createdAt,
      },
      {
        user: { id: creator.id, name: 'Cora Reader', profileImageUrl: null, isCreator: true },
        lastMessage: 'Paid message',
        lastMessageAt: paid.createdAt,
      },
    ]);
    expect((await creator.agent.get('/api/conversations').expect(200)).body).toEqual([
      {
        user: { id: member.id, name: 'Milo Reader', profileImageUrl: null, isCreator: false },
        lastMessage: 'A secret',
        lastMessageAt: paid.createdAt,
      },
    ]);

    const common = { mediaUrl: null, media: [] };
    const free = {
      ...common,
      id: hello.id,
      senderId: member.id,
      receiverId: creator.id,
      content: 'Hello Cora',
      isPaid: false,
      price: null,
      isUnlocked: true,
      locked: false,
      createdAt: hello.createdAt,
    };
    const secret = {
      ...common,
      id: paid.id,
      senderId: creator.id,
      receiverId: member.id,
      isPaid: true,
      price: '4.99',
      isUnlocked: false,
      createdAt: paid.createdAt,
    };
    expect((await member.agent.get(`/api/messages/${creator.id}`).expect(200)).body).toEqual([
      free,
      { ...secret, content: null, locked: true },
    ]);
    expect((await creator.agent.get(`/api/messages/${member.id}`).expect(200)).body).toEqual([
      free,
      { ...secret, content: 'A secret', locked: false },
    ]);

    // A user never written to has an empty thread; an id that is no user is a 404.
    expect((await member.agent.get(`/api/messages/${silent.id}`).expect(200)).body).toEqual([]);
    const unknown = await member.agent.get(`/api/messages/${UNKNOWN}`).expect(404);
    expect(unknown.body).toMatchObject({ error: 'User not found', code: 'NOT_FOUND' });
    expect((await silent.agent.get('/api/conversations').expect(200)).body).toEqual([]);
    await stack.agent().get('/api/conversations').expect(401);
    await stack.agent().get(`/api/messages/${creator.id}`).expect(401);
    const malformed = await member.agent.get('/api/messages/not-a-uuid').expect(404);
    expect(malformed.body.error).toBe('Not found: no record has this id');
  });
});
