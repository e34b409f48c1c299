import { randomUUID } from 'node:crypto';
import { creatorSubscriptionStream } from '../../domain/creators/events';
import { paymentDecider } from '../../domain/payments/decider';
import { paymentStream, type ChargeDisputedData } from '../../domain/payments/events';
import { creatorAccountStream } from '../../domain/payouts/events';
import { SandboxGateway } from '../../domain/payments/sandbox-gateway';
import { handleCommand } from '../../domain/shared/command-handler';
import { tipCreator } from '../../domain/tips/commands';
import { reconcile } from '../../ops/commands/reconcile';
import { eventually, person, ready } from '../../ops/testing/payouts-fixtures';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

jest.setTimeout(180_000);

let stack: TestStack;
const gateway = new SandboxGateway({ disputeDelayMs: 0 });
beforeAll(async () => {
  stack = await startTestStack({ ports: { paymentGateway: gateway } });
  await ready(stack);
});
afterAll(() => stack.close());

const context = () => ({ actorId: null, now: new Date() });

/** A member's site-plan card charge, recorded as the membership purchase records it. */
async function sitePlanCharge(userId: string, token = 'dev_tok_refunds') {
  const card = await gateway.createCustomer({ email: 'm@x.y', name: 'M', paymentToken: token, idempotencyKey: userId });
  const paymentId = randomUUID();
  const result = await gateway.charge({
    customerId: card.customerId,
    amountCents: 199,
    currency: 'USD',
    description: 'Lively membership',
    idempotencyKey: `test:${paymentId}`,
  });
  await handleCommand(
    stack.store,
    paymentStream(paymentId),
    paymentDecider,
    {
      type: 'RecordCharge',
      paymentId,
      userId,
      requestType: 'membership_subscribe',
      gatewayCustomerId: card.customerId,
      amountCents: 199,
      currency: 'USD',
      cardHolderName: null,
      email: null,
      correlationId: null,
      result,
      now: new Date(),
    },
    context(),
  );
  await eventually(
    () => stack.db('payments').where({ id: paymentId }).first(),
    (row) => !!row,
  );
  return { paymentId, customerId: card.customerId, transactionId: result.transactionId };
}

/** A creator-tier charge (a creator sale), as a subscription records it. */
async function tierCharge(
  subscriberId: string,
  creatorId: string,
  priceCents: number,
  token = 'dev_tok_tier',
  start = new Date(),
) {
  const card = await gateway.createCustomer({ email: 's@x.y', name: 'S', paymentToken: token, idempotencyKey: token });
  const subscriptionId = randomUUID();
  const charge = await gateway.charge({
    customerId: card.customerId,
    amountCents: priceCents,
    currency: 'USD',
    description: 'Creator subscription',
    idempotencyKey: `test:${subscriptionId}`,
  });
  await stack.store.append(
    creatorSubscriptionStream(subscriberId, creatorId),
    [
      {
        type: 'CreatorSubscriptionStarted',
        data: {
          subscriptionId,
          subscriberId,
          creatorId,
          tierId: 'tier-1',
          tierName: 'Basic',
          priceCents,
          transactionId: charge.transactionId,
          startDate: start.toISOString(),
          endDate: new Date(start.getTime() + 30 * 86_400_000).toISOString(),
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  await eventually(
    () => stack.db('payments').where({ id: subscriptionId }).first(),
    (row) => !!row,
  );
  return { subscriptionId, customerId: card.customerId, transactionId: charge.transactionId };
}

const paymentRow = async (admin: Awaited<ReturnType<typeof person>>, id: string) =>
  (await admin.agent.get(`/api/admin/payments?id=${id}`).expect(200)).body.rows[0];

describe('POST /api/admin/payments/:id/refund', () => {
  it('refunds a site-plan charge in part, then the rest; refuses more than is left and non-staff', async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const { paymentId, customerId } = await sitePlanCharge(member.userId);
    const refund = (body: object) => admin.agent.post(`/api/admin/payments/${paymentId}/refund`).send(body);

    const partial = await refund({ amountCents: 50, reason: 'goodwill' }).expect(200);
    expect(partial.body).toMatchObject({ paymentId, sequence: 1, amount: '0.50', refundedTotal: '0.50', full: false });
    expect(await paymentRow(admin, paymentId)).toMatchObject({
      status: 'partially_refunded',
      refunded: '0.50',
      refundable: '1.49',
    });

    const over = await refund({ amountCents: 150, reason: 'too much' }).expect(422);
    expect(over.body).toMatchObject({ error: 'The refund exceeds what remains refundable ($1.49)' });
    await refund({ amountCents: 0, reason: 'zero' }).expect(400);
    await refund({ amountCents: 10 }).expect(400);
    await member.agent.post(`/api/admin/payments/${paymentId}/refund`).send({ reason: 'mine' }).expect(403);
    await admin.agent.post(`/api/admin/payments/${randomUUID()}/refund`).send({ reason: 'x' }).expect(404);

    const rest = await refund({ reason: 'cancel the rest' }).expect(200);
    expect(rest.body).toMatchObject({ sequence: 2, amount: '1.49', refundedTotal: '1.99', full: true });
    expect(gateway.netChargedCents(customerId)).toBe(0);
    expect(await paymentRow(admin, paymentId)).toMatchObject({ status: 'refunded', refundable: '0.00' });
    await refund({ reason: 'again' }).expect(409);
    // Refunded in full: the membership period it paid for ends.
    await eventually(
      () => stack.db('users').where({ id: member.userId }).first(),
      (user) => user?.subscription_status === 'expired',
    );

    // The member's billing history: the charge refunded, and a credit per refund with its reason.
    const history = await eventually(
      () => member.agent.get('/api/billing/history').expect(200),
      (res) => res.body.entries.length === 3,
    );
    expect(history.body.entries).toEqual([
      expect.objectContaining({ kind: 'refund', direction: 'credit', amount: '1.49', status: 'credited' }),
      expect.objectContaining({ kind: 'refund', direction: 'credit', amount: '0.50', status: 'credited' }),
      expect.objectContaining({ kind: 'site_plan', direction: 'charge', amount: '1.99', status: 'refunded' }),
    ]);
  });

  it('never refunds twice when the gateway times out after refunding and the call is retried', async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const { paymentId, customerId } = await sitePlanCharge(member.userId, 'dev_tok_timeouts');
    const refund = (body: object) => admin.agent.post(`/api/admin/payments/${paymentId}/refund`).send(body);

    // One lost answer: the command retries the gateway with the same key and records one refund.
    gateway.timeoutAfterRefund(1);
    await refund({ amountCents: 100, reason: 'first' }).expect(200);
    expect(gateway.netChargedCents(customerId)).toBe(99);

    // Every answer lost: the refund stays pending; the staff member sends it again and it completes once.
    gateway.timeoutAfterRefund(3);
    const lost = await refund({ amountCents: 40, reason: 'second' }).expect(409);
    expect(lost.body).toMatchObject({ pending: true });
    expect(gateway.netChargedCents(customerId)).toBe(59);
    await refund({ amountCents: 25, reason: 'another amount' }).expect(409);
    const resumed = await refund({ amountCents: 40, reason: 'second' }).expect(200);
    expect(resumed.body).toMatchObject({ sequence: 2, amount: '0.40', refundedTotal: '1.40' });
    expect(gateway.netChargedCents(customerId)).toBe(59);
    const events = await stack.store.readStream(paymentStream(paymentId));
    expect(events.filter((e) => e.type === 'ChargeRefunded')).toHaveLength(2);
  });

  it("refunds a tier charge in part: the creator's share comes back from pending earnings", async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const creator = await person(stack, 'creator');
    const { subscriptionId } = await tierCharge(member.userId, creator.userId, 1000);
    const dashboard = () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`);
    await eventually(dashboard, (res) => res.body.pendingBalance === '9.00');

    await admin.agent
      .post(`/api/admin/payments/${subscriptionId}/refund`)
      .send({ amountCents: 400, reason: 'partial service' })
      .expect(200);
    // 90% of $4.00 from the pending $9.00.
    await eventually(dashboard, (res) => res.body.pendingBalance === '5.40');
    const full = await admin.agent
      .post(`/api/admin/payments/${subscriptionId}/refund`)
      .send({ reason: 'the rest' })
      .expect(200);
    expect(full.body).toMatchObject({ amount: '6.00', full: true });
    await eventually(dashboard, (res) => res.body.pendingBalance === '0.00');
    expect((await dashboard()).body.totalEarnings).toBe('0.00');
    // Refunded in full: the subscription ends, naming the refund (the money is counted on the payment stream).
    const ended = await eventually(
      () => stack.store.readStream(creatorSubscriptionStream(member.userId, creator.userId)),
      (events) => events.some((e) => e.type === 'CreatorSubscriptionChargeGivenBack'),
    );
    expect(ended.at(-1)!.data).toMatchObject({ givenBackId: `refund:${full.body.gatewayRefundId}`, cause: 'refund' });
  });

  it('the money-back guarantee after a partial staff refund gives back only what remains, once', async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const creator = await person(stack, 'creator');
    const { subscriptionId, customerId } = await tierCharge(member.userId, creator.userId, 1000, 'dev_tok_mb_rest');
    const dashboard = () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`);
    await eventually(dashboard, (res) => res.body.pendingBalance === '9.00');
    await admin.agent
      .post(`/api/admin/payments/${subscriptionId}/refund`)
      .send({ amountCents: 300, reason: 'goodwill' })
      .expect(200);
    await eventually(
      () => member.agent.get('/api/subscriptions').expect(200),
      (res) => res.body.subscriptions.some((s: { id: string }) => s.id === subscriptionId),
    );

    const claim = await member.agent.post(`/api/subscriptions/${subscriptionId}/refund`).send({}).expect(200);
    expect(claim.body).toMatchObject({ id: subscriptionId, status: 'refunded' });
    expect(gateway.netChargedCents(customerId)).toBe(0);
    const events = await stack.store.readStream(creatorSubscriptionStream(member.userId, creator.userId));
    expect(events.filter((e) => e.type === 'CreatorSubscriptionRefunded').map((e) => e.data)).toEqual([
      expect.objectContaining({ amountCents: 700, reason: 'money-back guarantee' }),
    ]);
    // The same refund on the charge's payment stream, sent to the gateway under its key.
    const payment = await stack.store.readStream(paymentStream(subscriptionId));
    expect(payment.filter((e) => e.type === 'ChargeRefunded').map((e) => e.data)).toEqual([
      expect.objectContaining({ amountCents: 300, full: false }),
      expect.objectContaining({ amountCents: 700, refundedTotalCents: 1000, full: true, staffId: null }),
    ]);
    expect(await paymentRow(admin, subscriptionId)).toMatchObject({ status: 'refunded', refundable: '0.00' });

    // The creator's $9.00 share taken back once: $2.70 for the staff refund, $6.30 for the claim.
    await eventually(dashboard, (res) => res.body.pendingBalance === '0.00' && res.body.totalEarnings === '0.00');
    await stack.settle();
    const reversals = await eventually(
      () => stack.store.readStream(creatorAccountStream(creator.userId)).catch(() => []),
      (list) => list.filter((e) => e.type === 'CreatorShareReversed').length >= 2,
    );
    expect(
      reversals
        .filter((e) => e.type === 'CreatorShareReversed')
        .map((e) => (e.data as { creatorShareCents: number }).creatorShareCents),
    ).toEqual([270, 630]);
    const history = await eventually(
      () => member.agent.get('/api/billing/history').expect(200),
      (res) => res.body.entries.length === 3,
    );
    expect(history.body.entries).toEqual([
      expect.objectContaining({ kind: 'refund', amount: '7.00', direction: 'credit' }),
      expect.objectContaining({ kind: 'refund', amount: '3.00', direction: 'credit' }),
      expect.objectContaining({ kind: 'tier_subscription', amount: '10.00', status: 'refunded' }),
    ]);
    // Nothing remains: the guarantee and finance staff are both refused.
    const again = await member.agent.post(`/api/subscriptions/${subscriptionId}/refund`).send({});
    expect(again.status).toBe(409);
    const staff = await admin.agent.post(`/api/admin/payments/${subscriptionId}/refund`).send({ reason: 'x' });
    expect(staff.status).toBe(409);
    expect(staff.body.error).toBe('Nothing is left to refund on this payment');
  });

  it('a tier charge refunded in full after the 7-day guarantee still ends the subscription; the share is reversed once', async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const creator = await person(stack, 'creator');
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    const { subscriptionId } = await tierCharge(member.userId, creator.userId, 1000, 'dev_tok_late_refund', tenDaysAgo);
    const dashboard = () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`);
    await eventually(dashboard, (res) => res.body.totalEarnings === '9.00');
    const mine = () => member.agent.get('/api/subscriptions').expect(200);
    await eventually(mine, (res) => res.body.subscriptions[0]?.status === 'active');
    // Past its 7 days the member's own claim is refused; finance staff can still refund it.
    await member.agent.post(`/api/subscriptions/${subscriptionId}/refund`).send({}).expect(409);

    await admin.agent
      .post(`/api/admin/payments/${subscriptionId}/refund`)
      .send({ reason: 'service outage' })
      .expect(200);
    const listed = await eventually(mine, (res) => res.body.subscriptions[0]?.status === 'refunded');
    expect(listed.body.subscriptions[0]).toMatchObject({ id: subscriptionId, renewsAt: null });
    expect(new Date(listed.body.subscriptions[0].endsAt).getTime()).toBeLessThanOrEqual(Date.now());
    await eventually(
      () => member.agent.get('/api/notifications').expect(200),
      (res) => JSON.stringify(res.body).includes('its payment was refunded'),
    );
    await eventually(dashboard, (res) => res.body.totalEarnings === '0.00');
    await stack.settle();
    const earnings = await stack.store.readStream(creatorAccountStream(creator.userId)).catch(() => []);
    expect(earnings.filter((e) => e.type === 'CreatorShareReversed')).toHaveLength(1);
    expect((await dashboard()).body).toMatchObject({ pendingBalance: '0.00', availableBalance: '0.00' });
  });

  it("reverses the creator's share on the money-back guarantee (CreatorSubscriptionRefunded)", async () => {
    const member = await person(stack, 'member');
    const creator = await person(stack, 'creator');
    const { subscriptionId, transactionId } = await tierCharge(
      member.userId,
      creator.userId,
      1999,
      'dev_tok_money_back',
    );
    const dashboard = () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`);
    await eventually(dashboard, (res) => res.body.pendingBalance === '17.99');
    await stack.store.append(
      creatorSubscriptionStream(member.userId, creator.userId),
      [
        {
          type: 'CreatorSubscriptionRefunded',
          data: {
            subscriptionId,
            subscriberId: member.userId,
            creatorId: creator.userId,
            transactionId,
            gatewayRefundId: `re_money_back_${subscriptionId}`,
            amountCents: 1999,
            reason: 'money-back guarantee',
            at: new Date().toISOString(),
            saleReference: `creatorSubscription:${subscriptionId}`,
          },
        },
      ],
      { expectedRevision: 0n },
    );
    await eventually(dashboard, (res) => res.body.pendingBalance === '0.00' && res.body.totalEarnings === '0.00');
    const history = await eventually(
      () => member.agent.get('/api/billing/history').expect(200),
      (res) => res.body.entries.length === 2,
    );
    expect(history.body.entries[0]).toMatchObject({ kind: 'refund', amount: '19.99', direction: 'credit' });
    // Given back by the guarantee already: finance staff cannot refund it again.
    const admin = await person(stack, 'admin');
    const again = await admin.agent.post(`/api/admin/payments/${subscriptionId}/refund`).send({ reason: 'x' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Nothing is left to refund on this payment');
  });

  it('records a chargeback from the sandbox dispute token with its fee', async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const creator = await person(stack, 'creator');
    const { subscriptionId } = await tierCharge(member.userId, creator.userId, 2000, 'dev_tok_dispute_1');
    const row = await eventually(
      () => paymentRow(admin, subscriptionId),
      (r) => r?.status === 'disputed',
    );
    expect(row).toMatchObject({ disputed: '20.00', chargebackFee: '15.00', refundable: '0.00' });
    await admin.agent.post(`/api/admin/payments/${subscriptionId}/refund`).send({ reason: 'x' }).expect(409);
    await eventually(
      () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`),
      (res) => res.body.totalEarnings === '0.00' && res.body.pendingBalance === '0.00',
    );
    // Charged back: the subscription ends at once and will not renew.
    const listed = await eventually(
      () => member.agent.get('/api/subscriptions').expect(200),
      (res) => res.body.subscriptions[0]?.status === 'refunded',
    );
    expect(listed.body.subscriptions[0]).toMatchObject({ id: subscriptionId, renewsAt: null });
    const events = await stack.store.readStream(creatorSubscriptionStream(member.userId, creator.userId));
    expect(events.at(-1)).toMatchObject({ type: 'CreatorSubscriptionChargeGivenBack', data: { cause: 'chargeback' } });

    // The finance console's revenue chart counts the $15.00 fee on the dispute's (UTC) day.
    const disputed = (await stack.store.readStream(paymentStream(subscriptionId))).find(
      (e) => e.type === 'ChargeDisputed',
    );
    const day = (disputed!.data as ChargeDisputedData).at.slice(0, 10);
    const revenue = await eventually(
      () => admin.agent.get(`/api/admin/revenue?from=${day}&to=${day}`).expect(200),
      (res) => res.body[0]?.chargebackFees === '15.00',
    );
    expect(revenue.body).toEqual([expect.objectContaining({ date: day, chargebackFees: '15.00' })]);

    const history = await eventually(
      () => member.agent.get('/api/billing/history').expect(200),
      (res) => res.body.entries.length === 2,
    );
    // Both at the charge's moment (the sandbox disputes at once here): their order is not the point.
    expect(history.body.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'chargeback', direction: 'credit', amount: '20.00' }),
        expect.objectContaining({ kind: 'tier_subscription', amount: '20.00', status: 'refunded' }),
      ]),
    );
  });

  it("refunds a tip paid by card: listed with the payments, the creator's share reversed like a tier charge's", async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const creator = await person(stack, 'creator');
    const card = await gateway.createCustomer({
      email: 't@x.y',
      name: 'T',
      paymentToken: 'dev_tok_tip',
      idempotencyKey: member.userId,
    });
    const tipId = randomUUID();
    await tipCreator(
      stack.store,
      gateway,
      {
        tipId,
        tipperId: member.userId,
        creatorId: creator.userId,
        amountCents: 2000,
        postId: null,
        message: null,
        source: 'card',
        customerId: card.customerId,
      },
      { actorId: member.userId, now: new Date() },
    );
    const dashboard = () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`);
    await eventually(dashboard, (res) => res.body.pendingBalance === '18.00');
    const row = await eventually(
      () => paymentRow(admin, tipId),
      (r) => !!r,
    );
    expect(row).toMatchObject({ requestType: 'tip', amount: '20.00', status: 'succeeded', refundable: '20.00' });
    expect(row.streamId).toBe(`tip-${tipId}`);

    const refund = (body: object) => admin.agent.post(`/api/admin/payments/${tipId}/refund`).send(body);
    await refund({ amountCents: 500, reason: 'tipped twice' }).expect(200);
    await eventually(dashboard, (res) => res.body.pendingBalance === '13.50');
    const rest = await refund({ reason: 'the rest' }).expect(200);
    expect(rest.body).toMatchObject({ paymentId: tipId, amount: '15.00', refundedTotal: '20.00', full: true });
    expect(gateway.netChargedCents(card.customerId)).toBe(0);
    await eventually(dashboard, (res) => res.body.pendingBalance === '0.00' && res.body.totalEarnings === '0.00');
    expect(await paymentRow(admin, tipId)).toMatchObject({ status: 'refunded', refundable: '0.00' });
    await refund({ reason: 'again' }).expect(409);

    const history = await eventually(
      () => member.agent.get('/api/billing/history').expect(200),
      (res) => res.body.entries.length === 3,
    );
    expect(history.body.entries).toEqual([
      expect.objectContaining({ kind: 'refund', direction: 'credit', amount: '15.00' }),
      expect.objectContaining({ kind: 'refund', direction: 'credit', amount: '5.00' }),
      expect.objectContaining({ kind: 'tip', direction: 'charge', amount: '20.00', status: 'refunded' }),
    ]);
  });

  it('leaves npm run ops -- reconcile clean after the refunds and chargebacks above', async () => {
    expect(await stack.settle()).toBe(true);
    const report = await reconcile({ store: stack.store, db: stack.db }, new Date());
    expect(report.problems).toEqual([]);
    // Every sale given back had its creator share reversed: the sales clearing account is empty.
    expect(report.warnings.filter((w) => w.startsWith('creator_sales_clearing'))).toEqual([]);
    expect(report.checked.transactions).toBeGreaterThan(10);
  });
});
