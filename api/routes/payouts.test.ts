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
  accountHolderName: 'Casey Creator',
  bankAccountLast4: '6789',
  routingNumber: '110000000',
};

async function withEarnings() {
  const creator = await person(stack, 'creator');
  await earn(stack, creator.userId, 1999, 8);
  await earn(stack, creator.userId, 1000, 3);
  await eventually(
    () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`),
    (res) => res.body.pendingBalance === '9.00',
  );
  return creator;
}

describe('payouts API', () => {
  it('reads are for the creator themselves or finance staff; everyone else 403, no session 401', async () => {
    const creator = await person(stack, 'creator');
    const other = await person(stack, 'creator');
    const member = await person(stack, 'member');
    const admin = await person(stack, 'admin');
    for (const path of [
      `/api/payouts/${creator.userId}/dashboard`,
      `/api/payment-accounts/${creator.userId}`,
      `/api/payouts/${creator.userId}`,
    ]) {
      expect((await stack.agent().get(path).expect(401)).body.error).toBe('Unauthorized');
      await other.agent.get(path).expect(403);
      await member.agent.get(path).expect(403);
      await creator.agent.get(path).expect(200);
      await admin.agent.get(path).expect(200);
    }
    // A member is refused even their own payouts: payouts are for creators.
    await member.agent.get(`/api/payouts/${member.userId}/dashboard`).expect(403);
    await member.agent.post('/api/payment-accounts').send(bank).expect(403);
    await member.agent.post('/api/payouts').send({ paymentAccountId: 'x', amount: '1.00' }).expect(403);
    await stack.agent().post('/api/payouts').send({ paymentAccountId: 'x', amount: '1.00' }).expect(401);
    await admin.agent.get('/api/payouts/00000000-0000-4000-8000-000000000000/dashboard').expect(404);
    // The refusal is the whole answer; an id that cannot exist is the parameter check's 404.
    for (const path of [`/api/payouts/${creator.userId}/dashboard`, `/api/payouts/${creator.userId}`]) {
      expect((await other.agent.get(path).expect(403)).body).toEqual({
        error: 'You may only see your own payouts',
        code: 'FORBIDDEN',
      });
      expect((await member.agent.get(path.replace(creator.userId, member.userId)).expect(403)).body).toMatchObject({
        code: 'CREATOR_REQUIRED',
      });
    }
    for (const path of ['/api/payouts/not-a-uuid', '/api/payouts/not-a-uuid/dashboard'])
      expect((await creator.agent.get(path).expect(404)).body.error).toBe('Not found: no record has this id');
  });

  it('shows pending earnings during the 7-day hold and available ones after it', async () => {
    const creator = await withEarnings();
    const res = await creator.agent.get(`/api/payouts/${creator.userId}/dashboard`).expect(200);
    expect(res.body).toMatchObject({ availableBalance: '17.99', pendingBalance: '9.00', totalEarnings: '26.99' });
    expect(new Date(res.body.nextPayoutDate).getTime()).toBeGreaterThan(Date.now() + 3.9 * 86_400_000);
    const fresh = await person(stack, 'creator');
    expect((await fresh.agent.get(`/api/payouts/${fresh.userId}/dashboard`).expect(200)).body).toEqual({
      availableBalance: '0.00',
      pendingBalance: '0.00',
      totalEarnings: '0.00',
      nextPayoutDate: null,
    });
  });

  it('validates payment accounts with the SPEC rules', async () => {
    const { agent } = await person(stack, 'creator');
    const refused = async (body: object, field: string, message: string) => {
      const res = await agent.post('/api/payment-accounts').send(body).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.body.fields[field]).toBe(message);
    };
    await refused({ type: 'stripe' }, 'accountHolderName', 'Account holder name is required');
    await refused({ type: 'stripe', accountHolderName: '   ' }, 'accountHolderName', 'Account holder name is required');
    await refused(
      { ...bank, bankAccountLast4: '12345' },
      'bankAccountLast4',
      'Last 4 digits must be at most 4 characters',
    );
    await refused(
      { type: 'stripe', accountHolderName: 'A', routingNumber: '110000000' },
      'routingNumber',
      'Routing number is only for bank accounts',
    );
    await refused({ type: 'paypal', accountHolderName: 'A' }, 'type', 'Type must be stripe or bank_account');
    await agent.post('/api/payment-accounts').set('Content-Type', 'application/json').send('{"type":').expect(400);
  });

  it('adds payment accounts: the first is the default; verified or pending verification', async () => {
    const creator = await person(stack, 'creator');
    const first = await creator.agent.post('/api/payment-accounts').send(bank).expect(201);
    expect(first.body).toMatchObject({
      type: 'bank_account',
      accountHolderName: 'Casey Creator',
      bankAccountLast4: '6789',
      routingNumber: '*****0000',
      isDefault: true,
      isVerified: true,
    });
    const stripe = await creator.agent
      .post('/api/payment-accounts')
      .send({ accountHolderName: 'Casey Creator' })
      .expect(201);
    expect(stripe.body).toMatchObject({
      type: 'stripe',
      isDefault: false,
      isVerified: true,
      verificationStatus: 'verified',
    });
    expect(stripe.body.stripeAccountId).toMatch(/^acct_/);
    const unverified = await creator.agent
      .post('/api/payment-accounts')
      .send({ ...bank, routingNumber: '999999999', isDefault: true })
      .expect(201);
    expect(unverified.body).toMatchObject({ isDefault: true, isVerified: false, verificationStatus: 'pending' });
    const list = await eventually(
      () => creator.agent.get(`/api/payment-accounts/${creator.userId}`),
      (res) => res.body.length === 3,
    );
    expect(list.body.map((a: { isDefault: boolean }) => a.isDefault)).toEqual([true, false, false]);
    expect(list.body[0].id).toBe(unverified.body.id);
  });

  it('pays out the whole available balance exactly once, even for 20 requests at the same time', async () => {
    const creator = await withEarnings();
    const account = (await creator.agent.post('/api/payment-accounts').send(bank).expect(201)).body;
    await creator.agent.post('/api/payouts').send({ paymentAccountId: account.id, amount: '10.00' }).expect(400);
    await creator.agent.post('/api/payouts').send({ paymentAccountId: account.id, amount: '0' }).expect(400);
    await creator.agent.post('/api/payouts').send({ paymentAccountId: account.id, amount: 'lots' }).expect(400);
    await creator.agent.post('/api/payouts').send({ amount: '17.99' }).expect(400);
    const other = await person(stack, 'creator');
    const theirs = (await other.agent.post('/api/payment-accounts').send(bank).expect(201)).body;
    await creator.agent.post('/api/payouts').send({ paymentAccountId: theirs.id, amount: '17.99' }).expect(403);

    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        creator.agent.post('/api/payouts').send({ paymentAccountId: account.id, amount: '17.99' }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 400)).toBe(true);
    const paid = answers.find((res) => res.status === 201)!.body;
    expect(paid).toMatchObject({
      amount: '17.99',
      processingFee: '0.18',
      netAmount: '17.81',
      status: 'pending',
      paymentAccountId: account.id,
    });

    const history = await creator.agent.get(`/api/payouts/${creator.userId}`).expect(200);
    // Every field of the view, exact (the history is one prepared statement's columns).
    expect(history.body).toEqual([
      {
        id: paid.id,
        creatorId: creator.userId,
        paymentAccountId: account.id,
        amount: '17.99',
        processingFee: '0.18',
        netAmount: '17.81',
        currency: 'USD',
        status: 'pending',
        gatewayTransactionId: null,
        failureReason: null,
        processedAt: null,
        createdAt: paid.createdAt,
      },
    ]);
    const dashboard = await creator.agent.get(`/api/payouts/${creator.userId}/dashboard`).expect(200);
    expect(dashboard.body).toMatchObject({ availableBalance: '0.00', pendingBalance: '9.00', totalEarnings: '26.99' });
    // Nothing left: a second withdraw is refused.
    const again = await creator.agent
      .post('/api/payouts')
      .send({ paymentAccountId: account.id, amount: '17.99' })
      .expect(400);
    expect(again.body.error).toBe('No available balance to withdraw');
  });

  it('refuses a payout to an account pending verification', async () => {
    const creator = await withEarnings();
    const account = (
      await creator.agent
        .post('/api/payment-accounts')
        .send({ ...bank, routingNumber: '999999999' })
        .expect(201)
    ).body;
    const res = await creator.agent
      .post('/api/payouts')
      .send({ paymentAccountId: account.id, amount: '17.99' })
      .expect(400);
    expect(res.body.error).toBe('This payment account is pending verification');
  });
});
