import type { Knex } from 'knex';
import { handleCommand } from '../domain/shared/command-handler';
import { conversionDecider } from '../domain/crypto/conversion-decider';
import { registerCryptoWallet, requestConversion } from '../domain/crypto/commands';
import { cryptoTransactionStream } from '../domain/crypto/events';
import { FixedRatesProvider } from '../domain/crypto/rates';
import { SandboxCryptoGateway } from '../domain/crypto/sandbox-gateway';
import { checkSettlements, conversionSubmission } from '../domain/crypto/settlement-process';
import { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { createTestDatabase, type TestDatabase } from '../ops/testing/test-database';
import { cryptoConversionsProjector } from './crypto-conversions';
import { cryptoTransactionsProjector } from './crypto-transactions';
import { cryptoWalletsProjector } from './crypto-wallets';
import { openReadDatabase } from './engine/database';
import { replayTwice } from './engine/testing/replay-twice';
import { readWholeLog } from '../ops/testing/read-whole-log';

jest.setTimeout(60_000);
const LEGACY_TX = '6f1c2a52-5a1e-4c33-9a53-0f0e4b7b2d11';
let database: TestDatabase;
let store: PostgresEventStore;
let db: Knex;

/** The global log hides rows of transactions still open anywhere on the server: wait until it shows `count` events. */
async function readAllOf(count: number) {
  for (;;) {
    const events = await readWholeLog(store);
    if (events.length >= count) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore({ connectionString: database.url });
  await store.migrate();
  db = openReadDatabase(database.url);
  const now = new Date('2026-03-01T12:00:00Z');
  const context = { actorId: 'u1', now };
  const rates = new FixedRatesProvider({ USDC: 10_001n, USDT: 9_999n });
  const gateway = new SandboxCryptoGateway(0);
  let drawn = 40;
  const numbers = { next: async () => ++drawn };
  const { walletId } = await registerCryptoWallet(
    store,
    { userId: 'u1', cryptoType: 'USDC', walletAddress: '0xabc123' },
    context,
  );
  const ok = await requestConversion(
    store,
    rates,
    { userId: 'u1', cryptoType: 'USDC', cryptoAmount: '25.5', walletAddress: '0xabc123', walletId },
    context,
    numbers,
  );
  await requestConversion(
    store,
    rates,
    { userId: 'u1', cryptoType: 'USDT', cryptoAmount: '12', walletAddress: 'TFAIL', walletId: null },
    context,
    numbers,
  );
  const submit = conversionSubmission(gateway);
  for (const event of await readAllOf(3))
    if (submit.eventTypes.includes(event.type)) await submit.handle(event, { store, now });
  const processing = (await readAllOf(5))
    .filter((e) => e.type === 'CryptoConversionSubmitted')
    .map((e) => e.data as { transactionId: string; gatewayTransactionId: string });
  await checkSettlements(store, gateway, processing, now);
  await handleCommand(
    store,
    cryptoTransactionStream(ok.transactionId),
    conversionDecider,
    { type: 'MarkUsedForSubscription', purchaseId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', subscriptionMonths: 6, now },
    context,
  );
  // A request written before conversions had numbers: projected without one, never given a guessed one.
  await store.append(
    cryptoTransactionStream(LEGACY_TX),
    [
      {
        type: 'CryptoConversionRequested',
        data: {
          transactionId: LEGACY_TX,
          conversionId: 'a3bb189e-8bf9-3888-9912-ace4e6543002',
          userId: 'u1',
          walletId: null,
          walletAddress: '0xold',
          cryptoType: 'USDC',
          cryptoAmount: '11.00000000',
          exchangeRate: '1.0000',
          grossCents: 1100,
          feeCents: 33,
          feeBasisPoints: 300,
          netCents: 1067,
          requestedAt: now.toISOString(),
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
});
afterAll(async () => {
  await db.destroy();
  await store.close();
  await database.drop();
});

describe('crypto read models replay idempotently', () => {
  it.each([cryptoWalletsProjector, cryptoTransactionsProjector, cryptoConversionsProjector])(
    '$name',
    async (projector) => {
      const { once, twice } = await replayTwice(db, projector, await readAllOf(9));
      expect(twice).toEqual(once);
    },
  );

  it('shows the final state', async () => {
    await replayTwice(db, cryptoConversionsProjector, await readAllOf(9));
    const rows = await db
      .withSchema('replay_once_crypto_conversions')
      .table('crypto_conversions')
      .orderBy('crypto_amount', 'desc');
    expect(
      rows.map((r) => [
        r.number,
        r.from_crypto_type,
        r.crypto_amount,
        r.status,
        r.used_for_subscription,
        r.subscription_months,
        r.net_amount_cents,
      ]),
    ).toEqual([
      ['41', 'USDC', '25.50000000', 'completed', true, 6, '2473'], // 25.5 × 1.0001 = 25.50 gross, fee 0.77 (0.765 up), net 24.73
      ['42', 'USDT', '12.00000000', 'failed', false, null, '1164'],
      [null, 'USDC', '11.00000000', 'pending', false, null, '1067'],
    ]);
    await replayTwice(db, cryptoWalletsProjector, await readAllOf(9));
    const wallet = await db.withSchema('replay_once_crypto_wallets').table('crypto_wallets').first();
    expect(wallet.balance).toBe('25.50000000');
  });
});
