import { creditBalance } from '../../domain/wallet/balance';
import { reconcile } from '../../ops/commands/reconcile';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';

/** Tips over HTTP (issue 21): by card and from the balance, the limits, refusals, the creator's 90% and the ledger. */
jest.setTimeout(120_000);
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ trustProxy: true });
});
afterAll(() => stack.close());

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
type Member = TestMember;

const member = (firstName: string) => signUpMember(stack, firstName, { lastName: 'Tips' });

const earnings = (creatorId: string) =>
  stack.store
    .readStream(`creatorAccount-${creatorId}`)
    .then((events) =>
      events.filter((e) => e.type === 'EarningsCredited').map((e) => e.data as Record<string, unknown>),
    );

let creator: Member;
let fan: Member;
let postId: string;
beforeAll(async () => {
  [creator, fan] = await Promise.all([member('Cora'), member('Finn')]);
  await creator.agent.post('/api/creators/register').send({ bio: 'Tips welcome' }).expect(201);
  postId = (
    await creator.agent
      .post('/api/posts')
      .send({ title: 'Hello', content: 'A public post', isPublic: true })
      .expect(201)
  ).body.id;
});

describe('POST /api/tips', () => {
  it('tips by card on a post, once per Idempotency-Key, and credits the creator 90% on hold', async () => {
    const body = { creatorId: creator.id, amountCents: 500, postId, message: 'Lovely post', source: 'card' };
    const first = await fan.agent.post('/api/tips').set('Idempotency-Key', 'tip-card-1').send(body).expect(201);
    expect(first.body).toMatchObject({
      creatorId: creator.id,
      amount: '5.00',
      postId,
      message: 'Lovely post',
      source: 'card',
    });
    const again = await fan.agent.post('/api/tips').set('Idempotency-Key', 'tip-card-1').send(body).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);

    const credited = await eventually(
      () => earnings(creator.id),
      (list) => list.length >= 1,
    );
    expect(credited).toHaveLength(1);
    expect(credited[0]).toMatchObject({ source: 'tip', grossCents: 500, creatorShareCents: 450, platformFeeCents: 50 });
    const heldDays =
      (Date.parse(String(credited[0].availableAt)) - Date.parse(String(credited[0].occurredAt))) / 86_400_000;
    expect(heldDays).toBe(7);
  });

  it('tips from the USD balance, and refuses a balance too small', async () => {
    const short = await fan.agent
      .post('/api/tips')
      .send({ creatorId: creator.id, amountCents: 300, source: 'balance' })
      .expect(402);
    expect(short.body.error).toMatch(/^Insufficient balance: this tip is \$3\.00/);
    await creditBalance(
      stack.store,
      fan.id,
      { amountCents: 1000, reason: 'test', reference: `test:${unique()}` },
      { actorId: null, now: new Date() },
    );
    await fan.agent.post('/api/tips').send({ creatorId: creator.id, amountCents: 300, source: 'balance' }).expect(201);
    const wallet = (await stack.store.readStream(`wallet-${fan.id}`)).map((e) => [
      e.type,
      (e.data as { balanceCents: number }).balanceCents,
    ]);
    expect(wallet).toEqual([
      ['WalletCredited', 1000],
      ['WalletDebited', 700],
    ]);
    await eventually(
      () => earnings(creator.id),
      (list) => list.some((e) => e.grossCents === 300),
    );
  });

  it('refuses amounts outside $1 to $500, tipping yourself, an unknown post and a post by someone else', async () => {
    for (const amountCents of [99, 50_001, 1.5]) {
      const res = await fan.agent.post('/api/tips').send({ creatorId: creator.id, amountCents }).expect(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    }
    expect(
      (await fan.agent.post('/api/tips').send({ creatorId: creator.id, amountCents: 99 })).body.fields.amountCents,
    ).toBe('A tip is $1.00 to $500.00');
    await fan.agent.post('/api/tips').send({ creatorId: creator.id, amountCents: 50_000 }).expect(201);
    const self = await creator.agent.post('/api/tips').send({ creatorId: creator.id, amountCents: 100 }).expect(422);
    expect(self.body.error).toBe('You cannot tip yourself');
    await fan.agent
      .post('/api/tips')
      .send({ creatorId: creator.id, amountCents: 100, postId: '00000000-0000-4000-8000-000000000000' })
      .expect(404);
    const other = await member('Otto');
    await other.agent.post('/api/creators/register').send({ bio: 'Other' }).expect(201);
    const notTheirs = await fan.agent
      .post('/api/tips')
      .send({ creatorId: other.id, amountCents: 100, postId })
      .expect(422);
    expect(notTheirs.body.error).toBe('This post is not by that creator');
    const notACreator = await other.agent.post('/api/tips').send({ creatorId: fan.id, amountCents: 100 }).expect(404);
    expect(notACreator.body.error).toBe('Creator not found');
  });

  it('refuses a blocked pair, either way round', async () => {
    const blocker = await member('Bea');
    await creator.agent.post('/api/blocks').send({ userId: blocker.id }).expect(201);
    const res = await eventually(
      () => blocker.agent.post('/api/tips').send({ creatorId: creator.id, amountCents: 100 }),
      (r) => r.status === 403,
    );
    expect(res.body).toMatchObject({ code: 'BLOCKED', error: "You can't tip this creator" });
  });

  it('notifies the creator, shows in the billing history, and leaves the ledger reconciled', async () => {
    const notifications = await eventually(
      () => creator.agent.get('/api/notifications').then((r) => r.body),
      (body) => JSON.stringify(body).includes('tip'),
    );
    expect(JSON.stringify(notifications)).toMatch(/tipped you \$5\.00/);
    const history = await eventually(
      () => fan.agent.get('/api/billing/history').then((r) => r.body),
      (body) => JSON.stringify(body).includes('"tip"'),
    );
    expect(JSON.stringify(history)).toContain('Tip to Cora Tips');
    // The creator's total earnings count their 90% of each tip: $5.00, $3.00 and $500.00.
    const stats = await eventually(
      () => creator.agent.get(`/api/creators/${creator.id}/stats`).then((r) => r.body),
      (body) => body.totalEarnings === '457.20',
    );
    expect(stats.totalEarnings).toBe('457.20');
    expect(await stack.settle()).toBe(true);
    const report = await reconcile({ store: stack.store, db: stack.db }, new Date(Date.now() + 10 * 60_000));
    expect(report.problems).toEqual([]);
  });
});
