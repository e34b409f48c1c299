import { randomUUID } from 'node:crypto';
import { claimEmail } from '../domain/accounts/email-claim';
import { signUpPaymentId } from '../domain/accounts/events';
import { ABANDONED_SIGN_UP_MS } from '../domain/accounts/register';
import { paymentDecider } from '../domain/payments/decider';
import { paymentStream } from '../domain/payments/events';
import type { SandboxGateway } from '../domain/payments/sandbox-gateway';
import { handleCommand } from '../domain/shared/command-handler';
import { reconcile } from './commands/reconcile';
import { eventually } from './testing/eventually';
import { readWholeLog } from './testing/read-whole-log';
import { startTestStack, type TestStack } from './testing/harness';

jest.setTimeout(120_000);

/** The sign-up recovery ticker, on the running product: a sign-up that died after its charge gets its money back. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
  // The runner starts the read models after the stack is up, and settle() waits only for those
  // with a checkpoint: one started after it would still be catching up when reconcile reads.
  const started = await eventually(
    () => stack.db('projection_checkpoints').pluck('name'),
    (names: string[]) => stack.deps.projectionNames.every((name) => names.includes(name)),
  );
  expect(stack.deps.projectionNames.filter((name) => !started.includes(name))).toEqual([]);
});
afterAll(() => stack.close());

it('refunds the charge of a sign-up that died before registering its user, frees the email, and reconcile sees it before', async () => {
  const gateway = stack.deps.ports.paymentGateway as SandboxGateway;
  const userId = randomUUID();
  const paymentId = signUpPaymentId(userId);
  const email = `died-${userId}@example.test`;
  const at = new Date(Date.now() - ABANDONED_SIGN_UP_MS - 60_000);
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
  await handleCommand(stack.store, paymentStream(paymentId), paymentDecider, record, { actorId: null, now: at });
  await claimEmail(stack.store, email, userId, { actorId: null, now: at });
  expect(await stack.settle()).toBe(true);
  await readWholeLog(stack.store);
  const before = await reconcile({ store: stack.store, db: stack.db }, new Date());
  expect(before.problems).toEqual([
    expect.stringMatching(
      new RegExp(
        `^money without its effect: 1\\.99 paid for membership \\(membership_signup\\) .*user ${userId}\\) is still owed membership time or a refund$`,
      ),
    ),
  ]);
  await stack
    .agent()
    .post('/api/auth/register')
    .send({
      firstName: 'Dee',
      lastName: 'Again',
      email,
      password: 'Passw0rdOK',
      confirmPassword: 'Passw0rdOK',
      paymentToken: 'dev_tok_again',
    })
    .expect(409);

  await stack.tickers.runOnce();
  expect((await stack.store.readStream(paymentStream(paymentId))).map((e) => e.type)).toEqual([
    'PaymentCaptured',
    'PaymentRefunded',
  ]);
  expect(gateway.netChargedCents(card.customerId)).toBe(0);
  expect(
    await eventually(
      () => stack.db('payments').where({ id: paymentId }).first(),
      (row) => row?.status === 'refunded',
    ),
  ).toMatchObject({ status: 'refunded' });
  await stack
    .agent()
    .post('/api/auth/register')
    .send({
      firstName: 'Dee',
      lastName: 'Again',
      email,
      password: 'Passw0rdOK',
      confirmPassword: 'Passw0rdOK',
      paymentToken: 'dev_tok_again',
    })
    .expect(201);
  expect(await stack.settle()).toBe(true);
  await readWholeLog(stack.store);
  expect((await reconcile({ store: stack.store, db: stack.db }, new Date(Date.now() + 10 * 60_000))).problems).toEqual(
    [],
  );
});
