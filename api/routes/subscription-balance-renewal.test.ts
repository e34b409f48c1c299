import type { MemberSubscription } from '../../domain/contracts/creator-subscriptions';
import { creatorSubscriptionStream } from '../../domain/creators/events';
import { FixedRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import { SandboxGateway } from '../../domain/payments/sandbox-gateway';
import { reconcile } from '../../ops/commands/reconcile';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { eventually } from '../../ops/testing/eventually';
import { signUpMember, type TestMember } from '../../ops/testing/members';

jest.setTimeout(180_000);

/**
 * Creator subscriptions renewed from the USD balance where the member chose it (issue 21), over
 * HTTP on an injected clock: the choice and its refusals, a renewal paid from the balance (the
 * creator earns 90% of it, no card is charged), a balance too low (a decline the member can
 * read, retried on the card once they switch back), the money-back guarantee paying a balance
 * period back to the balance, and reconcile clean after all of it.
 */
let stack: TestStack;
let now = new Date('2026-06-01T10:00:00.000Z');
const gateway = new SandboxGateway();
const BASIC = 'default-basic'; // $9.99
const PREMIUM = 'default-premium'; // $19.99
let creator: TestMember;

beforeAll(async () => {
  stack = await startTestStack({
    clock: () => now,
    trustProxy: true,
    ports: {
      paymentGateway: gateway,
      cryptoRates: new FixedRatesProvider({ USDC: 10_000n, USDT: 10_000n }),
      cryptoGateway: new SandboxCryptoGateway(0),
    },
  });
  creator = await signUpMember(stack, 'Rhea', { lastName: 'Creator' });
  await creator.agent.post('/api/creators/register').send({ bio: 'Renewals from the balance' }).expect(201);
});
afterAll(() => stack.close());

let sequence = 0;
/** A member with the USD of `usdc` (less the 3% fee: 20 USDC -> $19.40) subscribed to one of the creator's tiers by card. */
async function subscribedMember(name: string, usdc: string, tierId = BASIC) {
  const member = await signUpMember(stack, name);
  if (usdc !== '0') {
    await member.agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: usdc, cryptoType: 'USDC', walletAddress: `0xBalanceRenewal${++sequence}` })
      .expect(202);
    await stack.tickers.runOnce();
    await eventually(
      () => balanceOf(member),
      (balance) => balance !== '0.00',
    );
  }
  const res = await member.agent.post('/api/subscriptions').send({ creatorId: creator.id, tierId }).expect(201);
  return { member, subscriptionId: res.body.id as string, periodEnd: new Date(res.body.endDate as string) };
}

const balanceOf = (member: TestMember) =>
  member.agent.get('/api/crypto/balance').then((res) => res.body.totalUsd as string);
const mySubscription = (member: TestMember) =>
  member.agent.get('/api/subscriptions').then((res) => (res.body.subscriptions as MemberSubscription[])[0]);
/** What the sandbox gateway holds charged to the member's card (the site plan renews on the same clock too). */
const charged = async (member: TestMember) => {
  const user = await stack.db('users').where({ id: member.id }).first();
  return gateway.netChargedCents(user.gateway_customer_id);
};
const earnings = () => creator.agent.get(`/api/payouts/${creator.id}/dashboard`).then((res) => res.body);

async function tickAt(at: Date) {
  now = at;
  await stack.tickers.runOnce();
  expect(await stack.settle()).toBe(true);
}

const chooseSource = (member: TestMember, id: string, source: unknown) =>
  member.agent.post(`/api/subscriptions/${id}/renewal-source`).send({ source });

describe('creator subscriptions renewed from the USD balance', () => {
  it('lets the member choose how renewals are paid, and refuses what cannot be chosen', async () => {
    const { member, subscriptionId } = await subscribedMember('Ines', '0');
    expect((await mySubscription(member)).renewFrom).toBe('card');

    const chosen = await chooseSource(member, subscriptionId, 'balance').expect(200);
    expect(chosen.body).toMatchObject({ id: subscriptionId, renewFrom: 'balance', status: 'active' });
    await chooseSource(member, subscriptionId, 'balance').expect(200); // the same choice again changes nothing
    const events = await stack.store.readStream(creatorSubscriptionStream(member.id, creator.id));
    expect(events.filter((e) => e.type === 'CreatorSubscriptionRenewalSourceChanged')).toHaveLength(1);

    const wrong = await chooseSource(member, subscriptionId, 'paypal').expect(400);
    expect(wrong.body).toMatchObject({ code: 'VALIDATION_ERROR', fields: { source: 'Choose card or balance' } });
    const stranger = await signUpMember(stack, 'Stranger');
    await chooseSource(stranger, subscriptionId, 'card').expect(404);

    await member.agent.post(`/api/subscriptions/${subscriptionId}/cancel`).expect(200);
    const canceled = await chooseSource(member, subscriptionId, 'card').expect(409);
    expect(canceled.body.error).toBe('This subscription is canceled: it will not renew');
  });

  it('renews from the balance: the balance pays, the card is not charged, the creator earns 90%', async () => {
    const { member, subscriptionId, periodEnd } = await subscribedMember('Juno', '20'); // $19.40
    expect(await balanceOf(member)).toBe('19.40');
    await chooseSource(member, subscriptionId, 'balance').expect(200);
    const earnedBefore = Number((await earnings()).totalEarnings);
    const chargesBefore = await charged(member);

    await tickAt(new Date(periodEnd.getTime() + 60_000));
    const renewed = await mySubscription(member);
    expect(renewed).toMatchObject({ status: 'active', renewFrom: 'balance', price: '9.99' });
    expect(new Date(renewed.periodEnd).getTime()).toBeGreaterThan(periodEnd.getTime());
    expect(await balanceOf(member)).toBe('9.41');
    expect(await charged(member)).toBe(chargesBefore + 199); // its site plan, not the tier
    await eventually(
      () => earnings(),
      (body) => Math.round((Number(body.totalEarnings) - earnedBefore) * 100) === 899, // 90% of $9.99
    );
    // A second tick in the same period takes nothing more.
    await tickAt(new Date(periodEnd.getTime() + 120_000));
    expect(await balanceOf(member)).toBe('9.41');

    // The money-back guarantee gives the period back to the balance and ends access at once.
    const refunded = await member.agent.post(`/api/subscriptions/${subscriptionId}/refund`).expect(200);
    expect(refunded.body).toMatchObject({ status: 'refunded' });
    expect(await balanceOf(member)).toBe('19.40');
    expect(await charged(member)).toBe(chargesBefore + 199);
    await eventually(
      () => earnings(),
      (body) => Math.round((Number(body.totalEarnings) - earnedBefore) * 100) === 0,
    );
    // Claimed again: nothing more is given back.
    await member.agent.post(`/api/subscriptions/${subscriptionId}/refund`).expect(409);
    expect(await balanceOf(member)).toBe('19.40');
  });

  it('declines a renewal the balance does not cover, says why, and retries on the card once chosen', async () => {
    const { member, subscriptionId, periodEnd } = await subscribedMember('Kira', '11', PREMIUM); // $10.67 for $19.99
    await chooseSource(member, subscriptionId, 'balance').expect(200);

    await tickAt(new Date(periodEnd.getTime() + 60_000));
    expect(await mySubscription(member)).toMatchObject({ status: 'past_due', renewFrom: 'balance' });
    expect(await balanceOf(member)).toBe('10.67');
    const notices = await eventually(
      () => member.agent.get('/api/notifications').then((res) => res.body.items as Array<{ body: string }>),
      (list) => list.some((n) => n.body.startsWith('Your USD balance did not cover the renewal of')),
    );
    expect(notices.some((n) => n.body.startsWith('Your USD balance did not cover the renewal of Rhea Creator'))).toBe(
      true,
    );
    const declined = (await stack.store.readStream(creatorSubscriptionStream(member.id, creator.id))).find(
      (e) => e.type === 'CreatorSubscriptionRenewalDeclined',
    );
    expect(declined?.data).toMatchObject({
      paidFrom: 'balance',
      failureReason: 'Insufficient USD balance: the renewal is $19.99 and your balance is $10.67',
    });

    // Back to the card: the next try (a day after the period end) charges it.
    await chooseSource(member, subscriptionId, 'card').expect(200);
    const chargesBefore = await charged(member);
    await tickAt(new Date(periodEnd.getTime() + 86_400_000 + 60_000));
    expect(await mySubscription(member)).toMatchObject({ status: 'active', renewFrom: 'card' });
    expect((await charged(member)) - chargesBefore).toBe(1999);
    expect(await balanceOf(member)).toBe('10.67');
  });

  it('leaves npm run ops -- reconcile clean', async () => {
    expect(await stack.settle()).toBe(true);
    const report = await reconcile({ store: stack.store, db: stack.db }, now);
    expect(report.problems).toEqual([]);
    expect(report.warnings.filter((w) => w.startsWith('creator_sales_clearing'))).toEqual([]);
  });
});
