import type { Knex } from 'knex';
import { noLoginFailures } from '../domain/accounts/decider';
import { login } from '../domain/accounts/login';
import { hashPassword } from '../domain/accounts/passwords';
import { registerUser } from '../domain/accounts/register';
import { memberDecider } from '../domain/chat/member-decider';
import { memberStream, presenceStream, sessionStream } from '../domain/chat/events';
import { presenceDecider } from '../domain/chat/presence-decider';
import { sessionDecider } from '../domain/chat/session-decider';
import { creatorDecider } from '../domain/creators/decider';
import { creatorStream } from '../domain/creators/events';
import { registerCryptoWallet, requestConversion } from '../domain/crypto/commands';
import { conversionDecider } from '../domain/crypto/conversion-decider';
import { cryptoTransactionStream } from '../domain/crypto/events';
import { FixedRatesProvider } from '../domain/crypto/rates';
import { SandboxCryptoGateway } from '../domain/crypto/sandbox-gateway';
import { checkSettlements, conversionSubmission } from '../domain/crypto/settlement-process';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { membershipDecider } from '../domain/membership/decider';
import { membershipStream } from '../domain/membership/events';
import { paymentDecider } from '../domain/payments/decider';
import type { PaymentCapturedData } from '../domain/payments/events';
import { paymentStream } from '../domain/payments/events';
import { createSandboxGateway } from '../domain/payments/sandbox-gateway';
import { grantStaffRole } from '../domain/payouts/staff-role';
import { handleCommand } from '../domain/shared/command-handler';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { cryptoConversionsProjector } from './crypto-conversions';
import { cryptoTransactionsProjector } from './crypto-transactions';
import { cryptoWalletsProjector } from './crypto-wallets';
import { paymentsProjector } from './payments';
import { projectionContext, type Projector } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';
import { userPreferencesProjector } from './user-preferences';
import { userProfilesProjector } from './user-profiles';
import { usersProjector } from './users';

jest.setTimeout(60_000);
let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

/** A history of every event type these projectors read, made through the real commands. */
beforeAll(async () => {
  let minute = 0;
  const tick = () => new Date(Date.UTC(2026, 2, 1, 12, minute++));
  const as = (actorId: string) => ({ actorId, now: tick() });
  const gateway = createSandboxGateway();
  const passwordHash = await hashPassword('correct horse battery');
  const users: string[] = [];
  for (const name of ['Ann', 'Bea', 'Cy']) {
    const input = {
      email: `${name.toLowerCase()}@example.com`,
      firstName: name,
      lastName: 'Lee',
      passwordHash,
      paymentToken: 'dev_tok_ok',
    };
    users.push((await registerUser({ store, gateway }, input, as('anonymous'))).userId);
  }
  const [a, b, c] = users;
  // Accounts: failed and successful logins, a creator, finance staff who becomes a creator too.
  const noUnknownEmails = { read: async () => ({ ...noLoginFailures, version: 0 }), write: async () => true }; // ann exists
  for (const password of ['wrong', 'wrong again', 'correct horse battery'])
    await login(store, { email: 'ann@example.com', password }, as(a), noUnknownEmails).catch(() => undefined);
  for (const userId of [b, c]) {
    if (userId === c) await grantStaffRole(store, c, as('root'));
    await handleCommand(
      store,
      creatorStream(userId),
      creatorDecider,
      { type: 'RegisterCreator', userId, bio: 'Behind the scenes', coverImageUrl: null, at: tick() },
      as(userId),
    );
  }
  await handleCommand(
    store,
    membershipStream(a),
    membershipDecider,
    { type: 'CancelMembership', userId: a, now: tick() },
    as(a),
  );

  // Payments: a refund of a sign-up charge and a declined charge.
  const captured = (await readWholeLog(store)).find((e) => e.type === 'PaymentCaptured')!.data as PaymentCapturedData;
  await handleCommand(
    store,
    paymentStream(captured.paymentId),
    paymentDecider,
    { type: 'RecordRefund', gatewayRefundId: 're_1', reason: 'duplicate', now: tick() },
    as('root'),
  );
  const declined = {
    status: 'declined' as const,
    transactionId: 'ch_declined',
    cardLast4: '0002',
    failureReason: 'Insufficient funds',
    raw: { sandbox: true },
  };
  const paymentId = '7f1c2a52-5a1e-4c33-9a53-0f0e4b7b2d12';
  const attempt = {
    paymentId,
    userId: b,
    requestType: 'membership_renewal',
    gatewayCustomerId: 'cus_b',
    amountCents: 1999,
    currency: 'USD' as const,
    cardHolderName: 'Bea Lee',
    email: 'bea@example.com',
    correlationId: null,
  };
  await handleCommand(
    store,
    paymentStream(paymentId),
    paymentDecider,
    { type: 'RecordCharge', ...attempt, result: declined, now: tick() },
    as(b),
  );

  // Chat: c online before saving a profile; a saves twice, goes online and off; sessions between a and b.
  const profile = (displayName: string) => ({
    displayName,
    age: 30,
    location: 'Austin, TX',
    genderIdentity: 'woman' as const,
    sexualOrientation: 'bisexual' as const,
    relationshipType: ['dating' as const],
    bio: 'hi',
    interests: ['Music'],
  });
  const preferences = (maxDistance: number) => ({
    sexualActivities: ['Massage'],
    kinks: [],
    rolePreferences: ['Top'],
    experienceLevel: 'beginner' as const,
    ageRangeMin: 20,
    ageRangeMax: 40,
    maxDistance,
    lookingForGenders: ['woman'],
    dealBreakers: [],
    mustHaves: ['Honesty'],
    isPrivate: false,
  });
  const member = (userId: string, command: Record<string, unknown>) =>
    handleCommand(store, memberStream(userId), memberDecider, { userId, now: tick(), ...command } as never, as(userId));
  const presence = (userId: string, type: 'GoOnline' | 'GoOffline') =>
    handleCommand(store, presenceStream(userId), presenceDecider, { type, userId, now: tick() }, as(userId));
  await presence(c, 'GoOnline');
  await member(a, { type: 'SaveProfile', profile: profile('Ann') });
  await presence(a, 'GoOnline');
  await member(b, { type: 'SaveProfile', profile: profile('Bea') });
  await member(a, { type: 'SaveProfile', profile: profile('Anna') });
  await member(c, { type: 'SaveProfile', profile: profile('Cy') });
  await member(a, { type: 'SavePreferences', preferences: preferences(25) });
  await member(b, { type: 'SavePreferences', preferences: preferences(50) });
  await member(a, { type: 'SavePreferences', preferences: preferences(10) });
  for (const roomId of ['r1', 'r2']) {
    await handleCommand(
      store,
      sessionStream(roomId),
      sessionDecider,
      { type: 'StartSession', roomId, user1Id: a, user2Id: b, mode: 'standard', compatibilityScore: 0.5, now: tick() },
      as(a),
    );
  }
  await handleCommand(
    store,
    sessionStream('r2'),
    sessionDecider,
    { type: 'EndSession', roomId: 'r2', endedBy: b, reason: 'left', now: tick() },
    as(b),
  );
  await presence(a, 'GoOffline');

  // Crypto: two wallets, conversions completed into one of them, one failed, one paying for a plan.
  const rates = new FixedRatesProvider({ USDC: 10_001n, USDT: 9_999n });
  const cryptoGateway = new SandboxCryptoGateway(0);
  let drawn = 0;
  const numbers = { next: async () => ++drawn };
  const { walletId } = await registerCryptoWallet(
    store,
    { userId: a, cryptoType: 'USDC', walletAddress: '0xabc123' },
    as(a),
  );
  await registerCryptoWallet(store, { userId: a, cryptoType: 'USDT', walletAddress: 'TXYZ' }, as(a));
  const conversions = [];
  for (const [amount, address] of [
    ['25.5', '0xabc123'],
    ['12.25', '0xabc123'],
    ['30', 'TFAIL'],
  ]) {
    conversions.push(
      await requestConversion(
        store,
        rates,
        {
          userId: a,
          cryptoType: 'USDC',
          cryptoAmount: amount,
          walletAddress: address,
          walletId: address === 'TFAIL' ? null : walletId,
        },
        as(a),
        numbers,
      ),
    );
  }
  const submit = conversionSubmission(cryptoGateway);
  for (const event of await readWholeLog(store))
    if (submit.eventTypes.includes(event.type)) await submit.handle(event, { store, now: tick() });
  const processing = (await readWholeLog(store))
    .filter((e) => e.type === 'CryptoConversionSubmitted')
    .map((e) => e.data as { transactionId: string; gatewayTransactionId: string });
  await checkSettlements(store, cryptoGateway, processing, tick());
  const used = {
    type: 'MarkUsedForSubscription' as const,
    purchaseId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    subscriptionMonths: 6,
    now: tick(),
  };
  await handleCommand(store, cryptoTransactionStream(conversions[0].transactionId), conversionDecider, used, as(a));
});

/** The read model built with applyAll in batches of `size`, then the whole log again (a replayed batch). */
async function buildWithApplyAll(projector: Projector, events: RecordedEvent[], size: number) {
  const schema = `apply_all_${projector.name}_${size}`;
  await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await projector.createTables(db, schema);
  await db.transaction(async (trx) => {
    for (let i = 0; i < events.length; i += size)
      await projector.applyAll!(projectionContext(trx, schema), events.slice(i, i + size));
    await projector.applyAll!(projectionContext(trx, schema), events);
  });
  return dumpTables(db, projector, schema);
}

const projectors = [
  cryptoWalletsProjector,
  cryptoTransactionsProjector,
  cryptoConversionsProjector,
  usersProjector,
  paymentsProjector,
  userProfilesProjector,
  userPreferencesProjector,
];

it.each(projectors)(
  '$name: applyAll (one batch, batches of 3, replayed) leaves the rows apply leaves one by one',
  async (projector) => {
    const log = await readWholeLog(store);
    const { once, twice } = await replayTwice(db, projector, log);
    expect(twice).toEqual(once);
    expect(Object.values(once).every((rows) => rows.length > 0)).toBe(true);
    const events = log.filter((e) => projector.eventTypes.includes(e.type));
    for (const size of [events.length, 3, 1]) expect(await buildWithApplyAll(projector, events, size)).toEqual(once);
  },
);
