import { randomUUID } from 'node:crypto';
import { formatCents, parseCents } from '../../domain/contracts/money';
import { FixedRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import type { MembershipActivatedData } from '../../domain/membership/events';
import type { BalanceMovement } from '../../domain/wallet/events';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

jest.setTimeout(180_000);

/**
 * POST /api/subscribe/crypto fired 50 times at once by one member: every $11.94 taken from the
 * balance buys its 7 months (the spend and its effect cannot come apart), the balance never
 * goes below zero, and no answer is a 5xx.
 */
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

async function memberWithBalance(cryptoAmount: string, netUsd: string) {
  const agent = stack.agent();
  const email = `plan-${randomUUID()}@example.test`;
  const res = await agent
    .post('/api/auth/register')
    .send({
      firstName: 'Pia',
      lastName: 'Parallel',
      email,
      password: 'Passw0rdOK',
      confirmPassword: 'Passw0rdOK',
      paymentToken: 'dev_tok_parallel',
    })
    .expect(201);
  const userId = (res.body.user ?? (await eventually(() => stack.db('users').where({ email }).first('id'), Boolean)))
    .id as string;
  await agent
    .post('/api/crypto/convert')
    .send({ cryptoAmount, cryptoType: 'USDC', walletAddress: '0xParallelPayer' })
    .expect(202);
  await stack.tickers.runOnce();
  const balance = await eventually(
    () => agent.get('/api/crypto/balance').then((r) => r.body.totalUsd),
    (total) => total === netUsd,
  );
  expect(balance).toBe(netUsd);
  return { agent, userId };
}

const monthsBetween = (start: string, end: string) =>
  (new Date(end).getUTCFullYear() - new Date(start).getUTCFullYear()) * 12 +
  new Date(end).getUTCMonth() -
  new Date(start).getUTCMonth();

async function fireAndCount(agent: ReturnType<TestStack['agent']>, userId: string, calls: number) {
  const answers = await Promise.all(
    Array.from({ length: calls }, () => agent.post('/api/subscribe/crypto').send({ months: 6 })),
  );
  expect(await stack.settle()).toBe(true);
  const spends = (await stack.store.readStream(`wallet-${userId}`))
    .filter((e) => e.type === 'WalletDebited')
    .map((e) => e.data as BalanceMovement);
  const plans = (await stack.store.readStream(`membership-${userId}`))
    .filter((e) => e.type === 'MembershipActivated' && (e.data as MembershipActivatedData).source === 'crypto')
    .map((e) => e.data as MembershipActivatedData);
  const statuses = answers.map((a) => a.status);
  return { answers, statuses, spends, plans };
}

function expectEverySpendBoughtItsMonths({ statuses, spends, plans }: Awaited<ReturnType<typeof fireAndCount>>) {
  const count = (status: number) => statuses.filter((s) => s === status).length;

  console.log(
    `50 parallel crypto plans: ${count(200)} × 200, ${count(409)} × 409, ${count(422)} × 422; ${spends.length} debits, ${plans.length} activations`,
  );
  expect(spends.length).toBeGreaterThan(0);
  expect(plans.map((p) => p.paymentId).sort()).toEqual(
    spends.map((s) => s.reference.replace('membership:', '')).sort(),
  );
  expect(plans.reduce((sum, p) => sum + monthsBetween(p.periodStart, p.periodEnd), 0)).toBe(7 * spends.length);
  expect(spends.every((s) => s.amountCents === 1194 && s.balanceCents >= 0)).toBe(true);
  expect(count(200)).toBe(spends.length);
}

describe('POST /api/subscribe/crypto, 50 at once', () => {
  it('with a balance for more plans than calls: every answer 200 or 409, debits == activations', async () => {
    const { agent, userId } = await memberWithBalance('700', '679.00');
    const result = await fireAndCount(agent, userId, 50);
    expect(result.statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    for (const conflict of result.answers.filter((a) => a.status === 409))
      expect(conflict.body).toMatchObject({ code: 'CONFLICT', error: expect.stringContaining('just bought') });
    expectEverySpendBoughtItsMonths(result);
    const expected = formatCents(67_900 - 1194 * result.spends.length);
    expect(
      await eventually(
        () => agent.get('/api/crypto/balance').then((r) => r.body.totalUsd),
        (total) => total === expected,
      ),
    ).toBe(expected);
  });

  it('with a balance for a few plans: the balance runs out at zero or above, and only then the SPEC 422', async () => {
    const { agent, userId } = await memberWithBalance('50', '48.50');
    const result = await fireAndCount(agent, userId, 50);
    expect(result.statuses.filter((s) => ![200, 409, 422].includes(s))).toEqual([]);
    expectEverySpendBoughtItsMonths(result);
    expect(result.spends.length).toBeLessThanOrEqual(4);
    for (const short of result.answers.filter((a) => a.status === 422)) {
      expect(short.body.message).toMatch(
        /^Insufficient crypto balance: the 6-month plan costs \$11\.94 and your balance is \$\d+\.\d\d\. Convert more crypto first\.$/,
      );
      expect(parseCents(short.body.message.match(/balance is \$(\d+\.\d\d)/)[1])).toBeLessThan(1194);
    }
  });
});
