import { randomUUID } from 'node:crypto';
import type { BillingEntry, BillingHistoryPage } from '../../domain/contracts/billing';
import { FixedRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { verifyIdentity } from '../../ops/testing/identity-verification';

jest.setTimeout(120_000);

/** A member's billing history and receipts over HTTP, after every kind of money fact the product has. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    ports: {
      cryptoRates: new FixedRatesProvider({ USDC: 10_000n, USDT: 10_000n }),
      cryptoGateway: new SandboxCryptoGateway(0),
    },
  });
});
afterAll(() => stack.close());

type Agent = ReturnType<TestStack['agent']>;

async function register(firstName: string, lastName: string, paymentToken: string) {
  const agent = stack.agent();
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`;
  await agent
    .post('/api/auth/register')
    .send({ firstName, lastName, email, password: 'Passw0rdOK', confirmPassword: 'Passw0rdOK', paymentToken })
    .expect(201);
  const me = await eventually(
    () => agent.get('/api/auth/user').then((r) => r.body),
    (user) => user?.subscriptionStatus === 'active',
  );
  return { agent, id: me.id as string, email };
}

const history = (agent: Agent, query: Record<string, string | number> = {}) =>
  agent
    .get('/api/billing/history')
    .query(query)
    .expect(200)
    .then((r) => r.body as BillingHistoryPage);

let member: Awaited<ReturnType<typeof register>>;
let creator: Awaited<ReturnType<typeof register>>;
let entries: BillingEntry[];

beforeAll(async () => {
  [member, creator] = await Promise.all([
    register('Mia', 'Money', 'dev_tok_billing_1234'),
    register('Cleo', 'Creator', 'dev_tok_creator_5678'),
  ]);
  await creator.agent.post('/api/creators/register').send({ bio: 'Billing test creator' }).expect(201);
  await verifyIdentity(stack, creator.agent, creator.id); // paid messages need it (issue 20)

  await member.agent
    .post('/api/crypto/convert')
    .send({ cryptoAmount: '20', cryptoType: 'USDC', walletAddress: '0xBillingPayer1' })
    .expect(202);
  await stack.tickers.runOnce();
  await eventually(
    () => member.agent.get('/api/crypto/balance').then((r) => r.body),
    (balance) => balance.totalUsd === '19.40',
  );
  await member.agent.post('/api/subscribe/crypto').send({ months: 6 }).expect(200);
  await member.agent.post('/api/subscriptions').send({ creatorId: creator.id, tierId: 'default-premium' }).expect(201);
  const message = await creator.agent
    .post('/api/messages')
    .send({ receiverId: member.id, content: 'Pay to read', price: '2.50' })
    .expect(201);
  await member.agent.post(`/api/messages/${message.body.id}/unlock`).send({}).expect(200);
  expect(await stack.settle()).toBe(true);
  entries = (await history(member.agent)).entries;
});

describe('GET /api/billing/history', () => {
  it('lists every money fact of the member, newest first, with exact cents, method and status', () => {
    expect(entries.map((e) => [e.kind, e.direction, e.amount, e.status, e.description])).toEqual([
      ['message_unlock', 'charge', '2.50', 'paid', 'Unlocked message from Cleo Creator'],
      ['tier_subscription', 'charge', '19.99', 'paid', 'Subscription to Cleo Creator – Premium, 1 month'],
      ['site_plan', 'charge', '11.94', 'paid', 'Lively site plan, 6 months + 1 free'],
      ['crypto_conversion', 'credit', '19.40', 'credited', 'USDC → USD conversion'],
      ['site_plan', 'charge', '1.99', 'paid', 'Lively site plan, 1 month'],
    ]);
    expect(entries.map((e) => e.method)).toEqual([
      { type: 'usd_balance' },
      { type: 'card', cardLast4: '1234' },
      { type: 'usd_balance' },
      { type: 'crypto', cryptoType: 'USDC' },
      { type: 'card', cardLast4: '1234' },
    ]);
    expect(entries.map((e) => e.hasReceipt)).toEqual([true, true, true, false, true]);
    // Nothing here was declined or failed: no row has a reason to give.
    expect(entries.map((e) => e.detail)).toEqual([null, null, null, null, null]);
  });

  it('shows only one’s own history, and pages by cursor', async () => {
    const theirs = (await history(creator.agent)).entries;
    expect(theirs.map((e) => [e.kind, e.amount])).toEqual([['site_plan', '1.99']]);
    const first = await history(member.agent, { limit: 2 });
    expect(first.entries.map((e) => e.id)).toEqual(entries.slice(0, 2).map((e) => e.id));
    const second = await history(member.agent, { limit: 2, cursor: first.nextCursor! });
    const third = await history(member.agent, { limit: 2, cursor: second.nextCursor! });
    expect([...second.entries, ...third.entries].map((e) => e.id)).toEqual(entries.slice(2).map((e) => e.id));
    expect(third.nextCursor).toBeNull();
  });

  it('refuses a bad cursor or limit with a 400, and visitors with a 401', async () => {
    const bad = await member.agent.get('/api/billing/history').query({ cursor: 'not-a-cursor' }).expect(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { cursor: 'Invalid cursor' } });
    await member.agent.get('/api/billing/history').query({ limit: 0 }).expect(400);
    await member.agent.get('/api/billing/history').query({ limit: 'many' }).expect(400);
    await stack.agent().get('/api/billing/history').expect(401);
  });
});

describe('GET /api/billing/receipts/:id', () => {
  it('prints a charge with number, member, item, period, amount, card and status', async () => {
    const tier = entries.find((e) => e.kind === 'tier_subscription')!;
    const receipt = (await member.agent.get(`/api/billing/receipts/${tier.id}`).expect(200)).body;
    expect(receipt).toMatchObject({
      id: tier.id,
      member: { name: 'Mia Money', email: member.email },
      item: 'Subscription to Cleo Creator – Premium, 1 month',
      amount: '19.99',
      currency: 'USD',
      method: { type: 'card', cardLast4: '1234' },
      status: 'paid',
      refunds: [],
      refundedAmount: '0.00',
    });
    expect(receipt.number).toMatch(/^LV-\d{8}-[0-9A-F]{8}$/);
    expect(new Date(receipt.periodEnd).getTime()).toBeGreaterThan(new Date(receipt.periodStart).getTime());
  });

  it('answers another member’s receipt exactly like one that does not exist', async () => {
    const tier = entries.find((e) => e.kind === 'tier_subscription')!;
    const theirs = await creator.agent.get(`/api/billing/receipts/${tier.id}`).expect(404);
    const unknown = await creator.agent.get(`/api/billing/receipts/${randomUUID()}`).expect(404);
    expect(theirs.body.error).toBe(unknown.body.error);
    const credit = entries.find((e) => e.kind === 'crypto_conversion')!;
    await member.agent.get(`/api/billing/receipts/${credit.id}`).expect(404);
    await member.agent.get('/api/billing/receipts/not-an-id').expect(404);
    await stack.agent().get(`/api/billing/receipts/${tier.id}`).expect(401);
  });
});
