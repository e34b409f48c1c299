import type { Knex } from 'knex';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { creditBalance, spendBalance } from '../domain/wallet/balance';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { replayTwice } from './engine/testing/replay-twice';
import { walletBalancesProjector } from './wallet-balances';
import { readWholeLog } from '../ops/testing/read-whole-log';

jest.setTimeout(60_000);
let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

/** The global log hides rows of transactions still open anywhere on the server: wait until it shows `count` events. */
async function readAllOf(count: number) {
  for (;;) {
    const events = await readWholeLog(store);
    if (events.length >= count) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('wallet_balances is idempotent and matches the stream', async () => {
  const context = { actorId: 't', now: new Date('2026-01-01T00:00:00Z') };
  await creditBalance(store, 'a', { amountCents: 1940, reason: 'conversion', reference: 'c1' }, context);
  await spendBalance(store, 'a', { amountCents: 1194, reason: 'site plan', reference: 'p1' }, context);
  await creditBalance(store, 'b', { amountCents: 100, reason: 'conversion', reference: 'c2' }, context);
  const { once, twice } = await replayTwice(db, walletBalancesProjector, await readAllOf(3));
  expect(twice).toEqual(once);
  const rows = await db.withSchema('replay_once_wallet_balances').table('wallet_balances').orderBy('user_id');
  expect(rows.map((r) => [r.user_id, r.balance_cents, r.credits, r.debits])).toEqual([
    ['a', '746', 1, 1],
    ['b', '100', 1, 0],
  ]);
  expect(once.wallet_entries).toHaveLength(3);
});
