import { openEventStore } from '../event-store';
import type { EventStore } from '../event-store/port';
import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { creditEarnings, earningsEventId } from './credit-earnings';
import { creatorAccountStream } from './events';

let database: TestDatabase;
let store: EventStore;
const context = { actorId: 'member-1', now: new Date('2026-01-02T00:00:00Z') };

beforeAll(async () => {
  database = await createTestDatabase();
  store = await openEventStore({ databaseUrl: database.url });
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

test('credits once per reference, even when called concurrently', async () => {
  const input = {
    grossCents: 999,
    source: 'subscription' as const,
    reference: 'charge-1',
    occurredAt: '2026-01-01T00:00:00.000Z',
    payerId: 'member-1',
  };
  const results = await Promise.all(
    Array.from({ length: 5 }, () => creditEarnings(store, 'creator-1', input, context)),
  );
  // Calls that lost the race either see the credit and decide nothing, or (appended in the same
  // group as the winner) are answered as the winner was: the same event at the same position.
  const answered = results.filter((r) => r.events.length === 1);
  expect(answered.length).toBeGreaterThanOrEqual(1);
  expect(new Set(answered.map((r) => `${r.position!.commit}:${r.position!.prepare}`)).size).toBe(1);
  await creditEarnings(store, 'creator-1', input, context);
  const events = await store.readStream(creatorAccountStream('creator-1'));
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    eventId: earningsEventId('creator-1', 'charge-1'),
    type: 'EarningsCredited',
    data: { grossCents: 999, creatorShareCents: 899, platformFeeCents: 100, availableAt: '2026-01-08T00:00:00.000Z' },
    metadata: { actorId: 'member-1' },
  });
});
