import type { Knex } from 'knex';
import { useTestDatabase } from '../../ops/testing/use-test-database';
import { bulkInsert } from './bulk-insert';
import { projectionContext } from './projector';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened));

const SCHEMA = 'bulk_insert_test';

beforeEach(async () => {
  await db.raw(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await db.raw(`CREATE SCHEMA ${SCHEMA}`);
  await db.schema.withSchema(SCHEMA).createTable('things', (t) => {
    t.text('id').primary();
    t.text('note').nullable();
    t.jsonb('details').nullable();
    t.boolean('flag').notNullable();
    t.decimal('amount', 18, 8).notNullable();
    t.bigInteger('cents').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
  });
});

const at = new Date('2026-03-04T05:06:07.089Z');
const row = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  note: `note ${id}`,
  details: { id },
  flag: true,
  amount: '1.5',
  cents: 250,
  at,
  ...fields,
});

function insert(rows: Array<Record<string, unknown>>, merge = false, expectNew = false): Promise<boolean> {
  return db.transaction((trx) =>
    bulkInsert(projectionContext(trx, SCHEMA), 'things', rows, { conflict: ['id'], merge, expectNew }),
  );
}

const stored = () => db.withSchema(SCHEMA).table('things').orderBy('id').select('*');

it('stores every value as an insert one by one would, characters COPY escapes included', async () => {
  const awkward = 'tab\there\nnew line\\back\\slash\r\\N';
  await insert([
    row('a', { note: awkward, details: { text: awkward, list: [1, 'two', null] } }),
    row('b', {
      note: null,
      details: 'a JSON string, not JSON text',
      flag: false,
      amount: '-0.00000001',
      cents: '9007199254740993',
    }),
    row('c', { details: null, at: '2026-03-04T05:06:07.089+02:00' }),
  ]);
  expect(await stored()).toEqual([
    {
      id: 'a',
      note: awkward,
      details: { text: awkward, list: [1, 'two', null] },
      flag: true,
      amount: '1.50000000',
      cents: '250',
      at,
    },
    {
      id: 'b',
      note: null,
      details: 'a JSON string, not JSON text',
      flag: false,
      amount: '-0.00000001',
      cents: '9007199254740993',
      at,
    },
    {
      id: 'c',
      note: 'note c',
      details: null,
      flag: true,
      amount: '1.50000000',
      cents: '250',
      at: new Date('2026-03-04T03:06:07.089Z'),
    },
  ]);
});

it('keeps the first of two rows with one key, in one call and across calls (a replayed batch), and tells whether all were new', async () => {
  expect(await insert([row('a', { note: 'first' }), row('b'), row('a', { note: 'second' })])).toBe(true);
  expect(await insert([row('c'), row('b', { note: 'replayed' })])).toBe(false);
  expect((await stored()).map((r) => [r.id, r.note])).toEqual([
    ['a', 'first'],
    ['b', 'note b'],
    ['c', 'note c'],
  ]);
});

it.each([
  ['', false],
  [' (new keys expected: COPY first, then the upsert)', true],
])('with merge%s, overwrites the stored rows and inserts the new ones', async (_, expectNew) => {
  await insert([row('a'), row('b')]);
  await insert([row('d', { note: 'new' })], true, expectNew);
  await insert([row('b', { note: 'updated', details: ['x'] }), row('c')], true, expectNew);
  expect((await stored()).map((r) => [r.id, r.note, r.details])).toEqual([
    ['a', 'note a', { id: 'a' }],
    ['b', 'updated', ['x']],
    ['c', 'note c', { id: 'c' }],
    ['d', 'new', { id: 'd' }],
  ]);
});

it('a value its column refuses fails the call, and the transaction with it', async () => {
  await expect(
    db.transaction(async (trx) => {
      await bulkInsert(projectionContext(trx, SCHEMA), 'things', [row('a')], { conflict: ['id'] });
      await bulkInsert(projectionContext(trx, SCHEMA), 'things', [row('b', { cents: 'not a number' })], {
        conflict: ['id'],
      });
    }),
  ).rejects.toThrow(/invalid input syntax for type bigint/);
  expect(await stored()).toEqual([]);
});

it('keeps the first of two rows with one composite key, and tells keys apart that only join alike', async () => {
  await db.schema.withSchema(SCHEMA).createTable('pairs', (t) => {
    t.text('a').notNullable();
    t.integer('b').notNullable();
    t.text('note').notNullable();
    t.primary(['a', 'b']);
  });
  const pairs = [
    { a: 'x', b: 1, note: 'first' },
    { a: 'x1', b: 1, note: 'other key' },
    { a: 'x', b: 11, note: 'another key' },
    { a: 'x', b: 1, note: 'second' },
  ];
  expect(
    await db.transaction((trx) => bulkInsert(projectionContext(trx, SCHEMA), 'pairs', pairs, { conflict: ['a', 'b'] })),
  ).toBe(true);
  expect(await db.withSchema(SCHEMA).table('pairs').orderBy(['a', 'b']).select('a', 'b', 'note')).toEqual([
    { a: 'x', b: 1, note: 'first' },
    { a: 'x', b: 11, note: 'another key' },
    { a: 'x1', b: 1, note: 'other key' },
  ]);
});
