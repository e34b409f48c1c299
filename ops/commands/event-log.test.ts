import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { WrongExpectedRevisionError, comparePositions, type EventStore } from '../../domain/event-store/port';
import { copyEventLog, exportEventLog, importEventLog } from './event-log';
import { openFixture, type Fixture } from '../testing/command-fixtures';

let source: Fixture;
let target: Fixture;
beforeAll(async () => {
  [source, target] = await Promise.all([openFixture(), openFixture()]);
  // Interleaved streams, batches, metadata: order and revisions must survive the trip.
  await source.store.append(
    'user-1',
    [{ type: 'UserRegistered', data: { email: 'a@b.c' }, metadata: { actorId: 'user-1', correlationId: 'c-1' } }],
    { expectedRevision: 'no_stream' },
  );
  await source.store.append(
    'wallet-1',
    [
      { type: 'WalletOpened', data: {} },
      { type: 'WalletCredited', data: { cents: 199 } },
    ],
    { expectedRevision: 'no_stream' },
  );
  await source.store.append('user-1', [{ type: 'UserRenamed', data: { name: 'Ann' } }], { expectedRevision: 0n });
  let last = null;
  for (let i = 0; i < 30; i++)
    last = await source.store.append(`post-${i % 4}`, [{ type: 'PostLiked', data: { i } }], {
      expectedRevision: 'any',
    });
  // Reads see an event once every older transaction on the (shared) server has ended.
  for (
    let head = await source.store.headPosition();
    !head || comparePositions(head, last!.position) < 0;
    head = await source.store.headPosition()
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 30_000);
afterAll(() => Promise.all([source.close(), target.close()]));

/** The readable log, once it holds `count` events (appends become readable when older transactions end). */
async function snapshot(store: EventStore, count = 34) {
  let events = await store.readAll({ maxCount: 10_000 });
  for (let i = 0; i < 200 && events.length < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    events = await store.readAll({ maxCount: 10_000 });
  }
  return events.map((e) => ({
    eventId: e.eventId,
    streamId: e.streamId,
    revision: e.revision,
    type: e.type,
    data: e.data,
    metadata: e.metadata,
  }));
}

async function exported(store: EventStore): Promise<string[]> {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (chunk) => chunks.push(String(chunk)));
  await exportEventLog(store, out);
  out.end();
  return chunks.join('').split('\n').filter(Boolean);
}

async function* linesOf(lines: string[]) {
  yield* lines;
}

it('exports NDJSON and imports it elsewhere with the same ids, order, revisions and metadata; a second import writes nothing', async () => {
  const lines = await exported(source.store);
  expect(lines).toHaveLength(34);
  expect(JSON.parse(lines[0])).toMatchObject({
    streamId: 'user-1',
    revision: '0',
    type: 'UserRegistered',
    metadata: { actorId: 'user-1', correlationId: 'c-1' },
  });

  expect(await importEventLog(target.store, linesOf(lines))).toBe(34);
  expect(await snapshot(target.store)).toEqual(await snapshot(source.store));
  await importEventLog(target.store, linesOf(lines));
  expect(await snapshot(target.store)).toEqual(await snapshot(source.store));
});

it('refuses an import that would renumber a stream, naming the bad line for broken input', async () => {
  const clash = JSON.stringify({
    eventId: randomUUID(),
    streamId: 'user-1',
    revision: '0',
    type: 'UserRegistered',
    data: {},
    metadata: {},
  });
  await expect(importEventLog(target.store, linesOf([clash]))).rejects.toBeInstanceOf(WrongExpectedRevisionError);
  await expect(importEventLog(target.store, linesOf(['{"eventId":']))).rejects.toThrow('line 1: not valid JSON');
  await expect(importEventLog(target.store, linesOf(['', '{"eventId":"x"}']))).rejects.toThrow(
    'line 2: needs eventId, streamId, revision, type and data',
  );
});

it('copies a whole log between stores (the copy-to/from-eventstoredb path) idempotently', async () => {
  const third = await openFixture();
  try {
    expect(await copyEventLog(source.store, third.store)).toBe(34);
    await copyEventLog(source.store, third.store);
    expect(await snapshot(third.store)).toEqual(await snapshot(source.store));
  } finally {
    await third.close();
  }
});
