import type { ChildProcess } from 'node:child_process';
import type autocannon from 'autocannon';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import { parseArgs } from '../commands/command';
import { DEMO_PASSWORD } from '../seed/names';
import { startReactionsAtHead } from '../seed/reactions';
import { largeSeedDatabase } from './_large-seed';
import { cannon, fmt, paced, printRow, rotating, settle, type Measured } from './_load';
import { startProduct, startTrivialServer, stopProcesses } from './_servers';

/**
 * API benchmark on the 1,000,000-event large seed: `GET /api/creators` and `GET /api/posts/feed`
 * (first and second pages) for signed-in seeded members, at a fixed rate and flat out, beside
 * a trivial express route measured in the same run. The product runs in its own process.
 */
async function signIn(baseUrl: string, emails: string[]): Promise<string[]> {
  return Promise.all(
    emails.map(async (email, i) => {
      const res = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: baseUrl,
          'x-forwarded-for': `10.79.${i % 250}.${Math.floor(i / 250) + 1}`,
        },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
      return (res.headers.getSetCookie().find((c) => c.startsWith('lively.sid=')) ?? '').split(';')[0];
    }),
  );
}

/** Each member's feed, first page and (when there is one) the second. */
async function feedTargets(baseUrl: string, cookies: string[]): Promise<Array<{ path: string; cookie: string }>> {
  const targets: Array<{ path: string; cookie: string }> = [];
  for (const cookie of cookies) {
    const first = (await (await fetch(`${baseUrl}/api/posts/feed`, { headers: { cookie } })).json()) as {
      posts: unknown[];
      nextCursor: string | null;
    };
    if (!first.posts.length) throw new Error('a seeded member sees an empty feed');
    targets.push({ path: '/api/posts/feed', cookie });
    if (first.nextCursor) targets.push({ path: `/api/posts/feed?cursor=${first.nextCursor}`, cookie });
  }
  return targets;
}

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const rate = Number(options.rate ?? 200);
  const duration = Number(options.duration ?? 20);
  const viewers = Number(options.viewers ?? 20);
  const database = await largeSeedDatabase({ reseed: options.reseed === true });
  const children: ChildProcess[] = [];
  const store = new PostgresEventStore({ connectionString: database.url, poolSize: 2 });
  const db = openReadDatabase(database.url, 2);
  await migrateToLatest(db);
  try {
    await startReactionsAtHead(store, db);
    const product = await startProduct(database.url);
    children.push(product.child);
    await settle(store, db); // a first start builds every read model from the log
    const emails = (await db('users')
      .whereLike('email', 'member%@seed.example.com')
      .orderBy('email')
      .limit(viewers)
      .pluck('email')) as string[];
    const cookies = await signIn(product.baseUrl, emails);
    const creators = rotating(cookies.map((cookie) => ({ path: '/api/creators', cookie })));
    const feed = rotating(await feedTargets(product.baseUrl, cookies));
    const stats = (
      await db.raw(
        `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM creators) AS creators, (SELECT count(*) FROM posts) AS posts, (SELECT count(*) FROM users) AS users`,
      )
    ).rows[0];
    console.log(
      `api benchmark on ${fmt(Number(stats.events))} events (${fmt(Number(stats.users))} users, ${fmt(Number(stats.creators))} creators, ${fmt(Number(stats.posts))} posts), ${cookies.length} signed-in members; ${rate} req/s for ${duration} s`,
    );

    const trivial = await startTrivialServer();
    children.push(trivial.child);
    const rows: Array<[string, Measured]> = [];
    const measure = async (label: string, url: string, requests?: autocannon.Request[]) => {
      await cannon({ url, connections: 10, duration: 2, requests }); // warm-up
      rows.push([`${label} @${rate}/s`, await paced({ url, rate, duration, requests })]);
      rows.push([`${label}, max`, await cannon({ url, connections: 10, duration: 5, requests })]);
    };
    await measure('baseline: trivial express route', trivial.url);
    await measure('GET /api/creators', product.baseUrl, [creators]);
    await measure('GET /api/posts/feed', product.baseUrl, [feed]);
    console.log('');
    for (const [label, measured] of rows) printRow(label, measured);
    const max = (label: string) => rows.find(([l]) => l === `${label}, max`)![1].rps;
    console.log(
      `\nmax throughput vs the trivial route: /api/creators ${((max('GET /api/creators') / max('baseline: trivial express route')) * 100).toFixed(1)}%, /api/posts/feed ${((max('GET /api/posts/feed') / max('baseline: trivial express route')) * 100).toFixed(1)}%`,
    );
  } finally {
    await stopProcesses(children);
    await db.destroy();
    await store.close();
    await database.close();
  }
}
