import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { readWholeLog } from '../../ops/testing/read-whole-log';
import { useTestDatabase, type OpenedTestDatabase } from '../../ops/testing/use-test-database';
import { describeEventStoreContract } from './testing/contract';
import { PostgresEventStore } from './postgres-event-store';

let database: TestDatabase;

describeEventStoreContract(
  'PostgreSQL',
  async () => {
    database = await createTestDatabase();
    const store = new PostgresEventStore({ connectionString: database.url, poolSize: 12 });
    await store.migrate();
    return store;
  },
  () => database.drop(),
);

describe('PostgreSQL group commit', () => {
  let groupDatabase: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    groupDatabase = await createTestDatabase();
    // One commit in flight: everything submitted meanwhile lands in the same group.
    store = new PostgresEventStore({ connectionString: groupDatabase.url, poolSize: 4, maxConcurrentCommits: 1 });
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    await groupDatabase.drop();
  });

  const event = (eventId?: string) => [{ type: 'Tested', data: { ok: true }, metadata: {}, eventId }];

  it('settles every append of a group on its own: conflicts and retries do not fail their neighbours', async () => {
    await store.append('g-existing', event(), { expectedRevision: 'no_stream' });
    const retried = '6a1f3c52-8d1e-4f7a-9a57-0d8c1b0e9f11';
    const first = await store.append('g-retry', event(retried), { expectedRevision: 'no_stream' });

    const outcomes = await Promise.allSettled([
      store.append('g-a', event(), { expectedRevision: 'no_stream' }),
      store.append('g-existing', event(), { expectedRevision: 'no_stream' }), // conflict
      store.append('g-b', event(), { expectedRevision: 'no_stream' }),
      store.append('g-retry', event(retried), { expectedRevision: 'no_stream' }), // same append again
      store.append('g-existing', event(), { expectedRevision: 0n }), // same stream, next group
      store.append('g-c', event(), { expectedRevision: 5n }), // conflict
      store.append('g-any', event(), { expectedRevision: 'any' }),
      store.append('g-any', event(), { expectedRevision: 'any' }),
    ]);
    const status = outcomes.map((outcome) => outcome.status);
    expect(status).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason.name).toBe('WrongExpectedRevisionError');
    expect((outcomes[5] as PromiseRejectedResult).reason.name).toBe('WrongExpectedRevisionError');
    expect((outcomes[3] as PromiseFulfilledResult<unknown>).value).toEqual(first);
    expect((outcomes[4] as PromiseFulfilledResult<{ nextExpectedRevision: bigint }>).value.nextExpectedRevision).toBe(
      1n,
    );
    expect((await store.readStream('g-any')).map((e) => e.revision)).toEqual([0n, 1n]);
    expect(await store.readStream('g-c')).toEqual([]);
  });

  it('fails only the append the server refuses, not the rest of its group', async () => {
    // The first goes alone; the other two wait for it and go as one group.
    const outcomes = await Promise.allSettled([
      store.append('g-ok-1', event(), { expectedRevision: 'no_stream' }),
      store.append('g-nul', [{ type: 'Tested', data: { text: 'a\u0000b' }, metadata: {} }], {
        expectedRevision: 'no_stream',
      }),
      store.append('g-ok-2', event(), { expectedRevision: 'no_stream' }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.readStream('g-nul')).toEqual([]);
  });

  it('writes a group in one transaction, in submission order', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.append(`g-order-${i}`, event(), { expectedRevision: 'no_stream' })),
    );
    const commits = new Set(results.slice(1).map((result) => result.position.commit));
    expect(commits.size).toBe(1); // the first went alone, the rest waited for it and went together
    const prepares = results.slice(1).map((result) => result.position.prepare);
    expect([...prepares].sort((a, b) => (a < b ? -1 : 1))).toEqual(prepares);
  });
});

describe('PostgreSQL global order', () => {
  let opened: OpenedTestDatabase;
  useTestDatabase((handles) => (opened = handles));

  it('orders by number, not by text, across a change in the number of digits (9 before 10)', async () => {
    const { db, store } = opened;
    await db.raw(`SELECT setval(pg_get_serial_sequence('events', 'global_position'), 8)`);
    const events = Array.from({ length: 4 }, (_, i) => ({
      type: 'Counted',
      data: { i },
      metadata: { occurredAt: `t${i}` },
    }));
    await store.append('ordered-1', events, { expectedRevision: 'no_stream' });
    const all = await readWholeLog(store);
    expect(all.map((e) => e.position.prepare)).toEqual([9n, 10n, 11n, 12n]);
    const typed = await store.readAll({ maxCount: 10, types: ['Counted'], metadataKeys: ['occurredAt', 'absent'] });
    expect(typed.map((e) => [e.data, e.metadata])).toEqual(
      events.map((e) => [e.data, { occurredAt: e.metadata.occurredAt }]),
    );
    expect((await store.readAll({ after: all[1].position, maxCount: 10 })).map((e) => e.position.prepare)).toEqual([
      11n,
      12n,
    ]);
  });
});
