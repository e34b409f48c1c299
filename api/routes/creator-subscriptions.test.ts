import { randomUUID } from 'node:crypto';
import type { BillingEntry } from '../../domain/contracts/billing';
import type { MemberSubscription } from '../../domain/contracts/creator-subscriptions';
import { SITE_PLAN_PRICE_CENTS } from '../../domain/contracts/money';
import { SandboxGateway } from '../../domain/payments/sandbox-gateway';
import { changeStanding } from '../../domain/safety/commands';
import { reconcile } from '../../ops/commands/reconcile';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { replaceCardOnFile } from '../../ops/testing/members';
import { readWholeLog } from '../../ops/testing/read-whole-log';

jest.setTimeout(180_000);

/**
 * Creator subscriptions over time over HTTP, on an injected clock and the sandbox card gateway:
 * renewal (once, however often the tick runs), a declined renewal's retries, grace and expiry,
 * cancel and resubscribe, a tier change from the next period, the money-back guarantee.
 */
let stack: TestStack;
let now = new Date('2026-03-01T10:00:00.000Z');
const gateway = new SandboxGateway();
const DAY = 86_400_000;
const BASIC = 'default-basic';
const PREMIUM = 'default-premium';

beforeAll(async () => {
  stack = await startTestStack({ clock: () => now, ports: { paymentGateway: gateway } });
});
afterAll(() => stack.close());

type Agent = ReturnType<TestStack['agent']>;

async function register(firstName: string, paymentToken = 'dev_tok_good') {
  const agent = stack.agent();
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.test`;
  await agent
    .post('/api/auth/register')
    .send({ firstName, lastName: 'Test', email, password: 'Passw0rdOK', confirmPassword: 'Passw0rdOK', paymentToken })
    .expect(201);
  const user = await eventually(
    () => agent.get('/api/auth/user').then((r) => r.body),
    (me) => me?.subscriptionStatus === 'active',
  );
  const row = await stack.db('users').where({ id: user.id }).first('gateway_customer_id');
  return { agent, id: user.id as string, customerId: row.gateway_customer_id as string };
}

/** What stands charged on a card for creator tiers (the site plan's renewals at $1.99 aside). */
const tierCharged = (customerId: string) =>
  gateway
    .standingCharges(customerId)
    .filter((charge) => charge.amountCents !== SITE_PLAN_PRICE_CENTS)
    .reduce((sum, charge) => sum + charge.amountCents - charge.refundedCents, 0);

const mine = (agent: Agent) =>
  agent
    .get('/api/subscriptions')
    .expect(200)
    .then((r) => r.body.subscriptions as MemberSubscription[]);

const mineTo = async (agent: Agent, creatorId: string) =>
  (await mine(agent)).find((subscription) => subscription.creatorId === creatorId)!;

const history = (agent: Agent) =>
  agent
    .get('/api/billing/history')
    .expect(200)
    .then((r) => r.body.entries as BillingEntry[]);

/** Runs the clock-driven work at `at`, then waits for the read models. */
async function tickAt(at: Date, times = 1) {
  now = at;
  await Promise.all(Array.from({ length: times }, () => stack.tickers.runOnce()));
  await stack.settle();
}

async function subscribe(agent: Agent, creatorId: string, tierId = BASIC, expected = 201) {
  const res = await agent.post('/api/subscriptions').send({ creatorId, tierId }).expect(expected);
  return res.body as { id: string; endDate: string; price: string };
}

let creator: Awaited<ReturnType<typeof register>>;
let prices: Record<string, number>;

beforeAll(async () => {
  creator = await register('Cleo');
  await creator.agent.post('/api/creators/register').send({ bio: 'Renewal test creator' }).expect(201);
  const tiers = await eventually(
    () => creator.agent.get(`/api/creators/${creator.id}/tiers`).then((r) => r.body),
    (list) => Array.isArray(list) && list.length > 0,
  );
  prices = Object.fromEntries(
    (tiers as Array<{ id: string; price: string }>).map((tier) => [tier.id, Math.round(Number(tier.price) * 100)]),
  );
});

describe('creator subscriptions over time', () => {
  it('renews on the card on file once per period, however often (and concurrently) the tick runs', async () => {
    const member = await register('Rene');
    const started = await subscribe(member.agent, creator.id);
    expect(await mineTo(member.agent, creator.id)).toMatchObject({
      id: started.id,
      status: 'active',
      renewsAt: started.endDate,
      endsAt: null,
      refundableUntil: new Date(now.getTime() + 7 * DAY).toISOString(),
    });

    await tickAt(new Date(new Date(started.endDate).getTime() + 60_000), 3);
    await tickAt(new Date(new Date(started.endDate).getTime() + 120_000), 2);
    const renewed = await mineTo(member.agent, creator.id);
    expect(renewed).toMatchObject({ id: started.id, status: 'active', price: (prices[BASIC] / 100).toFixed(2) });
    expect(new Date(renewed.periodEnd).getTime()).toBeGreaterThan(new Date(started.endDate).getTime() + 27 * DAY);
    // Two tier charges stand on the card (the first month and one renewal), besides the site plan.
    const tierCharges = gateway
      .standingCharges(member.customerId)
      .filter((charge) => charge.amountCents === prices[BASIC]);
    expect(tierCharges).toHaveLength(2);

    // A renewal is a creator sale: credited once, with its own reference.
    const credits = await eventually(
      async () =>
        (await readWholeLog(stack.store)).filter(
          (event) =>
            event.type === 'EarningsCredited' &&
            (event.data as { reference: string; creatorId: string }).creatorId === creator.id,
        ),
      (events) => events.length === 2,
    );
    expect(new Set(credits.map((event) => (event.data as { reference: string }).reference)).size).toBe(2);

    // The member's billing history shows the renewal as a charge of its own.
    const tierRows = await eventually(
      async () => (await history(member.agent)).filter((entry) => entry.kind === 'tier_subscription'),
      (rows) => rows.length === 2,
    );
    expect(tierRows.map((entry) => entry.description)).toEqual([
      expect.stringMatching(/monthly renewal$/),
      expect.stringMatching(/1 month$/),
    ]);
  });

  it('a declined renewal is retried on schedule with access through the grace period, then expires', async () => {
    const member = await register('Dora');
    const started = await subscribe(member.agent, creator.id);
    // The member's card on file becomes one the sandbox declines every charge of.
    const card = await replaceCardOnFile(stack, gateway, member.id, now);
    const end = new Date(started.endDate).getTime();

    await tickAt(new Date(end + 60_000), 2);
    const pastDue = await mineTo(member.agent, creator.id);
    expect(pastDue).toMatchObject({
      status: 'past_due',
      renewsAt: new Date(end + DAY).toISOString(),
      endsAt: new Date(end + 7 * DAY).toISOString(),
    });
    const check = await member.agent.get(`/api/subscriptions/check/${creator.id}`);
    // The site plan renewed on the same card declines too; access to the creator is what is checked here.
    if (check.status === 200) expect(check.body.subscribed).toBe(true);

    for (const days of [1, 3, 5]) await tickAt(new Date(end + days * DAY + 60_000));
    expect(await mineTo(member.agent, creator.id)).toMatchObject({ status: 'past_due', renewsAt: null });
    await tickAt(new Date(end + 7 * DAY + 60_000));
    expect(await mineTo(member.agent, creator.id)).toMatchObject({ status: 'expired' });
    expect(gateway.standingCharges(card.customerId)).toEqual([]);

    const log = await readWholeLog(stack.store);
    const streamEvents = log
      .filter((event) => event.streamId === `creatorSubscription-${member.id}_${creator.id}`)
      .map((event) => event.type);
    expect(streamEvents).toEqual([
      'CreatorSubscriptionStarted',
      'CreatorSubscriptionRenewalDeclined',
      'CreatorSubscriptionRenewalDeclined',
      'CreatorSubscriptionRenewalDeclined',
      'CreatorSubscriptionRenewalDeclined',
      'CreatorSubscriptionExpired',
    ]);
    // Every transition told the member.
    const kinds = await eventually(
      () =>
        member.agent
          .get('/api/notifications')
          .then((r) => (r.body.items as Array<{ kind: string }>).map((n) => n.kind)),
      (list) => list.includes('subscription_ended'),
    );
    expect(kinds.filter((kind) => kind === 'subscription_renewal_failed')).toHaveLength(4);
  });

  it('cancel keeps access until the period ends; resubscribing restores renewal without a charge', async () => {
    const member = await register('Cara');
    const started = await subscribe(member.agent, creator.id);
    const charged = tierCharged(member.customerId);
    const canceled = await member.agent.post(`/api/subscriptions/${started.id}/cancel`).send({}).expect(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', renewsAt: null, endsAt: started.endDate });
    await member.agent.post(`/api/subscriptions/${started.id}/cancel`).send({}).expect(409);

    const again = await subscribe(member.agent, creator.id, BASIC, 200);
    expect(again).toMatchObject({ id: started.id, endDate: started.endDate });
    expect(await mineTo(member.agent, creator.id)).toMatchObject({ status: 'active', renewsAt: started.endDate });
    expect(tierCharged(member.customerId)).toBe(charged);

    // Canceled again, the period's end passes without a charge and it expires.
    await member.agent.post(`/api/subscriptions/${started.id}/cancel`).send({}).expect(200);
    await tickAt(new Date(new Date(started.endDate).getTime() + 60_000));
    expect(await mineTo(member.agent, creator.id)).toMatchObject({ status: 'expired' });
    expect(tierCharged(member.customerId)).toBe(charged);
  });

  it('a tier change is charged from the next period; the paid period keeps its tier', async () => {
    const member = await register('Tim');
    const started = await subscribe(member.agent, creator.id);
    const changed = await member.agent
      .post(`/api/subscriptions/${started.id}/tier`)
      .send({ tierId: PREMIUM })
      .expect(200);
    expect(changed.body).toMatchObject({
      tierId: BASIC,
      nextTier: { tierId: PREMIUM, price: (prices[PREMIUM] / 100).toFixed(2) },
    });
    await member.agent.post(`/api/subscriptions/${started.id}/tier`).send({ tierId: 'nope' }).expect(404);

    await tickAt(new Date(new Date(started.endDate).getTime() + 60_000));
    expect(await mineTo(member.agent, creator.id)).toMatchObject({
      tierId: PREMIUM,
      price: (prices[PREMIUM] / 100).toFixed(2),
      nextTier: null,
    });
    expect(gateway.standingCharges(member.customerId).map((charge) => charge.amountCents)).toContain(prices[PREMIUM]);
  });

  it('the money-back guarantee refunds a charge within 7 days and ends access at once; later it refuses', async () => {
    const member = await register('Mona');
    const started = await subscribe(member.agent, creator.id);
    const before = tierCharged(member.customerId);
    now = new Date(now.getTime() + 6 * DAY);
    const refunded = await member.agent.post(`/api/subscriptions/${started.id}/refund`).send({}).expect(200);
    expect(refunded.body).toMatchObject({ status: 'refunded', renewsAt: null, refundableUntil: null });
    expect(tierCharged(member.customerId)).toBe(before - prices[BASIC]);
    const check = await member.agent.get(`/api/subscriptions/check/${creator.id}`).expect(200);
    expect(check.body.subscribed).toBe(false);
    await member.agent.post(`/api/subscriptions/${started.id}/refund`).send({}).expect(409);
    const entries = await eventually(
      () => history(member.agent),
      (list) => list.some((entry) => entry.kind === 'refund'),
    );
    expect(entries.find((entry) => entry.kind === 'refund')).toMatchObject({
      direction: 'credit',
      amount: (prices[BASIC] / 100).toFixed(2),
    });
    expect(entries.find((entry) => entry.kind === 'tier_subscription')).toMatchObject({ status: 'refunded' });

    const late = await register('Lena');
    const lateStart = await subscribe(late.agent, creator.id);
    now = new Date(now.getTime() + 7 * DAY + 60_000);
    const refused = await late.agent.post(`/api/subscriptions/${lateStart.id}/refund`).send({}).expect(409);
    expect(refused.body.error).toMatch(/money-back guarantee lasts 7 days/);
    // Someone else's subscription is not found.
    await member.agent.post(`/api/subscriptions/${lateStart.id}/refund`).send({}).expect(404);
  });

  it("a member who subscribes again after a refund counts once on the creator's card and stats", async () => {
    const own = await register('Cara');
    await own.agent.post('/api/creators/register').send({ bio: 'Counted once' }).expect(201);
    const member = await register('Rita');
    const first = await subscribe(member.agent, own.id);
    await member.agent.post(`/api/subscriptions/${first.id}/refund`).send({}).expect(200);
    await subscribe(member.agent, own.id);
    await stack.settle();
    const runs = await stack.db('creator_subscriptions').where({ creator_id: own.id, subscriber_id: member.id });
    expect(runs.map((run) => run.status).sort()).toEqual(['active', 'refunded']);
    const card = await member.agent.get(`/api/creators/${own.id}`).expect(200);
    expect(card.body.subscriberCount).toBe(1);
    const stats = await own.agent.get(`/api/creators/${own.id}/stats`).expect(200);
    expect(stats.body.subscriberCount).toBe(1);
  });

  it("a banned creator's subscribers are not charged again: the renewal fails and runs out", async () => {
    const member = await register('Bea');
    const other = await register('Olga');
    await other.agent.post('/api/creators/register').send({ bio: 'Soon banned' }).expect(201);
    const started = await subscribe(member.agent, other.id);
    const charged = tierCharged(member.customerId);
    await changeStanding(
      stack.store,
      { type: 'BanUser', userId: other.id, staffId: creator.id, reason: 'test', reportId: null, now },
      { actorId: creator.id, now },
    );
    await tickAt(new Date(new Date(started.endDate).getTime() + 60_000));
    const pastDue = (await mine(member.agent)).find((subscription) => subscription.creatorId === other.id);
    expect(pastDue).toMatchObject({ status: 'past_due' });
    expect(tierCharged(member.customerId)).toBe(charged);
  });

  it('the ledger reconciles: renewals, declines and refunds leave no problem', async () => {
    await stack.settle();
    const report = await reconcile({ store: stack.store, db: stack.db }, new Date(now.getTime() + 10 * 60_000));
    expect(report.problems).toEqual([]);
  });
});
