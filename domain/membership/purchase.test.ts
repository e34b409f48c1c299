import { randomUUID } from 'node:crypto';
import { failing, InjectedFailure } from '../../ops/testing/inject-failure';
import { useTestDatabase } from '../../ops/testing/use-test-database';
import { userStream } from '../accounts/events';
import type { EventStore } from '../event-store/port';
import { paymentStream } from '../payments/events';
import type { PaymentGateway } from '../payments/gateway';
import { SandboxGateway } from '../payments/sandbox-gateway';
import { deterministicId } from '../shared/ids';
import { membershipActivationProcess } from './activation-process';
import { membershipStream } from './events';
import { subscribeWithCard } from './purchase';

/** Subscribe by card (POST /api/subscribe) when a step fails: the money is given back, or the month completes. */

let store: EventStore;
useTestDatabase((handles) => (store = handles.store));
const context = () => ({ actorId: null, now: new Date() });

async function member(gateway: SandboxGateway) {
  const userId = randomUUID();
  const now = new Date().toISOString();
  const card = await gateway.createCustomer({
    email: `${userId}@example.test`,
    name: 'Sue Scribe',
    paymentToken: 'dev_tok_subscriber',
    idempotencyKey: userId,
  });
  await store.append(
    userStream(userId),
    [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email: `${userId}@example.test`,
          firstName: 'Sue',
          lastName: 'Scribe',
          passwordHash: 'x',
          gatewayCustomerId: card.customerId,
          cardLast4: card.cardLast4,
          registeredAt: now,
        },
      },
      { type: 'AgeVerified', data: { userId, method: 'card', cardLast4: card.cardLast4, verifiedAt: now } },
    ],
    { expectedRevision: 'no_stream' },
  );
  return userId;
}

const types = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);
const firstPaymentId = (userId: string) => deterministicId('membership-subscribe', userId, 'none');

describe('subscribe by card: complete or give back', () => {
  it.each([
    ['the charge call fails before it runs', 'gateway', 'before'],
    ['the charge call fails after the processor took the money', 'gateway', 'after'],
    ['recording the charge fails', 'store', 'before'],
  ] as const)('%s: refunded, on record, and the next attempt is a new charge that works', async (_label, on, when) => {
    const gateway = new SandboxGateway();
    const userId = await member(gateway);
    const deps =
      on === 'gateway'
        ? { store, gateway: failing<PaymentGateway>(gateway, 'charge', 1, when) }
        : { store: failing<EventStore>(store, 'append', 1, when), gateway };
    await expect(subscribeWithCard(deps, userId, context())).rejects.toBeInstanceOf(InjectedFailure);
    expect(gateway.netChargedCents()).toBe(0);
    expect(await types(paymentStream(firstPaymentId(userId)))).toEqual(['PaymentCaptured', 'PaymentRefunded']);
    expect(await types(membershipStream(userId))).toEqual(['MembershipChargeDeclined']);

    const retried = await subscribeWithCard({ store, gateway }, userId, context());
    expect(retried.success).toBe(true);
    expect(gateway.netChargedCents()).toBe(199);
    expect(await types(membershipStream(userId))).toEqual(['MembershipChargeDeclined', 'MembershipActivated']);
  });

  it('a charge recorded after all (its answer lost) stands, and the activation process gives its month', async () => {
    const gateway = new SandboxGateway();
    const userId = await member(gateway);
    await expect(
      subscribeWithCard({ store: failing<EventStore>(store, 'append', 1, 'after'), gateway }, userId, context()),
    ).rejects.toBeInstanceOf(InjectedFailure);
    expect(gateway.netChargedCents()).toBe(199);
    const [captured] = await store.readStream(paymentStream(firstPaymentId(userId)));
    await membershipActivationProcess.handle(captured, { store, now: new Date() });
    expect(await types(membershipStream(userId))).toEqual(['MembershipActivated']);
  });
});
