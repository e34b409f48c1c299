import { randomUUID } from 'node:crypto';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { earn, eventually, person, ready } from '../../ops/testing/payouts-fixtures';

jest.setTimeout(180_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  await ready(stack);
});
afterAll(() => stack.close());

const bank = {
  type: 'bank_account',
  accountHolderName: '=HYPERLINK("http://evil")',
  bankAccountLast4: '6789',
  routingNumber: '110000000',
};

/** A creator with a pending payout of $17.99 (from $19.99 earned 8 days ago). */
async function creatorWithPayout(routingNumber = '110000000') {
  const creator = await person(stack, 'creator');
  await earn(stack, creator.userId, 1999, 8);
  await eventually(
    () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`),
    (res) => res.body.availableBalance === '17.99',
  );
  const account = (
    await creator.agent
      .post('/api/payment-accounts')
      .send({ ...bank, routingNumber })
      .expect(201)
  ).body;
  const payout = (
    await creator.agent.post('/api/payouts').send({ paymentAccountId: account.id, amount: '17.99' }).expect(201)
  ).body;
  return { creator, payout };
}

describe('finance console API', () => {
  it('refuses everyone but finance staff', async () => {
    const member = await person(stack, 'member');
    const creator = await person(stack, 'creator');
    const paths = [
      '/api/admin/payouts',
      '/api/admin/conversions',
      '/api/admin/payments',
      '/api/admin/ledger',
      '/api/admin/payouts/export.csv',
      '/api/admin/ledger/export.csv',
      '/api/admin/revenue',
      `/api/admin/streams/creatorAccount-${creator.userId}/events`,
    ];
    for (const path of paths) {
      await stack.agent().get(path).expect(401);
      await member.agent.get(path).expect(403);
      await creator.agent.get(path).expect(403);
    }
    // A well-formed id: a malformed one is a 404 for everyone, as a path that matches no route.
    await creator.agent.post(`/api/admin/payouts/${randomUUID()}/process`).send({}).expect(403);
  });

  it('lists every table with paging, sorting and filters; bad filters are 400s', async () => {
    const admin = await person(stack, 'admin');
    const { creator, payout } = await creatorWithPayout();
    for (const resource of ['payouts', 'conversions', 'payments', 'ledger']) {
      const res = await admin.agent.get(`/api/admin/${resource}?page=0&pageSize=10`).expect(200);
      expect(res.body).toMatchObject({ page: 0, pageSize: 10, total: expect.any(Number), rows: expect.any(Array) });
    }
    const found = await eventually(
      () =>
        admin.agent.get(
          `/api/admin/payouts?status=pending&userId=${creator.userId}&minAmount=17.99&maxAmount=18&from=2020-01-01`,
        ),
      (res) => res.body.total === 1,
    );
    expect(found.body.total).toBe(1);
    expect(found.body.rows[0]).toMatchObject({
      id: payout.id,
      amount: '17.99',
      netAmount: '17.81',
      status: 'pending',
      creatorEmail: expect.stringContaining('creator-'),
      streamId: `creatorAccount-${creator.userId}`,
    });
    expect(
      (await admin.agent.get(`/api/admin/payouts?status=completed&userId=${creator.userId}`).expect(200)).body.total,
    ).toBe(0);
    expect(
      (await admin.agent.get(`/api/admin/payouts?userId=${creator.userId}&minAmount=18`).expect(200)).body.total,
    ).toBe(0);
    expect(
      (await admin.agent.get(`/api/admin/payouts?userId=${creator.userId}&to=2020-01-01`).expect(200)).body.total,
    ).toBe(0);

    // The ledger is another read model than the payouts one waited for above (the payout request waits for the payout read models only): it may trail.
    const kinds = (res: { body: { rows: Array<{ kind: string }> } }) => res.body.rows.map((r) => r.kind);
    const ledger = await eventually(
      () =>
        admin.agent
          .get(`/api/admin/ledger?userId=${creator.userId}&sortField=amount&sortOrder=asc&pageSize=100`)
          .expect(200),
      (res) => ['earnings', 'earnings_release', 'payout_request'].every((kind) => kinds(res).includes(kind)),
    );
    expect(kinds(ledger)).toEqual(expect.arrayContaining(['earnings', 'earnings_release', 'payout_request']));

    const bad = [
      'status=bogus',
      'page=-1',
      'pageSize=1000',
      'pageSize=abc',
      'sortField=password',
      'sortOrder=sideways',
      'from=yesterday',
      'to=2026-13-45',
      'minAmount=-5',
      'maxAmount=1e9',
      'minAmount=10&maxAmount=5',
      'from=2026-02-01&to=2026-01-01',
      "userId=' OR 1=1 --",
      'status=pending&status=failed',
    ];
    for (const query of bad) {
      const res = await admin.agent.get(`/api/admin/payouts?${query}`);
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'VALIDATION_ERROR']);
    }
    await admin.agent.get('/api/admin/ledger?status=pending').expect(400);
    await admin.agent.get('/api/admin/payments?userId=not-a-uuid').expect(200);
    await admin.agent.get('/api/admin/nothing').expect(404);
  });

  it('lists payments and conversions with their users, amounts and streams, and the ledger of them', async () => {
    const admin = await person(stack, 'admin');
    const member = await person(stack, 'member');
    const paymentId = randomUUID();
    const transactionId = randomUUID();
    const at = new Date().toISOString();
    await stack.store.append(
      `payment-${paymentId}`,
      [
        {
          type: 'PaymentCaptured',
          data: {
            paymentId,
            userId: member.userId,
            requestType: 'membership_signup',
            gatewayTransactionId: 'ch_1',
            gatewayCustomerId: 'cus_1',
            amountCents: 199,
            currency: 'USD',
            cardLast4: '4242',
            cardHolderName: 'M T',
            email: null,
            gatewayResponse: {},
            correlationId: null,
            at,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await stack.store.append(
      `cryptoTransaction-${transactionId}`,
      [
        {
          type: 'CryptoConversionRequested',
          data: {
            transactionId,
            conversionId: randomUUID(),
            conversionNumber: 990_001,
            userId: member.userId,
            walletId: null,
            walletAddress: '0xabc',
            cryptoType: 'USDC',
            cryptoAmount: '20.00000000',
            exchangeRate: '1.0000',
            grossCents: 2000,
            feeCents: 60,
            feeBasisPoints: 300,
            netCents: 1940,
            requestedAt: at,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const payments = await eventually(
      () => admin.agent.get(`/api/admin/payments?userId=${member.userId}`),
      (res) => res.body.total === 1,
    );
    expect(payments.body.rows[0]).toMatchObject({
      id: paymentId,
      userEmail: expect.stringContaining('member-'),
      amount: '1.99',
      status: 'succeeded',
      streamId: `payment-${paymentId}`,
    });
    // The list is crypto_transactions; its number comes from crypto_conversions, which may trail.
    const conversions = await eventually(
      () => admin.agent.get(`/api/admin/conversions?userId=${member.userId}&sortField=fee&sortOrder=asc`),
      (res) => res.body.total === 1 && res.body.rows[0].conversionNumber !== null,
    );
    expect(conversions.body.rows[0]).toMatchObject({
      id: transactionId,
      conversionNumber: 990_001,
      cryptoAmount: '20.00000000',
      amount: '20.00',
      fee: '0.60',
      netAmount: '19.40',
      status: expect.stringMatching(/^(pending|processing|completed)$/),
      streamId: `cryptoTransaction-${transactionId}`,
    });
    const ledger = await eventually(
      () => admin.agent.get(`/api/admin/ledger?userId=${member.userId}&status=site_plan_charge`),
      (res) => res.body.total === 2,
    );
    expect(
      ledger.body.rows
        .map((r: { account: string; debit: string; credit: string }) => [r.account, r.debit, r.credit])
        .sort(),
    ).toEqual([
      ['gateway_clearing', '1.99', '0.00'],
      ['site_plan_revenue', '0.00', '1.99'],
    ]);
    const csv = await admin.agent.get(`/api/admin/conversions/export.csv?userId=${member.userId}`).expect(200);
    expect(csv.text).toContain(`${transactionId},990001,`);
  });

  it('exports the same filter as a streamed, formula-escaped CSV', async () => {
    const admin = await person(stack, 'admin');
    const { creator, payout } = await creatorWithPayout();
    const res = await eventually(
      () => admin.agent.get(`/api/admin/payouts/export.csv?userId=${creator.userId}`),
      (r) => r.status === 200 && r.text.includes(payout.id),
    );
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="payouts-/);
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,createdAt,creatorId,creatorEmail,amount,processingFee,netAmount,currency,status,paymentAccountId,gatewayTransactionId,failureReason,staffId,processedAt',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${payout.id},`);
    expect(lines[1]).toContain(',17.99,0.18,17.81,USD,pending,');
    // A formula in user-controlled text is neutralised.
    await admin.agent.post(`/api/admin/payouts/${payout.id}/cancel`).send({ reason: '=cmd|"/c calc"!A1' }).expect(200);
    const after = await admin.agent
      .get(`/api/admin/payouts/export.csv?userId=${creator.userId}&status=cancelled`)
      .expect(200);
    expect(after.text).toContain(`"'=cmd|""/c calc""!A1"`);
    await admin.agent.get('/api/admin/payouts/export.csv?minAmount=abc').expect(400);
  });

  it('processes and completes a payout, recorded with the acting staff member, and shows the history', async () => {
    const admin = await person(stack, 'admin');
    const { creator, payout } = await creatorWithPayout();
    await admin.agent.post(`/api/admin/payouts/${payout.id}/complete`).send({}).expect(409);
    await admin.agent.post(`/api/admin/payouts/${payout.id}/fail`).send({}).expect(400);
    await admin.agent.post('/api/admin/payouts/00000000-0000-4000-8000-000000000000/process').send({}).expect(404);
    await admin.agent.post(`/api/admin/payouts/${payout.id}/explode`).send({}).expect(404);
    const processing = await admin.agent.post(`/api/admin/payouts/${payout.id}/process`).send({}).expect(200);
    expect(processing.body).toMatchObject({
      status: 'processing',
      gatewayTransactionId: expect.stringMatching(/^tr_sandbox_/),
      staffId: admin.userId,
    });
    await admin.agent.post(`/api/admin/payouts/${payout.id}/process`).send({}).expect(409);
    const completed = await admin.agent.post(`/api/admin/payouts/${payout.id}/complete`).send({}).expect(200);
    expect(completed.body).toMatchObject({ status: 'completed', processedAt: expect.any(String) });
    const history = await creator.agent.get(`/api/payouts/${creator.userId}`).expect(200);
    expect(history.body[0]).toMatchObject({ id: payout.id, status: 'completed' });

    const stream = await admin.agent
      .get(`/api/admin/streams/creatorAccount-${creator.userId}/events?related=${payout.id}`)
      .expect(200);
    expect(stream.body.events.map((e: { type: string }) => e.type)).toEqual([
      'PayoutRequested',
      'PayoutProcessingStarted',
      'PayoutCompleted',
    ]);
    const done = stream.body.events[2];
    expect(done).toMatchObject({
      actor: { id: admin.userId, email: expect.stringContaining('admin-') },
      metadata: { actorId: admin.userId, requestId: expect.any(String), occurredAt: expect.any(String) },
      data: { staffId: admin.userId },
    });
    await admin.agent.get('/api/admin/streams/creatorAccount-nobody/events').expect(404);
    await admin.agent.get('/api/admin/streams/bad%20name/events').expect(400);
  });

  it('a transfer the processor rejects fails the payout and returns the amount', async () => {
    const admin = await person(stack, 'admin');
    const { creator, payout } = await creatorWithPayout('000000000');
    const failed = await admin.agent.post(`/api/admin/payouts/${payout.id}/process`).send({}).expect(200);
    expect(failed.body).toMatchObject({ status: 'failed', failureReason: 'Account closed' });
    const dashboard = await creator.agent.get(`/api/payouts/${creator.userId}/dashboard`).expect(200);
    expect(dashboard.body.availableBalance).toBe('17.99');
  });

  it('sums revenue per day for the chart', async () => {
    const admin = await person(stack, 'admin');
    await creatorWithPayout();
    const today = new Date().toISOString().slice(0, 10);
    // Revenue is summed from the ledger, another read model than the dashboard the sale was waited for on: it may trail.
    const res = await eventually(
      () =>
        admin.agent
          .get(
            `/api/admin/revenue?from=${new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)}&to=${today}`,
          )
          .expect(200),
      (r) => r.body.length === 11 && Number(r.body[2].platformFees) >= 2,
    );
    expect(res.body).toHaveLength(11);
    const eightDaysAgo = res.body[2];
    expect(Number(eightDaysAgo.platformFees)).toBeGreaterThanOrEqual(2);
    expect(res.body[0]).toEqual(
      expect.objectContaining({
        date: expect.any(String),
        subscriptionRevenue: expect.any(String),
        conversionFees: expect.any(String),
        refunds: expect.any(String),
        chargebackFees: expect.any(String),
      }),
    );
    await admin.agent.get('/api/admin/revenue?from=2020-01-01&to=2026-01-01').expect(400);
  });
});
