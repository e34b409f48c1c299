import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import type { EventStore, Position } from '../../domain/event-store/port';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import type { Projector } from '../../projections/engine/projector';
import { allProjectors } from '../../projections/engine/registry';
import { parseArgs } from '../commands/command';
import { rebuildAll } from '../commands/rebuild';
import { largeSeedDatabase } from './_large-seed';

/**
 * Rebuild benchmark: every read model rebuilt blue/green (as `npm run ops -- rebuild all`)
 * from the 1,000,000-event large seed, beside the raw read-all rate of the same log measured
 * in the same run: no rebuild can read the log faster than that.
 */
const TARGET = 20_000;
const BATCH = 5000;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Reads the whole log once, in the batches a rebuild reads, and does nothing with it. */
async function readAllRate(store: EventStore): Promise<{ events: number; seconds: number }> {
  const started = process.hrtime.bigint();
  let after: Position | null = null;
  let events = 0;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: BATCH });
    events += batch.length;
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1].position;
  }
  return { events, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** The projectors, each timing its own applies (they run side by side, so times overlap). */
function timed(projectors: Projector[]) {
  const spent = new Map<string, number>();
  const add = (name: string, started: number) => spent.set(name, (spent.get(name) ?? 0) + performance.now() - started);
  const wrapped = projectors.map((p): Projector => ({
    ...p,
    async apply(context, event) {
      const started = performance.now();
      await p.apply(context, event);
      add(p.name, started);
    },
    applyAll: p.applyAll
      ? async (context, events) => {
          const started = performance.now();
          await p.applyAll!(context, events);
          add(p.name, started);
        }
      : undefined,
  }));
  const slowest = () =>
    [...spent]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(
        ([name, ms]) =>
          `${name} ${(ms / 1000).toFixed(1)} s${projectors.find((p) => p.name === name)?.applyAll ? ' (batched)' : ''}`,
      );
  return { wrapped, slowest };
}

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const database = await largeSeedDatabase({
    reseed: options.reseed === true,
    minEvents: options['min-events'] ? Number(options['min-events']) : undefined,
  });
  const store = new PostgresEventStore({ connectionString: database.url, poolSize: 6 });
  const db = openReadDatabase(database.url, 6);
  try {
    await migrateToLatest(db);
    const raw = await readAllRate(store);
    const rawRate = raw.events / raw.seconds;
    console.log(
      `  raw read-all: ${fmt(raw.events)} events in ${raw.seconds.toFixed(1)} s = ${fmt(rawRate)} events/s (the limit)`,
    );
    const projectors = timed(allProjectors);
    const result = await rebuildAll({ store, db }, projectors.wrapped, (line) => console.log(`  ${line}`));
    console.log(`  time in apply per read model (side by side): ${projectors.slowest().join(', ')}`);
    const { building, indexing, switching } = result.phases;
    console.log(
      `  phases: building the copies ${building.toFixed(1)} s, their deferred indexes ${indexing.toFixed(1)} s, switching ${switching.toFixed(1)} s`,
    );
    const rate = raw.events / result.seconds;
    console.log('');
    console.log(`raw read-all of the log (the limit)        ${fmt(rawRate).padStart(9)} events/s`);
    console.log(
      `rebuild of all ${allProjectors.length} read models              ${fmt(rate).padStart(9)} events/s   (${fmt(raw.events)} events in ${result.seconds.toFixed(1)} s, ${((rate / rawRate) * 100).toFixed(1)}% of the limit)`,
    );
    console.log(
      `\nrebuild ${fmt(rate)} events/s, target >= ${fmt(TARGET)}: ${rate >= TARGET ? 'PASS' : 'FAIL'}   ${result.mismatches} mismatch(es); ${result.verified} of ${allProjectors.length} rebuilt read models verified equal to the old tables (the rest had none to compare with)`,
    );
  } finally {
    await db.destroy();
    await store.close();
    await database.close();
  }
}
