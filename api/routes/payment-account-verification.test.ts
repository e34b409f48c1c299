import { SANDBOX_VERIFICATION_FAILURE, SANDBOX_VERIFY_AFTER_MS } from '../../domain/payouts/sandbox-gateway';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { earn, eventually, person, ready } from '../../ops/testing/payouts-fixtures';

jest.setTimeout(180_000);

/** Payment accounts pending verification are verified (or refused) by the payout processor, checked on the clock. */
let stack: TestStack;
let now = new Date();
beforeAll(async () => {
  stack = await startTestStack({ clock: () => now });
  await ready(stack);
});
afterAll(() => stack.close());

const bank = { type: 'bank_account', accountHolderName: 'Vera Verified', bankAccountLast4: '6789' };
/** A tick that surely read the clock after the last change (a running tick is joined, not restarted). */
const tick = async () => {
  await stack.tickers.runOnce();
  await stack.tickers.runOnce();
};
const verificationEvents = async (creatorId: string) =>
  (await stack.store.readStream(`creatorAccount-${creatorId}`)).filter(
    (e) => e.type === 'PaymentAccountVerified' || e.type === 'PaymentAccountVerificationFailed',
  );

async function creatorWithAccount(routingNumber: string) {
  const creator = await person(stack, 'creator');
  await earn(stack, creator.userId, 1999, 8);
  const account = (
    await creator.agent
      .post('/api/payment-accounts')
      .send({ ...bank, routingNumber })
      .expect(201)
  ).body;
  return { creator, account };
}

const accountsOf = (creator: Awaited<ReturnType<typeof person>>) =>
  creator.agent.get(`/api/payment-accounts/${creator.userId}`).expect(200);

describe('payment account verification', () => {
  it('verifies a pending account once the processor has, after its delay; payouts wait for it', async () => {
    const { creator, account } = await creatorWithAccount('999999999');
    expect(account).toMatchObject({
      isVerified: false,
      verificationStatus: 'pending',
      verificationFailureReason: null,
    });
    const early = await creator.agent
      .post('/api/payouts')
      .send({ paymentAccountId: account.id, amount: '17.99' })
      .expect(400);
    expect(early.body.error).toBe('This payment account is pending verification');

    await tick(); // before the processor's delay: still pending
    expect(await verificationEvents(creator.userId)).toHaveLength(0);

    now = new Date(now.getTime() + SANDBOX_VERIFY_AFTER_MS);
    await tick();
    await tick(); // checked again: nothing new
    const events = await verificationEvents(creator.userId);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'PaymentAccountVerified',
        { creatorId: creator.userId, paymentAccountId: account.id, verifiedAt: now.toISOString() },
      ],
    ]);
    expect(events[0].metadata).toMatchObject({ actorId: 'system:payout-verification' });
    const list = await eventually(
      () => accountsOf(creator),
      (res) => res.body[0]?.verificationStatus === 'verified',
    );
    expect(list.body).toEqual([
      expect.objectContaining({ id: account.id, isVerified: true, verificationStatus: 'verified' }),
    ]);

    const paid = await creator.agent
      .post('/api/payouts')
      .send({ paymentAccountId: account.id, amount: '17.99' })
      .expect(201);
    expect(paid.body).toMatchObject({ amount: '17.99', status: 'pending', paymentAccountId: account.id });
  });

  it('records a refused verification; such an account never receives payouts', async () => {
    const { creator, account } = await creatorWithAccount('999999998');
    expect(account).toMatchObject({ verificationStatus: 'pending' });
    now = new Date(now.getTime() + SANDBOX_VERIFY_AFTER_MS);
    await tick();
    const events = await verificationEvents(creator.userId);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'PaymentAccountVerificationFailed',
        {
          creatorId: creator.userId,
          paymentAccountId: account.id,
          reason: SANDBOX_VERIFICATION_FAILURE,
          failedAt: now.toISOString(),
        },
      ],
    ]);
    const list = await eventually(
      () => accountsOf(creator),
      (res) => res.body[0]?.verificationStatus === 'failed',
    );
    expect(list.body[0]).toMatchObject({
      isVerified: false,
      verificationStatus: 'failed',
      verificationFailureReason: SANDBOX_VERIFICATION_FAILURE,
    });
    const refused = await creator.agent
      .post('/api/payouts')
      .send({ paymentAccountId: account.id, amount: '17.99' })
      .expect(400);
    expect(refused.body.error).toBe('This payment account could not be verified');
  });

  it('the documented instant test account is verified at once and needs no check', async () => {
    const { creator, account } = await creatorWithAccount('110000000');
    expect(account).toMatchObject({ isVerified: true, verificationStatus: 'verified' });
    await tick();
    expect(await verificationEvents(creator.userId)).toHaveLength(0);
    await creator.agent.post('/api/payouts').send({ paymentAccountId: account.id, amount: '17.99' }).expect(201);
  });
});
