import { Client } from 'pg';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import { openDatabaseUrl } from '../commands/connect';
import { thousands } from '../commands/format';
import { loadConfig } from '../config';
import { LARGE_PLAN, seedLarge } from '../seed/large';
import { startReactionsAtHead } from '../seed/reactions';

/** The kept benchmark database holding the `large` seed (seeding it takes minutes). */
export const LARGE_DATABASE = 'lively_bench_large';

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

/** Events in the database's log; null when the database or its log does not exist. */
async function loggedEvents(serverUrl: string): Promise<number | null> {
  const exists = await withClient(withDatabase(serverUrl, 'postgres'), (c) =>
    c.query('SELECT 1 FROM pg_database WHERE datname = $1', [LARGE_DATABASE]),
  );
  if (!exists.rowCount) return null;
  return withClient(withDatabase(serverUrl, LARGE_DATABASE), async (c) => {
    const found = await c.query(`SELECT to_regclass('public.events') IS NOT NULL AS present`);
    if (!found.rows[0].present) return null;
    return Number((await c.query('SELECT count(*)::bigint AS n FROM events')).rows[0].n);
  });
}

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
): Promise<{ url: string; events: number; close(): Promise<void> }> {
  const minEvents = options.minEvents ?? LARGE_PLAN.minEvents;
  const server = await openDatabaseUrl(loadConfig(), (line) => console.log(line));
  const url = withDatabase(server.databaseUrl, LARGE_DATABASE);
  const before = await loggedEvents(server.databaseUrl);
  if (options.reseed || before === null || before < minEvents) {
    console.log(
      `  ${LARGE_DATABASE}: ${before === null ? 'missing' : `${thousands(before)} events`}; seeding the large dataset (${thousands(minEvents)}+ events)...`,
    );
    await reseed(server.databaseUrl, url, minEvents);
  }
  const events = (await loggedEvents(server.databaseUrl)) ?? 0;
  console.log(`  ${LARGE_DATABASE}: ${thousands(events)} events (kept for the next run; --reseed makes it again)`);
  return { url, events, close: () => server.stop() };
}
