import { Client } from 'pg';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import { openDatabaseUrl } from '../commands/connect';
import { thousands } from '../commands/format';
import { migratePersonalData } from '../commands/migrate-pii';
import { loadConfig } from '../config';
import { LARGE_PLAN, seedLarge } from '../seed/large';
import { startReactionsAtHead } from '../seed/reactions';
import { sealedStore } from './_sealed';

/** The kept benchmark database holding the `large` seed (seeding it takes minutes). */
export const LARGE_DATABASE = 'lively_bench_large';
/** Its kept copy with personal data sealed (issue 23), remade when the large seed changes. */
export const SEALED_DATABASE = 'lively_bench_large_sealed';

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const withDatabase = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

interface LogHead {
  events: number;
  /** The id of the log's last event in global order (null for an empty log). */
  lastEventId: string | null;
}

/** Events in the database's log and its last; null when the database or its log does not exist. */
async function logHead(serverUrl: string, name: string): Promise<LogHead | null> {
  const exists = await withClient(withDatabase(serverUrl, 'postgres'), (c) =>
    c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  if (!exists.rowCount) return null;
  return withClient(withDatabase(serverUrl, name), async (c) => {
    const found = await c.query(`SELECT to_regclass('public.events') IS NOT NULL AS present`);
    if (!found.rows[0].present) return null;
    const events = Number((await c.query('SELECT count(*)::bigint AS n FROM events')).rows[0].n);
    const last = await c.query<{ event_id: string }>(
      'SELECT event_id::text FROM events ORDER BY transaction_id DESC, global_position DESC LIMIT 1',
    );
    return { events, lastEventId: last.rows[0]?.event_id ?? null };
  });
}

/** Events in the large seed's log; null when the database or its log does not exist. */
const loggedEvents = async (serverUrl: string) => (await logHead(serverUrl, LARGE_DATABASE))?.events ?? null;

/** Drops and recreates the database, then appends the large seed through the domain's commands. */
async function reseed(serverUrl: string, url: string, minEvents: number): Promise<void> {
  await withClient(withDatabase(serverUrl, 'postgres'), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${LARGE_DATABASE} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${LARGE_DATABASE}`);
  });
  const store = new PostgresEventStore({ connectionString: url, poolSize: LARGE_PLAN.parallel + 4 });
  await store.migrate();
  const db = openReadDatabase(url, 2);
  await migrateToLatest(db);
  try {
    const report = await seedLarge({ store, db }, { ...LARGE_PLAN, minEvents }, (line) =>
      process.stdout.write(`\r  ${line}   `),
    );
    console.log(
      `\n  seeded ${thousands(report.events)} events in ${report.seconds.toFixed(0)} s (${thousands(report.events / report.seconds)} events/s), ${report.failures.count} failed steps`,
    );
    if (report.failures.count) console.log(`  first failures: ${report.failures.first.slice(0, 3).join(' | ')}`);
    await startReactionsAtHead(store, db);
  } finally {
    await db.destroy();
    await store.close();
  }
}

/**
 * The database with the 1,000,000-event large seed on the server the product uses (DATABASE_URL,
 * or the embedded PostgreSQL). Kept between runs; seeded again when missing, short of
 * `minEvents`, or when asked (`--reseed`).
 */
export async function largeSeedDatabase(
  options: { reseed?: boolean; minEvents?: number } = {},
): Promise<{ url: string; serverUrl: string; events: number; reseeded: boolean; close(): Promise<void> }> {
  const minEvents = options.minEvents ?? LARGE_PLAN.minEvents;
  const server = await openDatabaseUrl(loadConfig(), (line) => console.log(line));
  const url = withDatabase(server.databaseUrl, LARGE_DATABASE);
  const before = await loggedEvents(server.databaseUrl);
  const reseeded = options.reseed === true || before === null || before < minEvents;
  if (reseeded) {
    console.log(
      `  ${LARGE_DATABASE}: ${before === null ? 'missing' : `${thousands(before)} events`}; seeding the large dataset (${thousands(minEvents)}+ events)...`,
    );
    await reseed(server.databaseUrl, url, minEvents);
  }
  const events = (await loggedEvents(server.databaseUrl)) ?? 0;
  console.log(`  ${LARGE_DATABASE}: ${thousands(events)} events (kept for the next run; --reseed makes it again)`);
  return { url, serverUrl: server.databaseUrl, events, reseeded, close: () => server.stop() };
}

/** What the copy records of itself: its source and, once done, the migration's figures. */
const MARKER_SQL = `CREATE TABLE IF NOT EXISTS bench_sealed_copy (
  source_events bigint NOT NULL,
  source_last_event_id uuid,
  copied_at timestamptz NOT NULL DEFAULT now(),
  scanned bigint,
  sealed bigint,
  seconds double precision,
  migrated_at timestamptz
)`;

interface Marker {
  source_events: string;
  source_last_event_id: string | null;
  scanned: string | null;
  sealed: string | null;
  seconds: number | null;
  migrated_at: Date | null;
}

async function readMarker(url: string): Promise<Marker | null> {
  return withClient(url, async (c) => {
    const found = await c.query(`SELECT to_regclass('public.bench_sealed_copy') IS NOT NULL AS present`);
    if (!found.rows[0].present) return null;
    return (await c.query<Marker>('SELECT * FROM bench_sealed_copy LIMIT 1')).rows[0] ?? null;
  });
}

/**
 * Copies the large seed's database file by file. PostgreSQL refuses while anyone is connected
 * to the template (it waits 5 s first): then the connections to it are ended and it tries again.
 */
async function copyLargeDatabase(serverUrl: string, source: LogHead): Promise<void> {
  await withClient(withDatabase(serverUrl, 'postgres'), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${SEALED_DATABASE} WITH (FORCE)`);
    const create = () => c.query(`CREATE DATABASE ${SEALED_DATABASE} TEMPLATE ${LARGE_DATABASE} STRATEGY FILE_COPY`);
    try {
      await create();
    } catch (error) {
      if ((error as { code?: string }).code !== '55006') throw error;
      const ended = await c.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [LARGE_DATABASE],
      );
      console.log(`  ${LARGE_DATABASE} was in use: ended ${ended.rowCount} connection(s) to copy it`);
      await create();
    }
  });
  await withClient(withDatabase(serverUrl, SEALED_DATABASE), async (c) => {
    await c.query(MARKER_SQL);
    await c.query('INSERT INTO bench_sealed_copy (source_events, source_last_event_id) VALUES ($1, $2)', [
      source.events,
      source.lastEventId,
    ]);
  });
}

/**
 * `migratePersonalData` over the copy through a PrivateEventStore keyed with the bench-only
 * master key, then the events table rewritten in log order (CLUSTER) and vacuumed: the in-place
 * update leaves every sealed row at the end of the heap and its old version dead, and the
 * comparison is of a sealed log with the plain one it was copied from, not of a fresh table
 * with a rewritten one.
 */
async function sealCopy(url: string, resumed: boolean): Promise<void> {
  const log = new PostgresEventStore({ connectionString: url, poolSize: 4 });
  const sealed = await sealedStore(log, url);
  const started = process.hrtime.bigint();
  const report = await migratePersonalData(sealed.store, {
    progress: ({ scanned, sealed: done }) =>
      void (
        process.stdout.isTTY &&
        process.stdout.write(
          `\r  sealing: ${thousands(scanned)} events with personal data read, ${thousands(done)} sealed   `,
        )
      ),
  }).finally(async () => {
    await sealed.close();
    await log.close();
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (process.stdout.isTTY) process.stdout.write('\n');
  console.log(
    `  migrate-pii on ${SEALED_DATABASE}${resumed ? ' (resumed)' : ''}: sealed ${thousands(report.sealed)} of ${thousands(report.scanned)} events with personal data in ${seconds.toFixed(1)} s = ${thousands(report.sealed / seconds)} events/s`,
  );
  const clustered = process.hrtime.bigint();
  await withClient(url, async (c) => {
    await c.query('CLUSTER events USING events_global_order');
    await c.query('VACUUM (ANALYZE) events');
    await c.query('ANALYZE personal_data_keys');
    await c.query('UPDATE bench_sealed_copy SET scanned = $1, sealed = $2, seconds = $3, migrated_at = now()', [
      report.scanned,
      report.sealed,
      seconds,
    ]);
  });
  console.log(
    `  events rewritten in log order (CLUSTER) and vacuumed in ${(Number(process.hrtime.bigint() - clustered) / 1e9).toFixed(1)} s`,
  );
}

/**
 * The large seed with its personal data sealed (issue 23): `lively_bench_large_sealed`, a copy of
 * `lively_bench_large` migrated by `migratePersonalData`, its keys in its own
 * `personal_data_keys` sealed with BENCH_PERSONAL_DATA_KEY. Kept between runs; made again when
 * the large seed was (re)made or its log is not the copy's (count or last event), and the
 * migration resumed when a run stopped during it.
 */
export async function sealedLargeSeedDatabase(large: {
  serverUrl: string;
  reseeded: boolean;
}): Promise<{ url: string; events: number }> {
  const url = withDatabase(large.serverUrl, SEALED_DATABASE);
  const source = await logHead(large.serverUrl, LARGE_DATABASE);
  if (!source) throw new Error(`${LARGE_DATABASE} has no log to copy`);
  const copy = await logHead(large.serverUrl, SEALED_DATABASE);
  const marker = copy ? await readMarker(url) : null;
  const stale = large.reseeded
    ? `${LARGE_DATABASE} was seeded in this run`
    : !copy
      ? 'missing'
      : copy.events !== source.events || copy.lastEventId !== source.lastEventId
        ? `${thousands(copy.events)} events, not the ${thousands(source.events)} of ${LARGE_DATABASE}`
        : !marker
          ? 'not made by this benchmark'
          : null;
  if (stale) {
    console.log(`  ${SEALED_DATABASE}: ${stale}; copying ${LARGE_DATABASE} and sealing its personal data...`);
    const started = process.hrtime.bigint();
    await copyLargeDatabase(large.serverUrl, source);
    console.log(
      `  copied ${LARGE_DATABASE} in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s (CREATE DATABASE ... TEMPLATE)`,
    );
    await sealCopy(url, false);
  } else if (!marker!.migrated_at) {
    await sealCopy(url, true);
  } else {
    const sealed = Number(marker!.sealed);
    console.log(
      `  ${SEALED_DATABASE}: ${thousands(copy!.events)} events, kept (sealed on ${marker!.migrated_at.toISOString().slice(0, 10)}: ${thousands(sealed)} of ${thousands(Number(marker!.scanned))} events with personal data in ${marker!.seconds!.toFixed(1)} s = ${thousands(sealed / marker!.seconds!)} events/s)`,
    );
  }
  return { url, events: (await logHead(large.serverUrl, SEALED_DATABASE))?.events ?? 0 };
}
