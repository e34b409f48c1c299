import type { Knex } from 'knex';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { createTestDatabase, type TestDatabase } from '../../ops/testing/test-database';
import { openReadDatabase } from './database';
import { migrateToLatest } from '../migrations';
import type { Projector } from './projector';
import { rebuildProjection, type RebuildProgress } from './rebuild';
import { waitForProjections } from './read-your-writes';
import { replayTwice } from './testing/replay-twice';
import { ProjectionRunner } from './runner';
import { readWholeLog } from '../../ops/testing/read-whole-log';

/** A small read model for the runner's own tests: how many times each counter was bumped. */
function counterProjector(version = 1): Projector {
  return {
    name: 'counters',
    version,
    tables: ['counters'],
    eventTypes: ['Bumped', 'Reset'],
    async createTables(db, schema) {
      await db.schema.withSchema(schema).createTable('counters', (t) => {
        t.text('id').primary();
        t.integer('count').notNullable();
        t.text('last_event_id').notNullable();
      });
    },
    async apply({ table }, event) {
      const id = event.streamId;
      const existing = await table('counters').where({ id }).first();
      if (existing?.last_event_id === event.eventId) return; // already applied
      if (event.type === 'Reset')
        await table('counters').where({ id }).update({ count: 0, last_event_id: event.eventId });
      else if (existing)
        await table('counters')
          .where({ id })
          .update({ count: existing.count + 1, last_event_id: event.eventId });
      else await table('counters').insert({ id, count: 1, last_event_id: event.eventId });
    },
  };
}

let database: TestDatabase;
let store: PostgresEventStore;
let db: Knex;

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore({ connectionString: database.url });
  await store.migrate();
  db = openReadDatabase(database.url);
  await migrateToLatest(db);
});

afterAll(async () => {
  await db.destroy();
  await store.close();
  await database.drop();
});

const bump = (id: string, times = 1) =>
  store.append(
    `counter-${id}`,
    Array.from({ length: times }, () => ({ type: 'Bumped', data: {} })),
    { expectedRevision: 'any' },
  );

it('catches up, goes live, and lets a read wait for its own write', async () => {
  await bump('a', 3);
  const runner = new ProjectionRunner(store, db, [counterProjector()], { databaseUrl: database.url });
  await runner.start();
  try {
    const written = await bump('a', 2);
    expect(await waitForProjections(db, ['counters'], written.position, 5000)).toBe(true);
    expect(await db('counters').where({ id: 'counter-a' }).first()).toMatchObject({ count: 5 });
    const checkpoint = await db('projection_checkpoints').where({ name: 'counters' }).first();
    expect(BigInt(checkpoint.prepare_position)).toBe(written.position.prepare);
  } finally {
    await runner.stop();
  }
});

it('gives each projection one active runner, and hands it over when that runner stops', async () => {
  const first = new ProjectionRunner(store, db, [counterProjector()], { databaseUrl: database.url, lockRetryMs: 100 });
  const second = new ProjectionRunner(store, db, [counterProjector()], { databaseUrl: database.url, lockRetryMs: 100 });
  await first.start();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await second.start();
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(first.ownedProjections()).toEqual(['counters']);
    expect(second.ownedProjections()).toEqual([]);
    await first.stop();
    const written = await bump('b', 4);
    expect(await waitForProjections(db, ['counters'], written.position, 5000)).toBe(true);
    expect(second.ownedProjections()).toEqual(['counters']);
    expect(await db('counters').where({ id: 'counter-b' }).first()).toMatchObject({ count: 4 });
  } finally {
    await first.stop();
    await second.stop();
  }
});

it('rebuilds blue/green: the live table answers throughout and the result equals a fresh build', async () => {
  const seeded = await bump('c', 500);
  const runner = new ProjectionRunner(store, db, [counterProjector()], { databaseUrl: database.url });
  await runner.start();
  try {
    // Asserted: a timed-out wait under load would compare against a partial table. The wait is
    // for this test's own append: the readable head follows the whole server's open
    // transactions, and can lag behind it while other test files write.
    expect(await waitForProjections(db, ['counters'], seeded.position, 15_000)).toBe(true);
    const before = await db('counters').orderBy('id').select('id', 'count');
    const progress: RebuildProgress[] = [];
    let readsDuringRebuild = 0;
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const rows = await db('counters').select('id');
        expect(rows.length).toBeGreaterThan(0);
        readsDuringRebuild++;
      }
    })();
    const rebuilt = rebuildProjection(store, db, counterProjector(), (p) => progress.push(p));
    const during = bump('d', 3); // written while the rebuild runs: must land exactly once
    await rebuilt;
    reading = false;
    await reader;
    const written = await during;
    expect(await waitForProjections(db, ['counters'], written.position, 15_000)).toBe(true);
    const after = await db('counters').orderBy('id').select('id', 'count');
    expect(after).toEqual([...before, { id: 'counter-d', count: 3 }]);
    expect(readsDuringRebuild).toBeGreaterThan(0);
    expect(progress.at(-1)?.phase).toBe('done');
    expect(progress.some((p) => p.eventsPerSecond > 0)).toBe(true);
    const leftovers = await db.raw(
      `SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rebuild_%' OR nspname LIKE 'retired_%'`,
    );
    expect(leftovers.rows).toEqual([]);
  } finally {
    await runner.stop();
  }
});

it('rebuilds on start when the projector version changes', async () => {
  const runner = new ProjectionRunner(store, db, [counterProjector(2)], { databaseUrl: database.url });
  await runner.start();
  try {
    const written = await bump('e');
    expect(await waitForProjections(db, ['counters'], written.position, 10_000)).toBe(true);
    const checkpoint = await db('projection_checkpoints').where({ name: 'counters' }).first();
    expect(checkpoint.version).toBe(2);
    expect(await db('counters').where({ id: 'counter-e' }).first()).toMatchObject({ count: 1 });
  } finally {
    await runner.stop();
  }
});

it('is idempotent when every event is replayed twice', async () => {
  await store.append(
    'counter-f',
    [
      { type: 'Bumped', data: {} },
      { type: 'Reset', data: {} },
      { type: 'Bumped', data: {} },
    ],
    { expectedRevision: 'any' },
  );
  const events = await readWholeLog(store);
  const { once, twice } = await replayTwice(db, counterProjector(), events);
  expect(twice).toEqual(once);
});

it('has made every read model table once start() resolves, so no request meets a missing table', async () => {
  const slowTables: Projector = {
    ...counterProjector(),
    name: 'slow_counters',
    tables: ['slow_counters'],
    async createTables(trx, schema) {
      await new Promise((resolve) => setTimeout(resolve, 300)); // a table that takes a moment to make
      await trx.schema.withSchema(schema).createTable('slow_counters', (t) => t.text('id').primary());
    },
  };
  const runner = new ProjectionRunner(store, db, [slowTables], { databaseUrl: database.url });
  await runner.start();
  try {
    expect(await db.schema.hasTable('slow_counters')).toBe(true);
  } finally {
    await runner.stop();
  }
});
