import type { Knex } from 'knex';
import { createTestDatabase, type TestDatabase } from '../ops/testing/test-database';
import { postgresConversionNumbers } from './crypto-conversion-numbers';
import { cryptoConversionsProjector } from './crypto-conversions';
import { openReadDatabase } from './engine/database';
import { migrateToLatest } from './migrations';

jest.setTimeout(60_000);
let database: TestDatabase;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase();
  db = openReadDatabase(database.url);
  await migrateToLatest(db);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('conversion numbers from the PostgreSQL sequence', () => {
  it('are positive, unique and increasing, also when drawn concurrently by several allocators', async () => {
    const a = postgresConversionNumbers(db);
    const b = postgresConversionNumbers(db);
    const drawn = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).next()));
    expect(new Set(drawn).size).toBe(40);
    expect(drawn.every((n) => Number.isSafeInteger(n) && n > 0)).toBe(true);
    expect(Math.min(...drawn)).toBe(1);
    const later = await a.next();
    expect(later).toBeGreaterThan(Math.max(...drawn));
  });

  it('continue past the numbers of an imported log the sequence never issued', async () => {
    await cryptoConversionsProjector.createTables(db, 'public');
    await db('crypto_conversions').insert({
      id: '0b7e5f0e-3a53-4a43-9a39-8f5b8bb0c001',
      number: 5000,
      user_id: 'u1',
      transaction_id: '0b7e5f0e-3a53-4a43-9a39-8f5b8bb0c002',
      from_crypto_type: 'USDC',
      crypto_amount: '20',
      usd_amount_cents: 2000,
      service_fee_cents: 60,
      net_amount_cents: 1940,
      exchange_rate: '1.0000',
      status: 'completed',
      used_for_subscription: false,
      created_at: new Date(),
    });
    const fresh = postgresConversionNumbers(db);
    expect(await fresh.next()).toBe(5001);
    expect(await fresh.next()).toBe(5002);
  });
});
