import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import type { EventStore, NewEvent } from '../../domain/event-store/port';
import { parseArgs } from '../commands/command';
import { benchDatabase } from './_database';
import { sealedStore } from './_sealed';

/**
 * Event store benchmark. Append: W concurrent writers doing single-event appends with an exact
 * expected revision, each over its own set of streams, beside a baseline of plain single-row
 * INSERT transactions into a bare table by as many writers on the same database in the same
 * run. Read: the whole log paged with readAll, and a subscribeToAll catch-up.
 *
 * Then personal data sealed (issue 23): the same appends of an event with personal data
 * (`MessageSent`: sender, receiver, text), plain and through a PrivateEventStore whose key store
 * is in the same database, interleaved plain, sealed, sealed, plain; sealed >= 80% of plain.
 * The benchmark's own `BenchmarkRecorded` events carry no personal data, so both of these runs
 * append messages, and the figures above are measured before them, as they always were.
 */
const TARGETS = { appendPerSecond: 5000, ratioToBaseline: 0.5, readPerSecond: 50_000, sealedToPlain: 0.8 };
/** Members sending and receiving the sealed run's messages; their keys are made beforehand, as at registration. */
const MEMBERS = 1000;

const payload = (writer: number, i: number) => ({
  writer,
  i,
  amountCents: 1999,
  note: 'benchmark event with a realistic small payload',
});
const metadata = () => ({
  correlationId: randomUUID(),
  actorId: 'user-bench',
  requestId: randomUUID(),
  clientId: null,
  occurredAt: new Date().toISOString(),
});

async function timed(work: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function baselineInserts(pool: Pool, writers: number, perWriter: number): Promise<number> {
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, stream_id text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL)',
  );
  const seconds = await timed(async () => {
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          await pool.query('INSERT INTO bench_baseline (stream_id, data, metadata) VALUES ($1, $2, $3)', [
            `bench-${w}`,
            payload(w, i),
            metadata(),
          ]);
        }
      }),
    );
  });
  return (writers * perWriter) / seconds;
}

const benchmarkEvent = (w: number, i: number): NewEvent => ({
  type: 'BenchmarkRecorded',
  data: payload(w, i),
  metadata: metadata(),
});

/** A direct message as the messaging decider records it (domain/messaging/events.ts). */
const messageEvent =
  (members: readonly string[]) =>
  (w: number, i: number): NewEvent => {
    const sender = (w * 131 + i) % members.length;
    return {
      type: 'MessageSent',
      data: {
        messageId: randomUUID(),
        senderId: members[sender],
        receiverId: members[(sender + 1 + (i % 97)) % members.length],
        content: `hey, loved your last post! are you around tonight? (${i})`,
        mediaUrl: null,
        priceCents: i % 5 === 0 ? 499 : null,
        sentAt: new Date().toISOString(),
      },
      metadata: metadata(),
    };
  };

async function eventStoreAppends(
  store: EventStore,
  writers: number,
  perWriter: number,
  streamsPerWriter: number,
  run: string,
  event: (writer: number, i: number) => NewEvent = benchmarkEvent,
): Promise<number> {
  const seconds = await timed(async () => {
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const revisions = new Array<bigint | null>(streamsPerWriter).fill(null);
        for (let i = 0; i < perWriter; i++) {
          const s = i % streamsPerWriter;
          const revision = revisions[s];
          const result = await store.append(`bench${run}-${w}-${s}`, [event(w, i)], {
            expectedRevision: revision === null ? 'no_stream' : revision,
          });
          revisions[s] = result.nextExpectedRevision;
        }
      }),
    );
  });
  return (writers * perWriter) / seconds;
}

async function readAllRate(store: PostgresEventStore, batch: number): Promise<{ events: number; perSecond: number }> {
  let events = 0;
  const seconds = await timed(async () => {
    let after = null;
    for (;;) {
      const page = await store.readAll({ after, maxCount: batch });
      events += page.length;
      if (page.length < batch) break;
      after = page[page.length - 1].position;
    }
  });
  return { events, perSecond: events / seconds };
}

async function catchUpRate(store: PostgresEventStore, total: number): Promise<number> {
  const subscription = store.subscribeToAll();
  let seen = 0;
  const seconds = await timed(async () => {
    for await (const _event of subscription) {
      if (++seen >= total) break;
    }
  });
  await subscription.close();
  return seen / seconds;
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const verdict = (ok: boolean) => (ok ? 'ok' : 'BELOW TARGET');

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const writers = Number(options.writers ?? 16);
  const perWriter = Number(options['per-writer'] ?? 2000);
  const streams = Number(options.streams ?? 25);
  const database = await benchDatabase('lively_bench');
  const pool = new Pool({ connectionString: database.url, max: writers });
  const commits = options.commits === undefined ? undefined : Number(options.commits);
  const store = new PostgresEventStore({
    connectionString: database.url,
    poolSize: writers,
    maxConcurrentCommits: commits,
  });
  try {
    await store.migrate();
    console.log(
      `event store benchmark: ${writers} writers x ${fmt(perWriter)} single-event appends (expected revision), ${streams} streams per writer`,
    );
    // Warm-up: connections, plans, the first pages of both tables.
    await baselineInserts(pool, writers, 100);
    await eventStoreAppends(store, writers, 100, streams, 'warm');

    const baseline = await baselineInserts(pool, writers, perWriter);
    const append = await eventStoreAppends(store, writers, perWriter, streams, 'run');
    const ratio = append / baseline;
    const total = Number((await pool.query('SELECT count(*)::bigint AS n FROM events')).rows[0].n);
    const read = await readAllRate(store, 1000);
    const catchUp = await catchUpRate(store, total);

    console.log('');
    console.log(`baseline INSERT transactions   ${fmt(baseline).padStart(9)} rows/s`);
    console.log(
      `event store append             ${fmt(append).padStart(9)} events/s   target >= ${fmt(TARGETS.appendPerSecond)}: ${verdict(append >= TARGETS.appendPerSecond)}`,
    );
    console.log(
      `append / baseline              ${ratio.toFixed(2).padStart(9)}            target >= ${TARGETS.ratioToBaseline}: ${verdict(ratio >= TARGETS.ratioToBaseline)}`,
    );
    console.log(
      `read-all (pages of 1,000)      ${fmt(read.perSecond).padStart(9)} events/s   target >= ${fmt(TARGETS.readPerSecond)}: ${verdict(read.perSecond >= TARGETS.readPerSecond)}  (${fmt(read.events)} events)`,
    );
    console.log(
      `subscribeToAll catch-up        ${fmt(catchUp).padStart(9)} events/s   target >= ${fmt(TARGETS.readPerSecond)}: ${verdict(catchUp >= TARGETS.readPerSecond)}`,
    );

    // Personal data sealed (issue 23): the same appends, plain and through a PrivateEventStore.
    const sealed = await sealedStore(store, database.url);
    try {
      const members = Array.from({ length: MEMBERS }, () => randomUUID());
      await sealed.keys.keysFor(members);
      const messages = messageEvent(members);
      await eventStoreAppends(store, writers, 100, streams, 'warmplain', messages);
      await eventStoreAppends(sealed.store, writers, 100, streams, 'warmsealed', messages);
      const plainRuns = [await eventStoreAppends(store, writers, perWriter, streams, 'plain1', messages)];
      const sealedRuns = [await eventStoreAppends(sealed.store, writers, perWriter, streams, 'sealed1', messages)];
      sealedRuns.push(await eventStoreAppends(sealed.store, writers, perWriter, streams, 'sealed2', messages));
      plainRuns.push(await eventStoreAppends(store, writers, perWriter, streams, 'plain2', messages));
      // Same events in each run: the rate of both together is events over their total time.
      const both = (rates: number[]) => rates.length / rates.reduce((sum, rate) => sum + 1 / rate, 0);
      const plainRate = both(plainRuns);
      const sealedRate = both(sealedRuns);
      const share = sealedRate / plainRate;
      console.log('');
      console.log(
        `personal data sealed (issue 23): both runs append MessageSent (senderId, receiverId, content; content and mediaUrl sealed with the sender's key) instead of BenchmarkRecorded, which has no personal data; same writers, streams and expected revisions; ${fmt(MEMBERS)} members keyed beforehand; two runs each, in the order plain, sealed, sealed, plain`,
      );
      console.log(
        `append MessageSent, plain      ${fmt(plainRate).padStart(9)} events/s   (${plainRuns.map(fmt).join(' / ')})`,
      );
      console.log(
        `append MessageSent, sealed     ${fmt(sealedRate).padStart(9)} events/s   (${sealedRuns.map(fmt).join(' / ')})`,
      );
      console.log(
        `sealed / plain                 ${`${(share * 100).toFixed(1)}%`.padStart(9)}            target >= ${TARGETS.sealedToPlain * 100}%: ${share >= TARGETS.sealedToPlain ? 'PASS' : 'FAIL'}`,
      );
    } finally {
      await sealed.close();
    }
  } finally {
    await store.close();
    await pool.end();
    await database.drop();
  }
}
