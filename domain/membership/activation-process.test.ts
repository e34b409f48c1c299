import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { PostgresEventStore } from '../event-store/postgres-event-store';
import { paymentStream, type PaymentCapturedData } from '../payments/events';
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
  await store.append(paymentStream(data.paymentId), [{ type: 'PaymentCaptured', data }], { expectedRevision: 'no_stream' });
  return (await store.readStream(paymentStream(data.paymentId)))[0];
}

describe('membership activation process', () => {
  it('activates one month for a sign-up payment, once however often it runs', async () => {
    const event = await capture(captured('p1', 'membership_signup'));
    for (let i = 0; i < 3; i++) await membershipActivationProcess.handle(event, { store, now: new Date() });
    const written = await store.readStream(membershipStream('user-of-p1'));
    expect(written.map((e) => [e.type, e.data])).toEqual([
      ['MembershipActivated', { userId: 'user-of-p1', periodStart: '2026-01-15T00:00:00.000Z', periodEnd: '2026-02-15T00:00:00.000Z', source: 'card', paymentId: 'p1', activatedAt: '2026-01-15T00:00:00.000Z' }],
    ]);
    expect(written[0].metadata.causationId).toBe(event.eventId);
  });

  it('ignores payments of other kinds', async () => {
    const event = await capture(captured('p2', 'creator_tip'));
    await membershipActivationProcess.handle(event, { store, now: new Date() });
    expect(await store.readStream(membershipStream('user-of-p2'))).toEqual([]);
  });
});
