/**
 * The event store contract: one suite that every adapter must pass. Streams get a random
 * prefix so the suite also runs against a shared EventStoreDB.
 */
import { randomUUID } from 'node:crypto';
import {
  WrongExpectedRevisionError,
  comparePositions,
  formatPosition,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '../port';

export function describeEventStoreContract(
  name: string,
  open: () => Promise<EventStore>,
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`event store contract: ${name}`, () => {
    let store: EventStore;
    let prefix: string;
    const stream = (id: string) => `${prefix}${id}`;
    const event = (type: string, data: unknown = {}) => ({ type, data });
    const ours = (events: RecordedEvent[]) => events.filter((e) => e.streamId.startsWith(prefix));
    /**
     * Our events in the global log, once `count` of them are readable: an append is readable
     * only when every older transaction on the server has ended, which on a shared server
     * can take a moment.
     */
    const readOurs = async (count: number, after: Position | null = null) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = ours(await store.readAll({ after, maxCount: 100_000 }));
        if (found.length >= count || Date.now() > deadline) return found;
        await store.waitForAppend(50);
      }
    };

    beforeAll(async () => {
      store = await open();
    });
    beforeEach(() => {
      prefix = `t${randomUUID().slice(0, 8)}_`;
    });
    afterAll(async () => {
      await store.close();
      await cleanup();
    });

    it('appends to a new stream and reads it back in order', async () => {
      const result = await store.append(stream('a-1'), [event('Opened', { n: 1 }), event('Renamed', { n: 2 })], {
        expectedRevision: 'no_stream',
      });
      expect(result.nextExpectedRevision).toBe(1n);
      const events = await store.readStream(stream('a-1'));
      expect(events.map((e) => [e.type, e.revision, e.data])).toEqual([
        ['Opened', 0n, { n: 1 }],
        ['Renamed', 1n, { n: 2 }],
      ]);
      expect(comparePositions(events[1].position, result.position)).toBe(0);
    });

    it('reads a stream that does not exist as empty', async () => {
      expect(await store.readStream(stream('missing-1'))).toEqual([]);
    });

    it('keeps metadata and event ids', async () => {
      const eventId = randomUUID();
      await store.append(
        stream('m-1'),
        [{ eventId, type: 'Tagged', data: { tag: 'x' }, metadata: { actorId: 'user-1', correlationId: 'c-1' } }],
        { expectedRevision: 'any' },
      );
      const [stored] = await store.readStream(stream('m-1'));
      expect(stored.eventId).toBe(eventId);
      expect(stored.metadata).toMatchObject({ actorId: 'user-1', correlationId: 'c-1' });
    });

    it('enforces no_stream, stream_exists and exact revisions', async () => {
      const id = stream('r-1');
      await expect(store.append(id, [event('X')], { expectedRevision: 'stream_exists' })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await store.append(id, [event('A')], { expectedRevision: 'no_stream' });
      await expect(store.append(id, [event('B')], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await store.append(id, [event('B')], { expectedRevision: 'stream_exists' });
      await expect(store.append(id, [event('C')], { expectedRevision: 0n })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      const ok = await store.append(id, [event('C')], { expectedRevision: 1n });
      expect(ok.nextExpectedRevision).toBe(2n);
      await store.append(id, [event('D')], { expectedRevision: 'any' });
      expect((await store.readStream(id)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
    });

    it('reports the actual revision on a conflict', async () => {
      const id = stream('r-2');
      await store.append(id, [event('A'), event('B')], { expectedRevision: 'no_stream' });
      const error = await store.append(id, [event('C')], { expectedRevision: 0n }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect((error as WrongExpectedRevisionError).actual).toBe(1n);
    });

    it('treats a repeated append of the same event ids as already done', async () => {
      const id = stream('i-1');
      const batch = [{ eventId: randomUUID(), type: 'Paid', data: { cents: 199 } }];
      const first = await store.append(id, batch, { expectedRevision: 'no_stream' });
      const again = await store.append(id, batch, { expectedRevision: 'no_stream' });
      expect(again.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(await store.readStream(id)).toHaveLength(1);
    });

    it('reads all events after a position in global order', async () => {
      await store.append(stream('g-1'), [event('One')], { expectedRevision: 'no_stream' });
      const middle = await store.append(stream('g-2'), [event('Two')], { expectedRevision: 'no_stream' });
      await store.append(stream('g-1'), [event('Three')], { expectedRevision: 0n });
      const all = await readOurs(3);
      expect(all.map((e) => e.type)).toEqual(['One', 'Two', 'Three']);
      const after = await readOurs(1, middle.position);
      expect(after.map((e) => e.type)).toEqual(['Three']);
      for (let i = 1; i < all.length; i++)
        expect(comparePositions(all[i - 1].position, all[i].position)).toBeLessThan(0);
      expect(formatPosition(all[0].position)).toMatch(/^\d+\/\d+$/);
    });

    it('pages through readAll with maxCount', async () => {
      await store.append(
        stream('p-1'),
        Array.from({ length: 25 }, (_, i) => event('Paged', { i })),
        { expectedRevision: 'no_stream' },
      );
      await readOurs(25);
      const head = await store.readAll({ maxCount: 100_000 });
      const start = head.findIndex((e) => e.streamId === stream('p-1'));
      const seen: number[] = [];
      let after = start > 0 ? head[start - 1].position : null;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 10 });
        if (page.length === 0) break;
        seen.push(...ours(page).map((e) => (e.data as { i: number }).i));
        after = page[page.length - 1].position;
      }
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i));
    });

    it('reads only the asked types in full pages, with at least the asked metadata keys', async () => {
      const typeA = `${prefix}A`;
      const typeB = `${prefix}B`;
      const events = Array.from({ length: 12 }, (_, i) => ({
        type: i % 3 === 0 ? typeA : typeB,
        data: { i },
        metadata: { occurredAt: `2026-01-0${1 + (i % 9)}T00:00:00.000Z`, actorId: 'someone' },
      }));
      await store.append(stream('f-1'), events, { expectedRevision: 'no_stream' });
      await readOurs(12);
      // The types are this test's own, so the whole log can be read.
      const firstPage = await store.readAll({ maxCount: 3, types: [typeA], metadataKeys: ['occurredAt', 'absent'] });
      expect(firstPage.map((e) => (e.data as { i: number }).i)).toEqual([0, 3, 6]);
      expect(firstPage[0].metadata.occurredAt).toBe('2026-01-01T00:00:00.000Z');
      expect('absent' in firstPage[0].metadata).toBe(false);
      const rest = await store.readAll({ after: firstPage[2].position, maxCount: 3, types: [typeA] });
      expect(rest.map((e) => (e.data as { i: number }).i)).toEqual([9]);
      expect(rest[0].metadata.actorId).toBe('someone');
      expect(await store.readAll({ maxCount: 10, types: [] })).toEqual([]);
    });

    it('subscribes: catches up, then receives live events', async () => {
      await store.append(stream('s-1'), [event('Before')], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToAll();
      const received: string[] = [];
      const done = (async () => {
        for await (const e of subscription) {
          if (!e.streamId.startsWith(prefix)) continue;
          received.push(e.type);
          if (e.type === 'Live') break;
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await store.append(stream('s-1'), [event('Live')], { expectedRevision: 0n });
      await done;
      await subscription.close();
      expect(received).toEqual(['Before', 'Live']);
    });

    it('wakes a waiter when events are appended', async () => {
      const started = Date.now();
      const waiting = store.waitForAppend(5000);
      await store.append(stream('w-1'), [event('Ping')], { expectedRevision: 'any' });
      expect(await waiting).toBe(true);
      expect(Date.now() - started).toBeLessThan(4000);
    });

    it('delivers every event exactly once, in read-all order, under 8 concurrent writers', async () => {
      const writers = 8;
      const perWriter = 500;
      const streams = 12;
      const total = writers * perWriter;
      const before = await store.headPosition();
      const subscription = store.subscribeToAll({ after: before });
      const received: RecordedEvent[] = [];
      const collecting = (async () => {
        for await (const e of subscription) {
          if (!e.streamId.startsWith(prefix)) continue;
          received.push(e);
          if (received.length === total) break;
        }
      })();
      // Each writer appends one event at a time with the revision it last saw, re-reading on conflict.
      const revisions = new Map<string, bigint | 'no_stream'>();
      const write = async (writer: number) => {
        for (let i = 0; i < perWriter; i++) {
          const id = stream(`c-${(writer * 7 + i) % streams}`);
          for (let attempt = 0; ; attempt++) {
            const expected = revisions.get(id) ?? 'no_stream';
            try {
              const result = await store.append(id, [event('Written', { writer, i })], { expectedRevision: expected });
              revisions.set(id, result.nextExpectedRevision);
              break;
            } catch (error) {
              if (!(error instanceof WrongExpectedRevisionError) || attempt > 200) throw error;
              revisions.set(id, error.actual);
            }
          }
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, w) => write(w)));
      await collecting;
      await subscription.close();

      const readBack: RecordedEvent[] = [];
      let after = before;
      for (;;) {
        const page = await store.readAll({ after, maxCount: 1000 });
        if (page.length === 0) break;
        readBack.push(...ours(page));
        after = page[page.length - 1].position;
      }
      expect(received).toHaveLength(total);
      expect(new Set(received.map((e) => e.eventId)).size).toBe(total);
      expect(received.map((e) => e.eventId)).toEqual(readBack.map((e) => e.eventId));
      for (let s = 0; s < streams; s++) {
        const revisionsSeen = received.filter((e) => e.streamId === stream(`c-${s}`)).map((e) => e.revision);
        expect(revisionsSeen).toEqual(revisionsSeen.map((_, i) => BigInt(i)));
      }
    }, 120_000);
  });
}
