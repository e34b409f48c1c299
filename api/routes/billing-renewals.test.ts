import { randomUUID } from 'node:crypto';
import type { BillingEntry } from '../../domain/contracts/billing';
import type { MemberSubscription } from '../../domain/contracts/creator-subscriptions';
import { FixedRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import { SANDBOX_INSUFFICIENT, SandboxGateway } from '../../domain/payments/sandbox-gateway';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { replaceCardOnFile } from '../../ops/testing/members';

jest.setTimeout(180_000);

/**
 * Creator-subscription renewals in the member's billing history over HTTP (issue 21), on an
 * injected clock and the sandbox card gateway: each declined attempt is a row of its own at the
 * price it tried, without a receipt, saying why it was declined; a renewal paid from the USD
 * balance is one row, by balance.
 */
let stack: TestStack;
let now = new Date('2026-05-01T10:00:00.000Z');
const gateway = new SandboxGateway();
const DAY = 86_400_000;
const BASIC = 'default-basic';
const BASIC_PRICE = '9.99';

beforeAll(async () => {
  stack = await startTestStack({
    clock: () => now,
    ports: {
      paymentGateway: gateway,
      cryptoRates: new FixedRatesProvider({ USDC: 10_000n, USDT: 10_000n }),
      cryptoGateway: new SandboxCryptoGateway(0),
    },
  });
});
afterAll(() => stack.close());

type Agent = ReturnType<TestStack['agent']>;

async function register(firstName: string) {
  const agent = stack.agent();
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`;
  await agent
    .post('/api/auth/register')
    .send({
      firstName,
      lastName: 'Test',
      email,
      password: 'Passw0rdOK',
      confirmPassword: 'Passw0rdOK',
      paymentToken: 'dev_tok_good_1234',
    })
    .expect(201);
  const user = await eventually(
    () => agent.get('/api/auth/user').then((r) => r.body),
    (me) => me?.subscriptionStatus === 'active',
  );
  return { agent, id: user.id as string };
}

/** The member's creator-tier rows and refunds (the site plan renews on the same clock: left out). */
const tierHistory = (agent: Agent) =>
  agent
    .get('/api/billing/history')
    .expect(200)
    .then((r) =>
      (r.body.entries as BillingEntry[]).filter((e) => e.kind === 'tier_subscription' || e.kind === 'refund'),
    );

async function tickAt(at: Date) {
  now = at;
  await stack.tickers.runOnce();
  await stack.settle();
}

async function subscribe(agent: Agent, creatorId: string) {
  const res = await agent.post('/api/subscriptions').send({ creatorId, tierId: BASIC }).expect(201);
  return res.body as { id: string; endDate: string };
}

let creator: Awaited<ReturnType<typeof register>>;
beforeAll(async () => {
  creator = await register('Cleo');
  await creator.agent.post('/api/creators/register').send({ bio: 'Billing renewals creator' }).expect(201);
});

describe('creator renewals in the billing history', () => {
  it('lists each declined attempt at the tier’s price, with its card and no receipt', async () => {
    const member = await register('Dora');
    const started = await subscribe(member.agent, creator.id);
    // The card on file becomes one the sandbox declines every charge of (SANDBOX_INSUFFICIENT: 'Insufficient funds').
    await replaceCardOnFile(stack, gateway, member.id, now);
    const end = new Date(started.endDate).getTime();
    await tickAt(new Date(end + 60_000));
    await tickAt(new Date(end + DAY + 60_000));

    const rows = await eventually(
      () => tierHistory(member.agent),
      (list) => list.filter((e) => e.status === 'declined').length === 2,
    );
    expect(rows.map((e) => [e.direction, e.amount, e.status, e.method, e.hasReceipt, e.description])).toEqual([
      [
        'charge',
        BASIC_PRICE,
        'declined',
        { type: 'card', cardLast4: '9999' },
        false,
        'Subscription to Cleo Test – Basic, monthly renewal (attempt 2)',
      ],
      [
        'charge',
        BASIC_PRICE,
        'declined',
        { type: 'card', cardLast4: '9999' },
        false,
        'Subscription to Cleo Test – Basic, monthly renewal (attempt 1)',
      ],
      [
        'charge',
        BASIC_PRICE,
        'paid',
        { type: 'card', cardLast4: '1234' },
        true,
        'Subscription to Cleo Test – Basic, 1 month',
      ],
    ]);
    // Each declined attempt says why: the card processor's own reason; the paid row has nothing to explain.
    expect(rows.map((e) => e.detail)).toEqual([SANDBOX_INSUFFICIENT, SANDBOX_INSUFFICIENT, null]);
    // A declined attempt has no receipt: it answers as one that does not exist.
    await member.agent.get(`/api/billing/receipts/${rows[0].id}`).expect(404);
  });

  it('shows a renewal paid from the USD balance once, by balance (its wallet debit adds no row), then one the balance could not pay', async () => {
    const member = await register('Bea');
    await member.agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: '20', cryptoType: 'USDC', walletAddress: '0xBillingRenewal1' })
      .expect(202);
    await stack.tickers.runOnce();
    await eventually(
      () => member.agent.get('/api/crypto/balance').then((r) => r.body),
      (balance) => balance.totalUsd === '19.40',
    );
    const started = await subscribe(member.agent, creator.id);
    // The member chooses the balance for renewals.
    await member.agent.post(`/api/subscriptions/${started.id}/renewal-source`).send({ source: 'balance' }).expect(200);
    await tickAt(new Date(new Date(started.endDate).getTime() + 60_000));

    const rows = await eventually(
      () => tierHistory(member.agent),
      (list) => list.length === 2,
    );
    expect(rows.map((e) => [e.direction, e.amount, e.status, e.method, e.description])).toEqual([
      ['charge', BASIC_PRICE, 'paid', { type: 'usd_balance' }, 'Subscription to Cleo Test – Basic, monthly renewal'],
      [
        'charge',
        BASIC_PRICE,
        'paid',
        { type: 'card', cardLast4: '1234' },
        'Subscription to Cleo Test – Basic, 1 month',
      ],
    ]);
    const balance = await member.agent.get('/api/crypto/balance').expect(200);
    expect(balance.body.totalUsd).toBe('9.41');
    const receipt = await member.agent.get(`/api/billing/receipts/${rows[0].id}`).expect(200);
    expect(receipt.body).toMatchObject({ amount: BASIC_PRICE, method: { type: 'usd_balance' }, status: 'paid' });
    expect(rows.map((e) => e.detail)).toEqual([null, null]);

    // The next renewal finds $9.41 for the $9.99: declined, and the row says so in the member's terms.
    const subscriptions = await member.agent.get('/api/subscriptions').expect(200);
    const renewsAt = (subscriptions.body.subscriptions as MemberSubscription[])[0].renewsAt!;
    await tickAt(new Date(new Date(renewsAt).getTime() + 60_000));
    const [declined] = await eventually(
      () => tierHistory(member.agent),
      (list) => list.length === 3,
    );
    expect([declined.amount, declined.status, declined.method, declined.hasReceipt, declined.detail]).toEqual([
      BASIC_PRICE,
      'declined',
      { type: 'usd_balance' },
      false,
      'Insufficient USD balance: the renewal is $9.99 and your balance is $9.41',
    ]);
  });
});
