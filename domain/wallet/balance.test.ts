import { PostgresEventStore } from '../event-store/postgres-event-store';
import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { DomainError } from '../shared/errors';
import { creditBalance, currentBalanceCents, spendBalance } from './balance';
import { walletStream } from './events';

let database: TestDatabase;
let store: PostgresEventStore;
const context = () => ({ actorId: 'test', now: new Date() });

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore({ connectionString: database.url, poolSize: 20 });
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

describe('member USD balance on one stream', () => {
  it('50 parallel spends never overdraw and add up', async () => {
    await creditBalance(store, 'racer', { amountCents: 1000, reason: 'conversion', reference: 'conv-1' }, context());
    // 50 spends of 30 cents against $10.00: exactly 33 can succeed (9.90), 17 must be refused.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        spendBalance(store, 'racer', { amountCents: 30, reason: 'unlock', reference: `spend-${i}` }, context()),
      ),
    );
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(succeeded).toHaveLength(33);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
      expect((r as PromiseRejectedResult).reason.message).toBe('Insufficient balance');
    }
    expect(await currentBalanceCents(store, 'racer')).toBe(10);
    // Every recorded balance along the stream is non-negative and consistent with the movements.
    let running = 0;
    for (const event of await store.readStream(walletStream('racer'))) {
      const data = event.data as { amountCents: number; balanceCents: number };
      running += event.type === 'WalletCredited' ? data.amountCents : -data.amountCents;
      expect(data.balanceCents).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }
  }, 60_000);

  it('the same reference never credits or spends twice, even in parallel', async () => {
    const credits = await Promise.all(
      Array.from({ length: 10 }, () =>
        creditBalance(store, 'twice', { amountCents: 1940, reason: 'conversion', reference: 'conv-A' }, context()),
      ),
    );
    expect(credits.filter((c) => c.applied)).toHaveLength(1);
    const spends = await Promise.all(
      Array.from({ length: 10 }, () =>
        spendBalance(store, 'twice', { amountCents: 1194, reason: 'plan', reference: 'plan-1' }, context()),
      ),
    );
    expect(spends.filter((s) => s.applied)).toHaveLength(1);
    expect(await currentBalanceCents(store, 'twice')).toBe(746);
    expect(await store.readStream(walletStream('twice'))).toHaveLength(2);
  }, 30_000);

  it('refuses an overdraft with the balance in the answer', async () => {
    await expect(
      spendBalance(store, 'empty', { amountCents: 1, reason: 'x', reference: 'r' }, context()),
    ).rejects.toMatchObject({
      kind: 'unprocessable',
      message: 'Insufficient balance',
      details: { balanceCents: 0 },
    });
  });
});
