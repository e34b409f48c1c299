import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { signUpPaymentId, userStream } from '../accounts/events';
import { paymentStream, type PaymentCapturedData } from '../payments/events';
import { walletStream } from '../wallet/events';
import { membershipActivationProcess } from './activation-process';
import { membershipStream } from './events';

let database: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore({ connectionString: database.url });
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

const captured = (paymentId: string, requestType: string): PaymentCapturedData => ({
  paymentId,
  userId: `user-of-${paymentId}`,
  requestType,
  gatewayTransactionId: 'ch_1',
  gatewayCustomerId: 'cus_1',
  amountCents: 199,
  currency: 'USD',
  cardLast4: '4242',
  cardHolderName: null,
  email: null,
  gatewayResponse: {},
  correlationId: null,
  at: '2026-01-15T00:00:00.000Z',
});

async function capture(data: PaymentCapturedData) {
  await store.append(paymentStream(data.paymentId), [{ type: 'PaymentCaptured', data }], {
    expectedRevision: 'no_stream',
  });
  return (await store.readStream(paymentStream(data.paymentId)))[0];
}

async function register(userId: string) {
  const data = {
    userId,
    email: `${userId}@example.test`,
    firstName: 'A',
    lastName: 'B',
    passwordHash: 'x',
    gatewayCustomerId: 'cus_1',
    cardLast4: '4242',
    registeredAt: '2026-01-15T00:00:00.000Z',
  };
  await store.append(userStream(userId), [{ type: 'UserRegistered', data }], { expectedRevision: 'no_stream' });
  return (await store.readStream(userStream(userId)))[0];
}

const activations = async (userId: string) =>
  (await store.readStream(membershipStream(userId))).filter((e) => e.type === 'MembershipActivated').map((e) => e.data);

describe('membership activation process', () => {
  it('activates one month for a sign-up payment, once however often it runs', async () => {
    await register('user-of-p1');
    const event = await capture(captured('p1', 'membership_signup'));
    for (let i = 0; i < 3; i++) await membershipActivationProcess.handle(event, { store, now: new Date() });
    const written = await store.readStream(membershipStream('user-of-p1'));
    expect(written.map((e) => [e.type, e.data])).toEqual([
      [
        'MembershipActivated',
        {
          userId: 'user-of-p1',
          periodStart: '2026-01-15T00:00:00.000Z',
          periodEnd: '2026-02-15T00:00:00.000Z',
          source: 'card',
          paymentId: 'p1',
          activatedAt: '2026-01-15T00:00:00.000Z',
        },
      ],
    ]);
    expect(written[0].metadata.causationId).toBe(event.eventId);
  });

  it('waits for the registration of a sign-up payment recorded before its user, then activates from UserRegistered', async () => {
    const userId = 'user-signing-up';
    const paymentId = signUpPaymentId(userId);
    const event = await capture({ ...captured(paymentId, 'membership_signup'), userId });
    await membershipActivationProcess.handle(event, { store, now: new Date() });
    expect(await activations(userId)).toEqual([]);
    const registered = await register(userId);
    for (let i = 0; i < 2; i++) await membershipActivationProcess.handle(registered, { store, now: new Date() });
    await membershipActivationProcess.handle(event, { store, now: new Date() });
    expect(await activations(userId)).toEqual([
      expect.objectContaining({ paymentId, source: 'card', periodEnd: '2026-02-15T00:00:00.000Z' }),
    ]);
  });

  it('never activates a sign-up payment that was refunded (the sign-up was given back)', async () => {
    const userId = 'user-given-back';
    const paymentId = signUpPaymentId(userId);
    const data = { ...captured(paymentId, 'membership_signup'), userId };
    const refund = {
      paymentId,
      userId,
      gatewayRefundId: 're_1',
      amountCents: 199,
      reason: 'sign-up did not complete',
      at: data.at,
    };
    await store.append(
      paymentStream(paymentId),
      [
        { type: 'PaymentCaptured', data },
        { type: 'PaymentRefunded', data: refund },
      ],
      { expectedRevision: 'no_stream' },
    );
    const [event] = await store.readStream(paymentStream(paymentId));
    await membershipActivationProcess.handle(event, { store, now: new Date() });
    await membershipActivationProcess.handle(await register(userId), { store, now: new Date() });
    expect(await activations(userId)).toEqual([]);
  });

  it('turns a balance spend for the 6-month plan into 7 months, once; other spends are not its business', async () => {
    const userId = 'user-paying-from-balance';
    const movement = (reference: string, amountCents: number) => ({
      type: 'WalletDebited',
      data: { userId, amountCents, reason: 'x', reference, balanceCents: 0 },
      metadata: { occurredAt: '2026-03-01T00:00:00.000Z' },
    });
    await store.append(
      walletStream(userId),
      [
        movement('membership:purchase-1', 1194),
        movement('messageUnlock:m1', 1194),
        movement('membership:odd-amount', 500),
      ],
      { expectedRevision: 'no_stream' },
    );
    const spends = await store.readStream(walletStream(userId));
    for (const spend of [...spends, ...spends])
      await membershipActivationProcess.handle(spend, { store, now: new Date() });
    expect(await activations(userId)).toEqual([
      {
        userId,
        periodStart: '2026-03-01T00:00:00.000Z',
        periodEnd: '2026-10-01T00:00:00.000Z',
        source: 'crypto',
        paymentId: 'purchase-1',
        activatedAt: '2026-03-01T00:00:00.000Z',
      },
    ]);
  });

  it('ignores payments of other kinds', async () => {
    const event = await capture(captured('p2', 'creator_tip'));
    await membershipActivationProcess.handle(event, { store, now: new Date() });
    expect(await store.readStream(membershipStream('user-of-p2'))).toEqual([]);
  });
});
