import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { claimEmail } from '../../domain/accounts/email-claim';
import { userStream } from '../../domain/accounts/events';
import { formatCents } from '../../domain/contracts/money';
import { FixedRatesProvider } from '../../domain/crypto/rates';
import { SandboxCryptoGateway } from '../../domain/crypto/sandbox-gateway';
import { membershipDecider } from '../../domain/membership/decider';
import { membershipStream } from '../../domain/membership/events';
import { messageDecider } from '../../domain/messaging/decider';
import { messageStream } from '../../domain/messaging/events';
import { SandboxGateway } from '../../domain/payments/sandbox-gateway';
import { handleCommand } from '../../domain/shared/command-handler';
import type { BalanceMovement } from '../../domain/wallet/events';
import { creditBalance } from '../../domain/wallet/balance';
import { reconcile } from '../../ops/commands/reconcile';
import { readWholeLog } from '../../ops/testing/read-whole-log';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { earn, eventually, person, ready } from '../../ops/testing/payouts-fixtures';

jest.setTimeout(300_000);

/**
 * Every money command fired N times at once with the same request (with and without one
 * Idempotency-Key), then the ledger invariant: reconcile finds nothing (every transaction
 * balances, every read model says what the events say, no money without its effect), the card
 * money the ledger holds is what the processor holds, no balance below zero, no 5xx, and the
 * command's own count of money taken equals its count of effects.
 */

let stack: TestStack;
let gateway: SandboxGateway;
beforeAll(async () => {
  stack = await startTestStack({
    ports: {
      cryptoRates: new FixedRatesProvider({ USDC: 10_000n, USDT: 10_000n }),
      cryptoGateway: new SandboxCryptoGateway(0),
    },
  });
  gateway = stack.deps.ports.paymentGateway as SandboxGateway;
  await ready(stack);
});
afterAll(() => stack.close());

type Agent = ReturnType<TestStack['agent']>;
const ctx = () => ({ actorId: null, now: new Date() });

/** A member with a real sandbox card, age verified, optionally an active membership and a USD balance. */
async function member(options: {
  active: boolean;
  balanceCents: number;
}): Promise<{ userId: string; agent: Agent; customerId: string }> {
  const userId = randomUUID();
  const email = `prop-${userId}@example.test`;
  const now = new Date().toISOString();
  const card = await gateway.createCustomer({
    email,
    name: 'Prop Member',
    paymentToken: 'dev_tok_property',
    idempotencyKey: userId,
  });
  await claimEmail(stack.store, email, userId, ctx());
  await stack.store.append(
    userStream(userId),
    [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email,
          firstName: 'Prop',
          lastName: 'Member',
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
  if (options.active)
    await handleCommand(
      stack.store,
      membershipStream(userId),
      membershipDecider,
      {
        type: 'ActivateMembership',
        userId,
        paymentId: `fixture-${userId}`,
        source: 'card',
        months: 1,
        now: new Date(),
      },
      ctx(),
    );
  if (options.balanceCents)
    await creditBalance(
      stack.store,
      userId,
      { amountCents: options.balanceCents, reason: 'test credit', reference: `test:${userId}` },
      ctx(),
    );
  const status = options.active ? 'active' : 'none';
  await eventually(
    () => stack.db('users').where({ id: userId }).first(),
    (row) => row?.subscription_status === status && row?.age_verified,
    30_000,
  );
  if (options.balanceCents)
    await eventually(
      () => stack.db('wallet_balances').where({ user_id: userId }).first(),
      (row) => Number(row?.balance_cents) === options.balanceCents,
      30_000,
    );
  const token = randomBytes(32).toString('base64url');
  await stack.db('http_sessions').insert({
    id: createHash('sha256').update(token).digest('hex'),
    user_id: userId,
    expires_at: new Date(Date.now() + 3_600_000),
  });
  return { userId, customerId: card.customerId, agent: stack.agent().set('Cookie', `lively.sid=${token}`) };
}

const eventsOf = async (streamId: string, type: string) =>
  (await stack.store.readStream(streamId)).filter((e) => e.type === type);

interface MoneyCommand {
  name: string;
  /** Makes the actors; returns the request to fire and how to count money taken vs effects after. */
  prepare(): Promise<{
    fire: (agent: Agent) => Promise<Response>;
    agent: Agent;
    check: (answers: Response[]) => Promise<void>;
  }>;
}

const ok = (answers: Response[], status: number) => answers.filter((a) => a.status === status).length;

const COMMANDS: MoneyCommand[] = [
  {
    name: 'site plan by card (POST /api/subscribe)',
    async prepare() {
      const { userId, agent, customerId } = await member({ active: false, balanceCents: 0 });
      return {
        agent,
        fire: (a) => a.post('/api/subscribe').send({}),
        async check(answers) {
          const charges = (await stack.store.readAll({ types: ['PaymentCaptured'] })).filter(
            (e) => (e.data as { userId: string }).userId === userId,
          );
          expect(charges).toHaveLength(1);
          expect(ok(answers, 200)).toBeGreaterThanOrEqual(1);
          expect(gateway.netChargedCents(customerId)).toBe(199);
          expect(await eventsOf(membershipStream(userId), 'MembershipActivated')).toHaveLength(1);
        },
      };
    },
  },
  {
    name: 'creator tier (POST /api/subscriptions)',
    async prepare() {
      const creator = await person(stack, 'creator');
      const { userId, agent, customerId } = await member({ active: true, balanceCents: 0 });
      return {
        agent,
        fire: (a) => a.post('/api/subscriptions').send({ creatorId: creator.userId, tierId: 'default-basic' }),
        async check(answers) {
          const started = await eventsOf(
            `creatorSubscription-${userId}_${creator.userId}`,
            'CreatorSubscriptionStarted',
          );
          expect(started).toHaveLength(1);
          expect(ok(answers, 201)).toBe(1);
          expect(gateway.netChargedCents(customerId)).toBe(999);
        },
      };
    },
  },
  {
    name: 'message unlock (POST /api/messages/:id/unlock)',
    async prepare() {
      const creator = await person(stack, 'creator');
      const { userId, agent } = await member({ active: true, balanceCents: 2000 });
      const messageId = randomUUID();
      await handleCommand(
        stack.store,
        messageStream(messageId),
        messageDecider,
        {
          type: 'SendMessage',
          messageId,
          senderId: creator.userId,
          senderIsCreator: true,
          receiverId: userId,
          content: 'Pay to read',
          priceCents: 500,
          at: new Date(),
        },
        ctx(),
      );
      return {
        agent,
        fire: (a) => a.post(`/api/messages/${messageId}/unlock`).send({}),
        async check(answers) {
          const spends = (await eventsOf(`wallet-${userId}`, 'WalletDebited')).filter(
            (e) => (e.data as BalanceMovement).reference === `messageUnlock:${messageId}`,
          );
          expect(spends).toHaveLength(1);
          expect(await eventsOf(messageStream(messageId), 'MessageUnlocked')).toHaveLength(1);
          expect(ok(answers, 200)).toBeGreaterThanOrEqual(1);
        },
      };
    },
  },
  {
    name: 'crypto plan (POST /api/subscribe/crypto)',
    async prepare() {
      const { userId, agent } = await member({ active: true, balanceCents: 3 * 1194 + 50 });
      return {
        agent,
        fire: (a) => a.post('/api/subscribe/crypto').send({ months: 6 }),
        async check(answers) {
          const spends = await eventsOf(`wallet-${userId}`, 'WalletDebited');
          const plans = (await eventsOf(membershipStream(userId), 'MembershipActivated')).filter(
            (e) => (e.data as { source: string }).source === 'crypto',
          );
          expect(spends.length).toBeGreaterThanOrEqual(1);
          expect(plans).toHaveLength(spends.length);
          expect(ok(answers, 200)).toBe(spends.length);
        },
      };
    },
  },
  {
    name: 'crypto conversion (POST /api/crypto/convert)',
    async prepare() {
      const { userId, agent } = await member({ active: true, balanceCents: 0 });
      return {
        agent,
        fire: (a) =>
          a
            .post('/api/crypto/convert')
            .send({ cryptoAmount: '20', cryptoType: 'USDC', walletAddress: '0xPropertyPayer' }),
        async check(answers) {
          const requested = (await stack.store.readAll({ types: ['CryptoConversionRequested'] })).filter(
            (e) => (e.data as { userId: string }).userId === userId,
          );
          const credits = (await eventsOf(`wallet-${userId}`, 'WalletCredited')).filter((e) =>
            (e.data as BalanceMovement).reference.startsWith('conversion:'),
          );
          expect(requested).toHaveLength(ok(answers, 202));
          expect(credits).toHaveLength(requested.length);
        },
      };
    },
  },
  {
    name: 'payout (POST /api/payouts)',
    async prepare() {
      const creator = await person(stack, 'creator');
      await earn(stack, creator.userId, 1999, 8);
      const dashboard = await eventually(
        () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`),
        (res) => res.body.availableBalance !== '0.00',
      );
      const account = (
        await creator.agent.post('/api/payment-accounts').send({ accountHolderName: 'Prop Creator' }).expect(201)
      ).body;
      return {
        agent: creator.agent,
        fire: (a) =>
          a.post('/api/payouts').send({ paymentAccountId: account.id, amount: dashboard.body.availableBalance }),
        async check(answers) {
          const requested = await eventsOf(`creatorAccount-${creator.userId}`, 'PayoutRequested');
          expect(requested).toHaveLength(1);
          expect(ok(answers, 201)).toBe(1);
          expect(formatCents((requested[0].data as { amountCents: number }).amountCents)).toBe(
            dashboard.body.availableBalance,
          );
        },
      };
    },
  },
];

/** Card money in the ledger (charges less refunds, no payout has been sent here) against the processor's journal. */
async function ledgerCardMoneyCents(): Promise<number> {
  const [row] = await stack
    .db('ledger_entries')
    .where({ account: 'gateway_clearing' })
    .select(stack.db.raw('coalesce(sum(debit_cents - credit_cents), 0)::bigint as net'));
  return Number(row.net);
}

async function expectLedgerInvariant() {
  // Conversions settle on the clock: submitted, then settled here, then credited.
  expect(await stack.settle()).toBe(true);
  await stack.tickers.runOnce();
  expect(await stack.settle()).toBe(true);
  await readWholeLog(stack.store); // until other test files' open transactions no longer hide our newest events
  // Far enough ahead that nothing counts as in flight any more: every effect must be there.
  const report = await reconcile({ store: stack.store, db: stack.db }, new Date(Date.now() + 10 * 60_000));
  expect(report.problems).toEqual([]);
  expect(await ledgerCardMoneyCents()).toBe(gateway.netChargedCents());
  const negative = (await stack.store.readAll({ types: ['WalletDebited'] })).filter(
    (e) => (e.data as BalanceMovement).balanceCents < 0,
  );
  expect(negative).toEqual([]);
}

describe('every money command, N identical requests at once', () => {
  it.each(COMMANDS.map((command) => [command.name, command] as const))(
    '%s keeps the ledger invariant',
    async (_name, command) => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 8 }), fc.boolean(), async (n, withKey) => {
          const { agent, fire, check } = await command.prepare();
          const key = `prop-${randomUUID()}`;
          const answers = await Promise.all(
            Array.from({ length: n }, () => fire(withKey ? agent.set('Idempotency-Key', key) : agent)),
          );
          expect(
            answers
              .filter((a) => a.status >= 500 || a.status < 200)
              .map((a) => `${a.status} ${JSON.stringify(a.body)}`),
          ).toEqual([]);
          await expectLedgerInvariant();
          await check(answers);
        }),
        { numRuns: 5, endOnFailure: true },
      );
    },
  );
});
