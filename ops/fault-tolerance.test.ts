import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Knex } from 'knex';
import { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import type { Position } from '../domain/event-store/port';
import { openReadDatabase } from '../projections/engine/database';
import { migrateToLatest } from '../projections/migrations';
import { waitForProjections } from '../projections/engine/read-your-writes';
import { AUDITS } from './testing/fault-tolerance-worker';
import { createTestDatabase, type TestDatabase } from './testing/test-database';

/**
 * Two projector processes against one database: each projection has exactly one active runner;
 * SIGKILL the one holding them and the other takes over within 10 s; no event is applied twice
 * or skipped (the audit projections count applications per event id).
 */
interface Worker {
  child: ChildProcess;
  owned: string[];
  exited: Promise<void>;
}

function startWorker(databaseUrl: string): Worker {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'testing/fault-tolerance-worker.ts')],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const worker: Worker = { child, owned: [], exited: new Promise((resolve) => child.once('exit', () => resolve())) };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      worker.owned = JSON.parse(line).owned;
    } catch {
      // not a status line
    }
  });
  return worker;
}

async function until(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

let database: TestDatabase;
let store: PostgresEventStore;
let db: Knex;
const workers: Worker[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  store = new PostgresEventStore({ connectionString: database.url });
  await store.migrate();
  db = openReadDatabase(database.url);
  await migrateToLatest(db);
});

afterAll(async () => {
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((w) => w.exited));
  await db.destroy();
  await store.close();
  await database.drop();
});

it('hands the projections of a killed projector process to the other within 10 s, applying every event exactly once', async () => {
  let last: Position | null = null;
  let appended = 0;
  const append = async (n: number) => {
    for (let i = 0; i < n; i++) {
      last = (
        await store.append(`audit-${appended % 50}`, [{ type: 'Audited', data: { n: appended } }], {
          expectedRevision: 'any',
        })
      ).position;
      appended++;
    }
  };
  await append(300);

  const first = startWorker(database.url);
  workers.push(first);
  await until(() => first.owned.length === AUDITS.length, 60_000);
  const second = startWorker(database.url);
  workers.push(second);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the second is up and trying
  // Exactly one active runner per projection: the second holds nothing while the first lives.
  expect(first.owned).toEqual(AUDITS);
  expect(second.owned).toEqual([]);

  // Keep writing while the holder dies mid-stream.
  let writing = true;
  const writer = (async () => {
    while (writing) await append(10);
  })();
  await new Promise((resolve) => setTimeout(resolve, 500));
  first.child.kill('SIGKILL');
  await first.exited;
  const takeoverMs = await until(() => second.owned.length === AUDITS.length, 10_000);
  expect(takeoverMs).toBeLessThan(10_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  writing = false;
  await writer;

  expect(await waitForProjections(db, AUDITS, last, 60_000)).toBe(true);
  for (const table of AUDITS) {
    const result = await db.raw(
      `SELECT count(*)::int AS rows, coalesce(max(applications), 0)::int AS most, coalesce(min(applications), 0)::int AS least FROM "${table}"`,
    );
    expect({ table, ...result.rows[0] }).toEqual({ table, rows: appended, most: 1, least: 1 });
  }
}, 180_000);
