import { randomUUID } from 'node:crypto';
import { failing, InjectedFailure } from '../../ops/testing/inject-failure';
import { readWholeLog } from '../../ops/testing/read-whole-log';
import { useTestDatabase } from '../../ops/testing/use-test-database';
import type { EventStore, RecordedEvent } from '../event-store/port';
import { membershipActivationProcess } from '../membership/activation-process';
import { membershipStream } from '../membership/events';
import { paymentStream } from '../payments/events';
import type { PaymentGateway } from '../payments/gateway';
import { SandboxGateway } from '../payments/sandbox-gateway';
import { DomainError } from '../shared/errors';
import { emailStream, signUpPaymentId, userStream } from './events';
import { userIdForEmail } from './lookup';
import { claimEmail } from './email-claim';
import { paymentDecider } from '../payments/decider';
import { handleCommand } from '../shared/command-handler';
import { ABANDONED_SIGN_UP_MS, giveBackAbandonedSignUp, registerUser, type RegisterInput } from './register';

/**
 * Sign-up is a flow over the gateway and four streams: whatever step fails, the money is given
 * back and the email freed, or (once the user is registered) the sign-up completes.
 */

let store: EventStore;
useTestDatabase((handles) => (store = handles.store));

const context = () => ({ actorId: null, now: new Date() });
const input = (over: Partial<RegisterInput> = {}): RegisterInput => ({
  email: `signup-${randomUUID()}@example.test`,
  firstName: 'Sam',
  lastName: 'Step',
  passwordHash: '$argon2id$test',
  paymentToken: `dev_tok_${randomUUID().slice(0, 8)}`,
  ...over,
});

/** The steps of a sign-up in order: gateway calls, then the appends (charge record, email claim, user, membership). */
const STEPS: Array<{
  step: string;
  on: 'gateway' | 'store';
  method: string;
  nth: number;
  registered: 'never' | 'after' | 'always';
}> = [
  { step: 'save the card', on: 'gateway', method: 'createCustomer', nth: 1, registered: 'never' },
  { step: 'charge the first month', on: 'gateway', method: 'charge', nth: 1, registered: 'never' },
  { step: 'record the charge', on: 'store', method: 'append', nth: 1, registered: 'never' },
  { step: 'claim the email', on: 'store', method: 'append', nth: 2, registered: 'never' },
  { step: 'register the user', on: 'store', method: 'append', nth: 3, registered: 'after' },
  { step: 'activate the membership', on: 'store', method: 'append', nth: 4, registered: 'always' },
];

const cases = STEPS.flatMap((s) =>
  (['before', 'after'] as const).map((when) => ({
    ...s,
    when,
    completes: s.registered === 'always' || (s.registered === 'after' && when === 'after'),
  })),
);

/** The sign-up's events from the whole log (waiting until all is readable: other test files' transactions hide the newest). */
async function eventsOfSignUp(email: string): Promise<RecordedEvent[]> {
  const log = await readWholeLog(store);
  const paymentIds = new Set(
    log
      .filter((e) => e.type === 'PaymentCaptured' && (e.data as { email: string }).email === email)
      .map((e) => (e.data as { paymentId: string }).paymentId),
  );
  return log.filter(
    (e) =>
      (e.data as { email?: string }).email === email ||
      paymentIds.has((e.data as { paymentId?: string }).paymentId ?? ''),
  );
}

describe('sign-up with a card: complete or give back', () => {
  it.each(cases)(
    'a failure $when "$step" leaves no charge standing and the email free, or completes the sign-up',
    async ({ on, method, nth, when, completes }) => {
      const gateway = new SandboxGateway();
      const body = input();
      const deps =
        on === 'gateway'
          ? { store, gateway: failing<PaymentGateway>(gateway, method as keyof PaymentGateway, nth, when) }
          : { store: failing<EventStore>(store, method as keyof EventStore, nth, when), gateway };

      const answer = registerUser(deps, body, context());
      // A registration whose answer was lost is found written: that sign-up carries on and succeeds.
      if (method === 'append' && nth === 3 && when === 'after')
        await expect(answer).resolves.toMatchObject({ userId: expect.any(String) });
      else await expect(answer).rejects.toBeInstanceOf(InjectedFailure);

      const owner = await userIdForEmail(store, body.email);
      if (!completes) {
        expect(gateway.standingCharges()).toEqual([]);
        expect(gateway.netChargedCents()).toBe(0);
        expect(owner).toBeNull();
        // Money that moved is on record for finance: the charge and its refund, in that order.
        const payments = (await eventsOfSignUp(body.email))
          .filter((e) => e.streamId.startsWith('payment-'))
          .map((e) => e.type);
        expect(payments).toEqual(method === 'createCustomer' ? [] : ['PaymentCaptured', 'PaymentRefunded']);
        // The email can be registered again.
        const again = await registerUser(
          { store, gateway },
          { ...body, paymentToken: `dev_tok_${randomUUID().slice(0, 8)}` },
          context(),
        );
        expect(await userIdForEmail(store, body.email)).toBe(again.userId);
        expect(gateway.netChargedCents()).toBe(199);
        return;
      }
      // Past the registration the sign-up completes: the user exists, paid once, and the
      // activation process (as it would run on UserRegistered) gives the month.
      expect(owner).not.toBeNull();
      expect(gateway.netChargedCents()).toBe(199);
      const registered = (await store.readStream(userStream(owner!))).find((e) => e.type === 'UserRegistered')!;
      await membershipActivationProcess.handle(registered, { store, now: new Date() });
      const membership = (await store.readStream(membershipStream(owner!))).filter(
        (e) => e.type === 'MembershipActivated',
      );
      expect(membership).toHaveLength(1);
      expect(membership[0].data).toMatchObject({ userId: owner, source: 'card' });
      expect((await eventsOfSignUp(body.email)).map((e) => e.type)).not.toContain('PaymentRefunded');
      await expect(registerUser({ store, gateway }, input({ email: body.email }), context())).rejects.toMatchObject({
        kind: 'conflict',
      });
    },
  );

  it.each([
    ['a NUL byte', 'A\u0000B'],
    ['a lone surrogate', '\ud800'],
  ])('refuses a first name with %s before any money moves or anything is written', async (_label, firstName) => {
    const gateway = new SandboxGateway();
    const calls: string[] = [];
    const watched = new Proxy(gateway, {
      get: (object, property) => (calls.push(String(property)), Reflect.get(object, property).bind(object)),
    });
    const body = input({ firstName });
    const error = await registerUser({ store, gateway: watched }, body, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'validation', details: { fields: { firstName: expect.any(String) } } });
    expect(calls).toEqual([]);
    expect(await store.readStream(emailStream(body.email))).toEqual([]);
    await registerUser({ store, gateway }, { ...body, firstName: 'Ann' }, context());
    expect(gateway.netChargedCents()).toBe(199);
  });

  it('two sign-ups of one email at once: one account, the other charge refunded and on record', async () => {
    const gateway = new SandboxGateway();
    const email = `race-${randomUUID()}@example.test`;
    const results = await Promise.allSettled([
      registerUser({ store, gateway }, input({ email }), context()),
      registerUser({ store, gateway }, input({ email }), context()),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { kind: 'conflict' } });
    expect(gateway.netChargedCents()).toBe(199);
    const winner = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ userId: string }>).value
      .userId;
    expect(await userIdForEmail(store, email)).toBe(winner);
    const refunded = (await eventsOfSignUp(email)).filter((e) => e.type === 'PaymentRefunded');
    expect(refunded.length).toBeLessThanOrEqual(1);
    for (const refund of refunded)
      expect(
        (await store.readStream(paymentStream((refund.data as { paymentId: string }).paymentId))).map((e) => e.type),
      ).toEqual(['PaymentCaptured', 'PaymentRefunded']);
  });
});

describe('sign-up recovery (the process died between the charge and the registration)', () => {
  /** What a sign-up leaves when its process dies after recording the charge and claiming the email. */
  async function diedMidway(gateway: SandboxGateway, ageMs: number) {
    const userId = randomUUID();
    const paymentId = signUpPaymentId(userId);
    const email = `died-${userId}@example.test`;
    const at = new Date(Date.now() - ageMs);
    const card = await gateway.createCustomer({
      email,
      name: 'Dee Died',
      paymentToken: 'dev_tok_died',
      idempotencyKey: `customer:${userId}`,
    });
    const result = await gateway.charge({
      customerId: card.customerId,
      amountCents: 199,
      currency: 'USD',
      description: 'x',
      idempotencyKey: `signup:${paymentId}`,
    });
    const record = {
      type: 'RecordCharge' as const,
      paymentId,
      userId,
      requestType: 'membership_signup',
      gatewayCustomerId: card.customerId,
      amountCents: 199,
      currency: 'USD' as const,
      cardHolderName: 'Dee Died',
      email,
      correlationId: null,
      result,
      now: at,
    };
    await handleCommand(store, paymentStream(paymentId), paymentDecider, record, { actorId: null, now: at });
    await claimEmail(store, email, userId, { actorId: null, now: at });
    return { userId, paymentId, email };
  }

  it('gives an abandoned sign-up its money back and frees the email, once; a young one is left to its request', async () => {
    const gateway = new SandboxGateway();
    const old = await diedMidway(gateway, ABANDONED_SIGN_UP_MS + 60_000);
    const young = await diedMidway(gateway, 60_000);
    expect(gateway.netChargedCents()).toBe(398);
    expect(await giveBackAbandonedSignUp({ store, gateway }, young.paymentId, new Date())).toBe(false);
    expect(await giveBackAbandonedSignUp({ store, gateway }, old.paymentId, new Date())).toBe(true);
    expect(await giveBackAbandonedSignUp({ store, gateway }, old.paymentId, new Date())).toBe(false);
    expect(gateway.netChargedCents()).toBe(199);
    expect((await store.readStream(paymentStream(old.paymentId))).map((e) => e.type)).toEqual([
      'PaymentCaptured',
      'PaymentRefunded',
    ]);
    expect(await userIdForEmail(store, old.email)).toBeNull();
    expect(await userIdForEmail(store, young.email)).toBe(young.userId);
  });

  it('never gives back the charge of a sign-up that was registered', async () => {
    const gateway = new SandboxGateway();
    const { userId } = await registerUser({ store, gateway }, input(), context());
    expect(
      await giveBackAbandonedSignUp(
        { store, gateway },
        signUpPaymentId(userId),
        new Date(Date.now() + 2 * ABANDONED_SIGN_UP_MS),
      ),
    ).toBe(false);
    expect(gateway.netChargedCents()).toBe(199);
  });
});
