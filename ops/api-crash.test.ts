import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Knex } from 'knex';
import { openReadDatabase } from '../projections/engine/database';
import { DEMO_CREATOR, DEMO_LOGIN, seed } from './commands/seed';
import { SeedClient } from './commands/seed-client';
import { freePort } from './net';
import { createTestDatabase, type TestDatabase } from './testing/test-database';

/**
 * Killing the API (SIGKILL) while members send messages loses no acknowledged command: every
 * message the API answered 201 for is in the event log afterwards.
 */
let database: TestDatabase;
let db: Knex;
beforeAll(async () => {
  database = await createTestDatabase();
  await seed(database.url, { members: 1, creators: 1, postsPerCreator: 0, minEvents: 0 });
  db = openReadDatabase(database.url, 2);
}, 180_000);
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

it('keeps every acknowledged command when the API process is killed mid-write', async () => {
  const port = await freePort();
  const api = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'start.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      PORT: String(port),
      REALTIME_PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LIVELY_SEED: 'false',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => api.once('exit', resolve));
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 600) throw new Error('the API did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const member = new SeedClient(base);
    await member.ok('POST', '/api/auth/login', { email: DEMO_LOGIN.email, password: DEMO_LOGIN.password });
    const creator = await db('users').where({ email: DEMO_CREATOR.email }).first();

    const acknowledged: string[] = [];
    let attempts = 0;
    let killed = false;
    const sender = async () => {
      while (!killed) {
        attempts++;
        const result = await member
          .call<{ id?: string }>('POST', '/api/messages', { receiverId: creator.id, content: `crash test ${attempts}` })
          .catch(() => null);
        if (result && result.status === 201 && result.body?.id) acknowledged.push(result.body.id);
      }
    };
    const senders = Array.from({ length: 6 }, sender);
    while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    api.kill('SIGKILL');
    killed = true;
    await Promise.all(senders);
    await exited;

    const stored = await db('events')
      .where({ event_type: 'MessageSent' })
      .whereIn(
        'stream_id',
        acknowledged.map((id) => `message-${id}`),
      )
      .count({ n: '*' })
      .first();
    expect(Number(stored!.n)).toBe(acknowledged.length);
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
  } finally {
    if (api.exitCode === null) api.kill('SIGKILL');
    await exited;
  }
}, 120_000);
