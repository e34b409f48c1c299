import { randomUUID } from 'node:crypto';
import type supertest from 'supertest';
import { userStream } from '../../domain/accounts/events';
import type { PaymentGateway } from '../../domain/payments/gateway';
import { eventually } from './eventually';
import type { TestStack } from './harness';

/** A signed-in member of a test stack: their agent (with the session cookie) and their id. */
export interface TestMember {
  agent: supertest.Agent;
  id: string;
}

export const TEST_PASSWORD = 'Passw0rdGood';

let sequence = 0;

/**
 * A member signed up over HTTP with a sandbox card (a good one unless `paymentToken` says
 * otherwise), returned once their site plan is active. Each comes from an address of its own
 * (`X-Forwarded-For`: start the stack with `trustProxy: true`), so the per-address sign-up limit
 * never decides a test.
 */
export async function signUpMember(
  stack: TestStack,
  firstName: string,
  options: { lastName?: string; paymentToken?: string } = {},
): Promise<TestMember> {
  const n = ++sequence;
  const agent = stack.agent().set('X-Forwarded-For', `10.250.${(n >> 8) & 255}.${n & 255}`);
  await agent
    .post('/api/auth/register')
    .send({
      firstName,
      lastName: options.lastName ?? 'Member',
      email: `${firstName.toLowerCase()}.${randomUUID()}@example.com`,
      password: TEST_PASSWORD,
      confirmPassword: TEST_PASSWORD,
      paymentToken: options.paymentToken ?? `dev_tok_${randomUUID()}`,
    })
    .expect(201);
  const me = await eventually(
    () => agent.get('/api/auth/user'),
    (res) => res.status === 200 && res.body.subscriptionStatus === 'active',
    40_000,
  );
  return { agent, id: me.body.id };
}

/**
 * Replaces the member's card on file with a sandbox card of `paymentToken` (by default one the
 * sandbox declines every charge of: 'Insufficient funds', last 4 9999), as a card update records it;
 * the new card's customer id at the gateway.
 */
export async function replaceCardOnFile(
  stack: TestStack,
  gateway: PaymentGateway,
  memberId: string,
  at: Date,
  paymentToken = 'dev_tok_insufficient_9999',
): Promise<{ customerId: string }> {
  const card = await gateway.createCustomer({
    email: `${memberId}@example.test`,
    name: 'Card Holder',
    paymentToken,
    idempotencyKey: randomUUID(),
  });
  const updated = {
    type: 'PaymentCardUpdated',
    data: {
      userId: memberId,
      gatewayCustomerId: card.customerId,
      cardLast4: card.cardLast4,
      updatedAt: at.toISOString(),
    },
  };
  await stack.store.append(userStream(memberId), [updated], { expectedRevision: 'any' });
  return { customerId: card.customerId };
}
