import { waitForProjections } from '../../projections/engine/read-your-writes';
import { ProjectionRunner } from '../../projections/engine/runner';
import { collectStatus, renderStatus } from './status';
import { openFixture, tallyProjector, type Fixture } from '../testing/command-fixtures';

let fixture: Fixture;
beforeAll(async () => {
  fixture = await openFixture();
});
afterAll(() => fixture.close());

it('reports projections with checkpoint, lag, state and runner; event counts; health', async () => {
  const { store, db, database } = fixture;
  await store.append(
    'tally-a',
    [
      { type: 'Bumped', data: {} },
      { type: 'Bumped', data: {} },
    ],
    { expectedRevision: 'no_stream' },
  );
  await store.append('other-1', [{ type: 'Noted', data: {} }], { expectedRevision: 'no_stream' });

  const before = await collectStatus({ store, db }, ['tallies']);
  expect(before.database.status).toBe('ok');
  expect(before.eventStore).toMatchObject({ kind: 'postgres', status: 'ok', events: 3 });
  expect(before.eventTypes).toEqual([
    { type: 'Bumped', count: 2 },
    { type: 'Noted', count: 1 },
  ]);
  expect(before.projections).toEqual([
    expect.objectContaining({ name: 'tallies', state: 'not started', activeRunner: false }),
  ]);

  const runner = new ProjectionRunner(store, db, [tallyProjector()], { databaseUrl: database.url });
  await runner.start();
  try {
    const written = await store.append('tally-a', [{ type: 'Bumped', data: {} }], { expectedRevision: 1n });
    expect(await waitForProjections(db, ['tallies'], written.position, 10_000)).toBe(true);
    const running = await collectStatus({ store, db }, ['tallies']);
    expect(running.projections).toEqual([
      expect.objectContaining({
        name: 'tallies',
        version: 1,
        lag: 0,
        state: 'caught up',
        activeRunner: true,
        checkpoint: `${written.position.commit}/${written.position.prepare}`,
      }),
    ]);
    expect(renderStatus(running)).toMatch(/tallies\s+1\s+\S+\s+0\s+caught up\s+active/);
  } finally {
    await runner.stop();
  }

  await store.append('tally-b', [{ type: 'Bumped', data: {} }], { expectedRevision: 'no_stream' });
  // The new event becomes readable once every older transaction on the server has ended.
  let stopped = await collectStatus({ store, db }, ['tallies']);
  for (let i = 0; i < 100 && stopped.projections[0].lag === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stopped = await collectStatus({ store, db }, ['tallies']);
  }
  expect(stopped.projections[0]).toMatchObject({ lag: 1, state: 'behind', activeRunner: false });
});
