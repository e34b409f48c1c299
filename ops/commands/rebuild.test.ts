import { comparePositions, type Position } from '../../domain/event-store/port';
import { positionOf, readCheckpoint } from '../../projections/engine/checkpoints';
import type { RebuildProgress } from '../../projections/engine/rebuild';
import { waitForProjections } from '../../projections/engine/read-your-writes';
import { sampleMoneyHistory } from '../../domain/ledger/testing/sample-history';
import { ledgerProjector } from '../../projections/ledger';
import { messagesProjector } from '../../projections/messages';
import type { Projector } from '../../projections/engine/projector';
import { ProjectionRunner } from '../../projections/engine/runner';
import { eventually } from '../testing/eventually';
import { rebuildAll, rebuildAndVerify, selectProjectors } from './rebuild';
import { openFixture, tallyProjector, type Fixture } from '../testing/command-fixtures';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await openFixture();
});
afterAll(() => fixture.close());

// Visibility follows the server-wide snapshot xmin (other databases' transactions too), so tests
// wait for the positions their own appends returned, never for headPosition().
async function project(until: Position, projector = tallyProjector()) {
  const runner = new ProjectionRunner(fixture.store, fixture.db, [projector], { databaseUrl: fixture.database.url });
  await runner.start();
  expect(await waitForProjections(fixture.db, [projector.name], until, 10_000)).toBe(true);
  await runner.stop();
}

it('rebuilds blue/green with progress and verifies the new tables equal the old', async () => {
  let last: Position | null = null;
  for (let i = 0; i < 30; i++)
    last = (
      await fixture.store.append(`tally-${i % 7}`, [{ type: 'Bumped', data: { i } }], { expectedRevision: 'any' })
    ).position;
  await project(last!);
  const progress: RebuildProgress[] = [];
  const report = await rebuildAndVerify(fixture, tallyProjector(), (p) => progress.push(p));
  expect(report.events).toBe(30);
  expect(report.verification).toEqual({ result: 'equal', tables: { tallies: { rows: 7, hash: expect.any(String) } } });
  expect(progress.at(-1)).toMatchObject({ phase: 'done', eventsRead: 30, eventsTotal: 30 });
  expect(progress.some((p) => p.phase === 'building')).toBe(true);
  expect(await fixture.db('tallies').sum('count as total').first()).toEqual({ total: '30' });
});

it('reads only the events it applies, yet leaves the checkpoint past the events it skipped', async () => {
  const before = await fixture.db.raw(`SELECT count(*)::int AS n FROM events WHERE event_type = 'Bumped'`);
  await fixture.store.append('tally-skip', [{ type: 'Bumped', data: {} }], { expectedRevision: 'no_stream' });
  const { position: last } = await fixture.store.append(
    'other-1',
    [
      { type: 'Unrelated', data: {} },
      { type: 'Unrelated', data: {} },
    ],
    { expectedRevision: 'no_stream' },
  );
  await project(last);
  const report = await rebuildAndVerify(fixture, tallyProjector());
  expect(report.events).toBe(before.rows[0].n + 1);
  expect(report.verification.result).toBe('equal');
  const checkpoint = await readCheckpoint(fixture.db, 'tallies');
  expect(comparePositions(positionOf(checkpoint!), last)).toBeGreaterThanOrEqual(0);
});

it('reports a mismatch when the old tables had drifted from the log', async () => {
  await fixture.db('tallies').where({ id: 'tally-3' }).update({ count: 99 });
  const report = await rebuildAndVerify(fixture, tallyProjector());
  expect(report.verification).toMatchObject({ result: 'different', differences: [{ table: 'tallies' }] });
  expect((await fixture.db('tallies').where({ id: 'tally-3' }).first()).count).toBe(4);
});

it('skips the comparison when events for the projection arrived during the rebuild', async () => {
  let late: Promise<unknown> = Promise.resolve();
  const report = await rebuildAndVerify(fixture, tallyProjector(), (p) => {
    if (p.phase === 'building')
      late = fixture.store
        .append('tally-late', [{ type: 'Bumped', data: {} }], { expectedRevision: 'no_stream' })
        .catch(() => undefined);
  });
  await late;
  // The rebuild may or may not have caught the late event before switching; either way no false mismatch.
  expect(report.verification.result).not.toBe('different');
  if (report.verification.result === 'skipped')
    expect(report.verification.reason).toMatch(/arrived during the rebuild/);
});

it('keeps serving during a rebuild while a live runner applies new events', async () => {
  const runner = new ProjectionRunner(fixture.store, fixture.db, [tallyProjector()], {
    databaseUrl: fixture.database.url,
  });
  await runner.start();
  try {
    const writes = (async () => {
      let last: Position | null = null;
      for (let i = 0; i < 20; i++)
        last = (await fixture.store.append('tally-live', [{ type: 'Bumped', data: {} }], { expectedRevision: 'any' }))
          .position;
      return last!;
    })();
    const report = await rebuildAndVerify(fixture, tallyProjector());
    const last = await writes;
    expect(report.verification.result).not.toBe('different');
    expect(await waitForProjections(fixture.db, ['tallies'], last, 10_000)).toBe(true);
    const events = await fixture.db.raw(`SELECT count(*)::int AS n FROM events WHERE event_type = 'Bumped'`);
    expect(await fixture.db('tallies').sum('count as total').first()).toEqual({ total: String(events.rows[0].n) });
  } finally {
    await runner.stop();
  }
});

it('rebuilds several read models in one pass over the log and verifies each', async () => {
  let last: Position | null = null;
  for (let i = 0; i < 12; i++)
    last = (await fixture.store.append(`pair-${i % 3}`, [{ type: 'Bumped', data: { i } }], { expectedRevision: 'any' }))
      .position;
  const pair = [tallyProjector('tally_a'), tallyProjector('tally_b')];
  for (const projector of pair) await project(last!, projector);
  const lines: string[] = [];
  const result = await rebuildAll(fixture, pair, (line) => lines.push(line));
  expect(result.mismatches).toBe(0);
  const events = Number(
    (await fixture.db.raw(`SELECT count(*)::int AS n FROM events WHERE event_type = 'Bumped'`)).rows[0].n,
  );
  expect(result.events).toBe(events); // the log was read once, not once per read model
  expect(lines.filter((line) => /verified: rebuilt tables equal the old ones/.test(line))).toHaveLength(2);
  for (const name of ['tally_a', 'tally_b'])
    expect(await fixture.db(name).sum('count as total').first()).toEqual({ total: String(events) });
});

it('switches a complete copy in while another is still being built', async () => {
  let last: Position | null = null;
  for (let i = 0; i < 6; i++)
    last = (
      await fixture.store.append(`early-${i % 2}`, [{ type: 'Bumped', data: { i } }], { expectedRevision: 'any' })
    ).position;
  const [fast, slow] = [tallyProjector('tally_fast'), tallyProjector('tally_slow')];
  for (const projector of [fast, slow]) await project(last!, projector);
  // The slow copy applies its first event only once the fast copy's checkpoint is gone (taken over).
  let fastWasIn: boolean | undefined;
  const fastCopy = () =>
    fixture
      .db('projection_checkpoints')
      .where({ name: `${fast.name}@rebuild` })
      .first();
  const waitingSlow: Projector = {
    ...slow,
    async apply(context, event) {
      fastWasIn ??= await eventually(fastCopy, (copy) => !copy, 30_000).then(
        () => true,
        () => false,
      );
      await slow.apply(context, event);
    },
  };
  const result = await rebuildAll(fixture, [fast, waitingSlow], () => undefined);
  expect(fastWasIn).toBe(true);
  expect(result.mismatches).toBe(0);
});

it('selects one projection by name, all of them, or refuses an unknown name', () => {
  const list = [tallyProjector('a'), tallyProjector('b')];
  expect(selectProjectors('all', list).map((p) => p.name)).toEqual(['a', 'b']);
  expect(selectProjectors(undefined, list).map((p) => p.name)).toEqual(['a', 'b']);
  expect(selectProjectors('b', list).map((p) => p.name)).toEqual(['b']);
  expect(() => selectProjectors('c', list)).toThrow('No projection named "c". Known: a, b');
});

it.each([
  ['messages', messagesProjector],
  ['the ledger, whose append-only tables are also built without their primary keys,', ledgerProjector],
])(
  'builds a copy of %s without its non-unique indexes and autovacuum, and switches it in with all back',
  async (_, projector) => {
    let position: Position | null = null;
    for (const event of sampleMoneyHistory())
      position = (
        await fixture.store.append(event.streamId, [{ type: event.type, data: event.data }], {
          expectedRevision: 'any',
        })
      ).position;
    await project(position!, projector);
    const shape = async () =>
      (
        await fixture.db.raw(
          `SELECT c.relname, c.reloptions, pg_get_indexdef(x.indexrelid) AS index, x.indisprimary AS primary FROM pg_class c JOIN pg_index x ON x.indrelid = c.oid
          WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY(?) ORDER BY 3`,
          [projector.tables],
        )
      ).rows;
    const before = await shape();
    expect(before.filter((row: { index: string }) => !row.index.startsWith('CREATE UNIQUE')).length).toBeGreaterThan(0);
    expect(before.filter((row: { primary: boolean }) => row.primary)).toHaveLength(projector.tables.length);
    const report = await rebuildAndVerify(fixture, projector);
    expect(report.verification.result).toBe('equal');
    expect(await shape()).toEqual(before);
  },
);
