import { changeStanding } from '../../domain/safety/commands';
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

/** A creator with money available and a verified bank account: only their standing can refuse a payout. */
async function creatorReadyToWithdraw() {
  const creator = await person(stack, 'creator');
  await earn(stack, creator.userId, 5000, 9);
  await eventually(
    () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`),
    (res) => res.body.availableBalance === '45.00',
  );
  const account = (await creator.agent.post('/api/payment-accounts').send(bank).expect(201)).body;
  return { ...creator, accountId: account.id as string };
}

describe('payout requests and the creator standing (issue 20)', () => {
  it('refuses a banned or suspended creator, even on a session the read models have not ended yet', async () => {
    const staff = await person(stack, 'admin');
    const banned = await creatorReadyToWithdraw();
    const suspended = await creatorReadyToWithdraw();
    const pendingReview = await creatorReadyToWithdraw();

    // The read models stop here: sessions still look active, as in the moment after staff act.
    await stack.runner.stop();
    const now = new Date();
    const context = { actorId: staff.userId, now };
    const staffAction = { staffId: staff.userId, reason: 'Fraud', reportId: null, now };
    await changeStanding(stack.store, { type: 'BanUser', userId: banned.userId, ...staffAction }, context);
    await changeStanding(
      stack.store,
      { type: 'SuspendUser', userId: suspended.userId, days: 3, ...staffAction },
      context,
    );
    await changeStanding(
      stack.store,
      { type: 'SuspendAutomatically', userId: pendingReview.userId, reason: 'Reports', reportId: 'r1', now },
      context,
    );

    const request = (creator: { agent: typeof staff.agent; accountId: string }) =>
      creator.agent.post('/api/payouts').send({ paymentAccountId: creator.accountId, amount: '45.00' });
    expect((await request(banned)).body).toEqual({
      error: 'Your payouts are held: your account is banned (trust and safety)',
      code: 'PAYOUT_HELD',
    });
    const until = new Date(now.getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const refusedSuspended = await request(suspended);
    expect(refusedSuspended.status).toBe(403);
    expect(refusedSuspended.body).toEqual({
      error: `Payouts are paused while your account is suspended (until ${until})`,
      code: 'ACCOUNT_SUSPENDED',
    });
    const refusedPending = await request(pendingReview);
    expect(refusedPending.status).toBe(403);
    expect(refusedPending.body.error).toBe('Payouts are paused while your account is suspended pending review');
    // Nothing was requested: the creators' streams hold no payout.
    for (const creator of [banned, suspended, pendingReview]) {
      const events = await stack.store.readStream(`creatorAccount-${creator.userId}`);
      expect(events.map((event) => event.type)).not.toContain('PayoutRequested');
    }
  });
});
