import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { userStream } from '../../domain/accounts/events';
import type { PaymentGateway } from '../../domain/payments/gateway';
import { FixedRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

jest.setTimeout(120_000);

/** Site membership over HTTP: card subscribe, the 6-month plan from the balance, cancel, renewals on an injected clock. */
let stack: TestStack;
let now = new Date('2026-03-01T10:00:00.000Z');
beforeAll(async () => {
  stack = await startTestStack({
    clock: () => now,
    ports: {
      cryptoRates: new FixedRatesProvider({ USDC: 10_000n, USDT: 10_000n }),
      cryptoGateway: new SandboxCryptoGateway(0),
    },
  });
});
afterAll(() => stack.close());

let counter = 0;
async function register(paymentToken = 'dev_tok_good') {
  const agent = stack.agent();
  const email = `member${++counter}-${randomUUID().slice(0, 8)}@example.test`;
  const res = await agent
    .post('/api/auth/register')
    .send({
      firstName: 'Mia',
      lastName: 'Money',
      email,
      password: 'Passw0rdOK',
      confirmPassword: 'Passw0rdOK',
      paymentToken,
    })
    .expect(201);
  // The answer's user is null when the read model lagged behind: find the id once it is there.
  const user = res.body.user ?? (await eventually(() => stack.db('users').where({ email }).first('id'), Boolean));
  return { agent, userId: user.id as string };
}

const status = (agent: ReturnType<TestStack['agent']>) =>
  agent
    .get('/api/subscription-status')
    .expect(200)
    .then((r) => r.body);

describe('site membership', () => {
  it('refuses a second card subscription while active with a 409', async () => {
    const { agent } = await register();
    expect(
      await eventually(
        () => status(agent),
        (st) => st.subscriptionStatus === 'active',
      ),
    ).toMatchObject({ subscriptionStatus: 'active', ageVerified: true });
    const res = await agent.post('/api/subscribe').send({}).expect(409);
    expect(res.body.error).toMatch(/already subscribed/);
    await stack.agent().post('/api/subscribe').send({}).expect(401);
  });

  it('buys the 6-month plan from the USD balance: 11.94 for 7 months, conversions marked used', async () => {
    const { agent, userId } = await register();
    const short = await agent.post('/api/subscribe/crypto').send({}).expect(422);
    expect(short.body).toMatchObject({ success: false });
    expect(short.body.message).toBe(
      'Insufficient crypto balance: the 6-month plan costs $11.94 and your balance is $0.00. Convert more crypto first.',
    );
    const wrongMonths = await agent.post('/api/subscribe/crypto').send({ months: 5 }).expect(400);
    expect(wrongMonths.body.fields.months).toBe('Only 6-month subscriptions available');
    // conversionId is a conversion's number: a positive integer
    for (const conversionId of ['abc', 0, -3, 1.5, '12', randomUUID(), null]) {
      const bad = await agent.post('/api/subscribe/crypto').send({ conversionId }).expect(400);
      expect(bad.body.fields.conversionId).toBe('Invalid conversion ID');
    }

    const converted = await agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: '20', cryptoType: 'USDC', walletAddress: '0xPlanPayer1' })
      .expect(202);
    expect(Number.isSafeInteger(converted.body.conversionId) && converted.body.conversionId > 0).toBe(true);
    // Someone else's conversion, and a number nobody has: 404, nothing spent.
    const other = await register();
    const theirs = await other.agent
      .post('/api/crypto/convert')
      .send({ cryptoAmount: '20', cryptoType: 'USDC', walletAddress: '0xPlanPayer2' })
      .expect(202);
    expect(theirs.body.conversionId).toBeGreaterThan(converted.body.conversionId);
    await stack.tickers.runOnce();
    // The balance and the conversions list are two read models: the list may trail the total.
    const balance = await eventually(
      () => agent.get('/api/crypto/balance').then((r) => r.body),
      (b) => b.totalUsd === '19.40' && b.conversions.length === 1,
    );
    expect(balance.totalUsd).toBe('19.40');
    expect(balance.conversions).toEqual([
      expect.objectContaining({ id: converted.body.conversionId, transactionId: converted.body.transactionId }),
    ]);
    const history = (await agent.get('/api/crypto/conversions').expect(200)).body;
    expect(history.map((c: { id: number }) => c.id)).toEqual([converted.body.conversionId]);
    await eventually(
      () => other.agent.get('/api/crypto/balance').then((r) => r.body),
      (b) => b.totalUsd === '19.40',
    );
    expect(
      (
        await agent
          .post('/api/subscribe/crypto')
          .send({ months: 6, conversionId: theirs.body.conversionId })
          .expect(404)
      ).body.error,
    ).toBe('Conversion not found or already used');
    await agent
      .post('/api/subscribe/crypto')
      .send({ months: 6, conversionId: 2 ** 40 })
      .expect(404);
    const before = await eventually(
      () => status(agent),
      (st) => !!st.subscriptionEndDate,
    );

    const bought = await agent
      .post('/api/subscribe/crypto')
      .set('Idempotency-Key', 'plan-1')
      .send({ months: 6, conversionId: converted.body.conversionId })
      .expect(200);
    expect(bought.body).toEqual({ success: true, message: expect.stringContaining('7 months') });
    await agent
      .post('/api/subscribe/crypto')
      .set('Idempotency-Key', 'plan-1')
      .send({ months: 6, conversionId: converted.body.conversionId })
      .expect(200);
    const after = await eventually(
      () => status(agent),
      (st) => st.subscriptionEndDate !== before.subscriptionEndDate,
    );
    expect(after.subscriptionStatus).toBe('active');
    // bought while active: the 7 months follow the current period
    const months =
      (new Date(after.subscriptionEndDate).getUTCFullYear() - new Date(before.subscriptionEndDate).getUTCFullYear()) *
        12 +
      new Date(after.subscriptionEndDate).getUTCMonth() -
      new Date(before.subscriptionEndDate).getUTCMonth();
    expect(months).toBe(7);
    const left = await eventually(
      () => agent.get('/api/crypto/balance').expect(200),
      (r) => r.body.totalUsd === '7.46' && r.body.conversions[0]?.usedForSubscription,
    );
    expect(left.body.totalUsd).toBe('7.46');
    expect(left.body.conversions[0]).toMatchObject({
      id: converted.body.conversionId,
      usedForSubscription: true,
      subscriptionMonths: 6,
    });
    // Used now: choosing it again is a 404.
    await agent.post('/api/subscribe/crypto').send({ conversionId: converted.body.conversionId }).expect(404);
    const debits = (await stack.store.readStream(`wallet-${userId}`)).filter((e) => e.type === 'WalletDebited');
    expect(debits).toHaveLength(1);
    expect(debits[0].data).toMatchObject({ amountCents: 1194 });
    // 7.46 left: a second plan is refused and spends nothing
    const again = await agent.post('/api/subscribe/crypto').send({}).expect(422);
    expect(again.body.message).toContain('$7.46');
  });

  it('cancels: no renewals, access to the period end, then expired; subscribing again resumes', async () => {
    const { agent } = await register();
    const canceled = await agent.post('/api/cancel-subscription').send({}).expect(200);
    expect(canceled.body).toEqual({ success: true, message: expect.stringContaining('You keep access until') });
    expect(
      await eventually(
        () => status(agent),
        (st) => st.subscriptionStatus === 'canceled',
      ),
    ).toMatchObject({ subscriptionStatus: 'canceled' });
    const twice = await agent.post('/api/cancel-subscription').send({}).expect(409);
    expect(twice.body.error).toBe('Your subscription is already canceled');
    const resumed = await agent.post('/api/subscribe').send({}).expect(200);
    expect(resumed.body.message).toContain('resumed');
    expect(
      await eventually(
        () => status(agent),
        (st) => st.subscriptionStatus === 'active',
      ),
    ).toMatchObject({ subscriptionStatus: 'active' });
  });

  it('renews by the clock, once per period; a declined renewal is past due, then expired', async () => {
    const good = await register();
    const failing = await register('dev_tok_renewal_fails');
    const leaving = await register();
    await leaving.agent.post('/api/cancel-subscription').send({}).expect(200);
    const end = new Date(
      (
        await eventually(
          () => status(good.agent),
          (st) => !!st.subscriptionEndDate,
        )
      ).subscriptionEndDate,
    );

    now = new Date(end.getTime() + 60_000);
    await stack.tickers.runOnce();
    await stack.tickers.runOnce();
    const renewed = await eventually(
      () => status(good.agent),
      (s) => new Date(s.subscriptionEndDate) > end,
    );
    expect(renewed.subscriptionStatus).toBe('active');
    expect(
      await eventually(
        () => status(failing.agent),
        (s) => s.subscriptionStatus === 'past_due',
      ),
    ).toMatchObject({ subscriptionStatus: 'past_due' });
    expect(
      await eventually(
        () => status(leaving.agent),
        (s) => s.subscriptionStatus === 'expired',
      ),
    ).toMatchObject({ subscriptionStatus: 'expired' });
    // The payments list is another read model than the status above: it may trail.
    const renewals = await eventually(
      () => stack.db('payments').where({ user_id: good.userId, request_type: 'membership_renewal' }),
      (rows) => rows.length === 1 && rows[0].status === 'succeeded',
    );
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: 'succeeded', amount_cents: 199, card_last4: '4242' });
    const declined = await eventually(
      () => stack.db('payments').where({ user_id: failing.userId, request_type: 'membership_renewal' }),
      (rows) => rows.length === 1 && rows[0].status === 'failed',
    );
    expect(declined).toMatchObject([{ status: 'failed', failure_reason: 'Your card was declined.' }]);

    now = new Date(end.getTime() + 4 * 86_400_000);
    await stack.tickers.runOnce();
    expect(
      await eventually(
        () => status(failing.agent),
        (s) => s.subscriptionStatus === 'expired',
      ),
    ).toMatchObject({ subscriptionStatus: 'expired' });
    expect(await stack.db('payments').where({ user_id: good.userId, request_type: 'membership_renewal' })).toHaveLength(
      1,
    );
    // an expired member pays by card again
    const back = await failing.agent.post('/api/subscribe').send({}).expect(402);
    expect(back.body).toMatchObject({ success: false, message: 'Payment declined: Your card was declined.' });
    // with a new card (a card authorization at /verify-age) the next attempt is a new charge that succeeds
    await failing.agent.post('/api/verify-age').send({ paymentToken: 'dev_tok_fresh_5555' }).expect(200);
    const retried = await failing.agent.post('/api/subscribe').send({}).expect(200);
    expect(retried.body.success).toBe(true);
    expect(
      await eventually(
        () => status(failing.agent),
        (st) => st.subscriptionStatus === 'active',
      ),
    ).toMatchObject({ subscriptionStatus: 'active' });
    const attempts = await stack
      .db('payments')
      .where({ user_id: failing.userId, request_type: 'membership_subscribe' })
      .orderBy('created_at');
    expect(attempts.map((p) => [p.status, p.card_last4])).toEqual([
      ['failed', '4242'],
      ['succeeded', '5555'],
    ]);
    const leaver = await leaving.agent.post('/api/subscribe').send({}).expect(200);
    expect(leaver.body.success).toBe(true);
    expect(
      await eventually(
        () => status(leaving.agent),
        (st) => st.subscriptionStatus === 'active',
      ),
    ).toMatchObject({ subscriptionStatus: 'active' });
  }, 120_000);

  it('asks for age verification first, and a card authorization grants it', async () => {
    const userId = randomUUID();
    const card = await (stack.deps.ports.paymentGateway as PaymentGateway).createCustomer({
      email: 'x@y.z',
      name: 'N',
      paymentToken: 'dev_tok_ok',
      idempotencyKey: userId,
    });
    await stack.store.append(
      userStream(userId),
      [
        {
          type: 'UserRegistered',
          data: {
            userId,
            email: `${userId}@example.test`,
            firstName: 'Una',
            lastName: 'Verified',
            passwordHash: 'x',
            gatewayCustomerId: card.customerId,
            cardLast4: '4242',
            registeredAt: now.toISOString(),
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const token = randomBytes(32).toString('base64url');
    await stack.db('http_sessions').insert({
      id: createHash('sha256').update(token).digest('hex'),
      user_id: userId,
      expires_at: new Date(Date.now() + 3_600_000),
    });
    const agent = stack.agent().set('Cookie', `lively.sid=${token}`);
    await eventually(
      () => agent.get('/api/subscription-status').then((r) => r.status),
      (s) => s === 200,
    );

    const refused = await agent.post('/api/subscribe').send({}).expect(403);
    expect(refused.body).toMatchObject({ requiresAgeVerification: true });
    await agent.post('/api/subscribe/crypto').send({}).expect(403);
    const verified = await agent.post('/api/verify-age').send({ paymentToken: 'dev_tok_newcard_9876' }).expect(200);
    expect(verified.body).toEqual({ success: true, message: 'Your age has been verified.' });
    expect(
      await eventually(
        () => status(agent),
        (st) => st.ageVerified,
      ),
    ).toMatchObject({ ageVerified: true, subscriptionStatus: 'none' });
    const auth = await eventually(
      () => stack.db('payments').where({ user_id: userId, request_type: 'age_verification' }).first(),
      Boolean,
    );
    expect(auth).toMatchObject({ status: 'succeeded', amount_cents: 0, card_last4: '9876' });
    const subscribed = await agent.post('/api/subscribe').send({}).expect(200);
    expect(subscribed.body.success).toBe(true);
    expect(
      await eventually(
        () => status(agent),
        (st) => st.subscriptionStatus === 'active',
      ),
    ).toMatchObject({ subscriptionStatus: 'active' });
    const declinedCard = await agent.post('/api/verify-age').send({ paymentToken: 'dev_tok_decline' }).expect(402);
    expect(declinedCard.body.error).toBe('Card verification failed: Your card was declined.');
    const refusals = await eventually(
      () => stack.db('payments').where({ user_id: userId, request_type: 'age_verification', status: 'failed' }),
      (rows) => rows.length === 1,
    );
    expect(refusals[0]).toMatchObject({ amount_cents: 0, failure_reason: 'Your card was declined.' });
  }, 120_000);
});
