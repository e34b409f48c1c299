import { PostgresEventStore } from '../event-store/postgres-event-store';
import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { userStream } from '../accounts/events';
import { SandboxGateway } from '../payments/sandbox-gateway';
import { loadState, handleCommand } from '../shared/command-handler';
import { billingTick, runBilling } from './billing';
import { membershipDecider } from './decider';
import { membershipStream } from './events';
import { readWholeLog } from '../../ops/testing/read-whole-log';

jest.setTimeout(60_000);
let database: TestDatabase;
let store: PostgresEventStore;
const gateway = new SandboxGateway();
const charges: string[] = [];
const countingGateway = {
  ...gateway,
  authorize: gateway.authorize.bind(gateway),
  createCustomer: gateway.createCustomer.bind(gateway),
  updateCard: gateway.updateCard.bind(gateway),
  refund: gateway.refund.bind(gateway),
  charge: async (request: Parameters<SandboxGateway['charge']>[0]) => {
    charges.push(request.idempotencyKey);
    return gateway.charge(request);
  },
};

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore({ connectionString: database.url, poolSize: 12 });
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

async function member(userId: string, token: string, start: string) {
  const card = await gateway.createCustomer({
    email: `${userId}@x.test`,
    name: 'A B',
    paymentToken: token,
    idempotencyKey: `c:${userId}`,
  });
  await store.append(
    userStream(userId),
    [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email: `${userId}@x.test`,
          firstName: 'A',
          lastName: 'B',
          passwordHash: 'h',
          gatewayCustomerId: card.customerId,
          cardLast4: card.cardLast4,
          registeredAt: start,
        },
      },
      { type: 'AgeVerified', data: { userId, method: 'card', cardLast4: card.cardLast4, verifiedAt: start } },
    ],
    { expectedRevision: 'no_stream' },
  );
  await handleCommand(
    store,
    membershipStream(userId),
    membershipDecider,
    {
      type: 'ActivateMembership',
      userId,
      paymentId: `signup-${userId}`,
      source: 'card',
      months: 1,
      now: new Date(start),
    },
    { actorId: userId, now: new Date(start) },
  );
}

/** Events of a type from the global log, waiting for them to show (it hides rows of transactions still open anywhere). */
async function eventsOfType(type: string, count: number) {
  for (let i = 0; ; i++) {
    const events = (await readWholeLog(store)).filter((e) => e.type === type);
    if (events.length >= count || i > 100) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const status = async (userId: string) => (await loadState(store, membershipStream(userId), membershipDecider)).state;

describe('billing process', () => {
  it('charges at period end, once, even when ticks race', async () => {
    await member('good', 'dev_tok_good', '2026-01-10T00:00:00.000Z');
    const deps = { store, gateway: countingGateway };
    expect(await runBilling(deps, 'good', new Date('2026-02-09T23:59:59Z'))).toBe('nothing');
    const now = new Date('2026-02-10T00:00:00Z');
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => runBilling(deps, 'good', now).catch((e) => String(e))),
    );
    // Racing ticks may each report the renewal (an append of the same derived event id is
    // answered as already written), but the stream holds it once and the card is charged once.
    expect(outcomes.every((o) => o === 'renewed' || o === 'nothing')).toBe(true);
    const renewals = (await store.readStream(membershipStream('good'))).filter((e) => e.type === 'MembershipRenewed');
    expect(renewals).toHaveLength(1);
    expect(new Set(charges.filter((k) => k.startsWith('renewal:good:')))).toEqual(
      new Set(['renewal:good:2026-02-10T00:00:00.000Z']),
    );
    expect(await status('good')).toMatchObject({ status: 'active', periodEnd: '2026-03-10T00:00:00.000Z' });
    const payments = await eventsOfType('PaymentCaptured', 1);
    expect(payments).toHaveLength(1);
    expect(payments[0].data).toMatchObject({ requestType: 'membership_renewal', amountCents: 199, cardLast4: '4242' });
  });

  it('a declined renewal goes past due, then expires after the grace period', async () => {
    await member('broke', 'dev_tok_renewal_fails', '2026-01-10T00:00:00.000Z');
    const due = async () => ['broke'];
    expect(await billingTick({ store, gateway, due }, new Date('2026-02-10T01:00:00Z'))).toMatchObject({ past_due: 1 });
    expect(await status('broke')).toMatchObject({ status: 'past_due', graceEndsAt: '2026-02-13T01:00:00.000Z' });
    expect(await billingTick({ store, gateway, due }, new Date('2026-02-11T01:00:00Z'))).toMatchObject({ nothing: 1 });
    expect(await billingTick({ store, gateway, due }, new Date('2026-02-13T01:00:00Z'))).toMatchObject({ expired: 1 });
    expect((await status('broke')).status).toBe('expired');
    const failed = await eventsOfType('PaymentFailed', 1);
    expect(failed).toHaveLength(1);
    expect(failed[0].data).toMatchObject({
      failureReason: 'Your card was declined.',
      requestType: 'membership_renewal',
    });
  });

  it('a canceled membership is not renewed and expires at the period end', async () => {
    await member('leaver', 'dev_tok_ok', '2026-01-10T00:00:00.000Z');
    await handleCommand(
      store,
      membershipStream('leaver'),
      membershipDecider,
      { type: 'CancelMembership', userId: 'leaver', now: new Date('2026-01-11T00:00:00Z') },
      { actorId: 'leaver', now: new Date() },
    );
    const before = charges.length;
    expect(await runBilling({ store, gateway: countingGateway }, 'leaver', new Date('2026-02-10T00:00:00Z'))).toBe(
      'expired',
    );
    expect(charges.length).toBe(before);
  });

  it('a renewal paid while the member cancels gives the money back (recorded), never a charge without its period', async () => {
    await member('racer', 'dev_tok_ok', '2026-01-10T00:00:00.000Z');
    const journal = new SandboxGateway();
    const cancelling = {
      ...countingGateway,
      charge: async (request: Parameters<SandboxGateway['charge']>[0]) => {
        // The member cancels while the processor is answering.
        await handleCommand(
          store,
          membershipStream('racer'),
          membershipDecider,
          { type: 'CancelMembership', userId: 'racer', now: new Date('2026-02-10T00:00:00Z') },
          { actorId: 'racer', now: new Date() },
        );
        return journal.charge(request);
      },
      refund: journal.refund.bind(journal),
    };
    expect(await runBilling({ store, gateway: cancelling }, 'racer', new Date('2026-02-10T00:00:01Z'))).toBe('nothing');
    expect(journal.netChargedCents()).toBe(0);
    const payment = (await readWholeLog(store)).filter(
      (e) => e.type.startsWith('Payment') && (e.data as { userId: string }).userId === 'racer',
    );
    expect(payment.map((e) => e.type)).toEqual(['PaymentCaptured', 'PaymentRefunded']);
    expect(await status('racer')).toMatchObject({ status: 'canceled', periodEnd: '2026-02-10T00:00:00.000Z' });
  });
});
