import type { ChildProcess } from 'node:child_process';
import type autocannon from 'autocannon';
import type { Knex } from 'knex';
import { PostgresEventStore } from '../../domain/event-store/postgres-event-store';
import { openReadDatabase } from '../../projections/engine/database';
import { migrateToLatest } from '../../projections/migrations';
import { parseArgs } from '../commands/command';
import { DEMO_PASSWORD } from '../seed/names';
import { startReactionsAtHead } from '../seed/reactions';
import { cpuSeconds, pinBenchmark, postgresCpuSeconds } from './_cores';
import { largeSeedDatabase } from './_large-seed';
import { cannon, fmt, paced, printRow, rotating, settle } from './_load';
import { startProduct, startTrivialServer, stopProcesses } from './_servers';

/**
 * API benchmark on the 1,000,000-event large seed (issue 24): every GET the web client makes
 * when a page loads (the current user, the membership, the creators list and one creator's page
 * with its tiers, posts and stats, the feed's two first pages, the conversations and a thread,
 * the crypto balance and history, the member's subscriptions, notifications, and a creator's
 * payouts dashboard), signed in as seeded members and creators, each at a steady rate and flat
 * out, beside a trivial express route measured in the same run (flat out again right after each
 * route). The product runs in its own process, on a core of its own like the trivial route
 * (`_cores.ts`; `--unpinned` leaves every process to the scheduler). Targets: p99 < 25 ms at the
 * steady rate; flat out >= 20% of the trivial route.
 * `--only <part of a label>` measures the matching routes alone; API_BENCH_PROFILE=<dir> writes
 * the product's CPU profile there when it stops.
 */
type Target = { path: string; cookie: string };

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

/** Each viewer's feed, first page and (when there is one) the second. */
async function feedTargets(baseUrl: string, cookies: string[]): Promise<Target[]> {
  const targets: Target[] = [];
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

interface Viewer {
  id: string;
  cookie: string;
  /** A creator the viewer subscribes to, and someone they exchanged messages with. */
  creatorId: string;
  partnerId: string | null;
}

/** Seeded members (with a subscription) and creators, signed in. */
async function viewers(db: Knex, baseUrl: string, count: number): Promise<{ members: Viewer[]; creators: Viewer[] }> {
  const members = await db('users as u')
    .whereLike('u.email', 'member%@seed.example.com')
    .join('creator_subscriptions as s', 's.subscriber_id', db.raw('u.id::text'))
    .distinctOn('u.email')
    .orderBy('u.email')
    .limit(count)
    .select('u.id', 'u.email', 's.creator_id');
  const creators = await db('users as u')
    .whereLike('u.email', 'creator%@seed.example.com')
    .orderBy('u.email')
    .limit(count)
    .select('u.id', 'u.email');
  const partnerOf = async (id: string): Promise<string | null> =>
    ((await db('messages').where({ sender_id: id }).first('receiver_id')) as { receiver_id?: string } | undefined)
      ?.receiver_id ?? null;
  const signed = async (rows: Array<{ id: string; email: string; creator_id?: string }>) => {
    const cookies = await signIn(
      baseUrl,
      rows.map((row) => row.email),
    );
    return Promise.all(
      rows.map(async (row, i) => ({
        id: row.id,
        cookie: cookies[i],
        creatorId: row.creator_id ?? row.id,
        partnerId: await partnerOf(row.id),
      })),
    );
  };
  return { members: await signed(members), creators: await signed(creators) };
}

/** The page-load GETs, each a rotation over the viewers. */
function routes(members: Viewer[], creators: Viewer[], feed: Target[]): Array<[string, Target[]]> {
  const each = (who: Viewer[], path: (v: Viewer) => string | null) =>
    who.flatMap((v) => {
      const p = path(v);
      return p ? [{ path: p, cookie: v.cookie }] : [];
    });
  return [
    ['GET /api/auth/user', each(members, () => '/api/auth/user')],
    ['GET /api/subscription-status', each(members, () => '/api/subscription-status')],
    ['GET /api/creators?limit=6 (home)', each(members, () => '/api/creators?limit=6')],
    ['GET /api/creators/:id', each(members, (v) => `/api/creators/${v.creatorId}`)],
    ['GET /api/creators/:id/tiers', each(members, (v) => `/api/creators/${v.creatorId}/tiers`)],
    ['GET /api/creators/:id/posts', each(members, (v) => `/api/creators/${v.creatorId}/posts`)],
    ['GET /api/creators/:id/stats (own)', each(creators, (v) => `/api/creators/${v.id}/stats`)],
    ['GET /api/subscriptions/check/:id', each(members, (v) => `/api/subscriptions/check/${v.creatorId}`)],
    ['GET /api/posts/feed', feed],
    ['GET /api/subscriptions', each(members, () => '/api/subscriptions')],
    ['GET /api/conversations', each(members, () => '/api/conversations')],
    ['GET /api/messages/:userId', each(members, (v) => v.partnerId && `/api/messages/${v.partnerId}`)],
    ['GET /api/crypto/balance', each(members, () => '/api/crypto/balance')],
    ['GET /api/crypto/conversions', each(members, () => '/api/crypto/conversions')],
    ['GET /api/notifications', each(members, () => '/api/notifications')],
    ['GET /api/payouts/:id/dashboard', each(creators, (v) => `/api/payouts/${v.id}/dashboard`)],
    ['GET /api/payouts/:id', each(creators, (v) => `/api/payouts/${v.id}`)],
  ];
}

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const rate = Number(options.rate ?? 200);
  const duration = Number(options.duration ?? 10);
  const count = Number(options.viewers ?? 20);
  const flat = Number(options.flat ?? 5);
  const only = typeof options.only === 'string' ? options.only : undefined;
  const cores = pinBenchmark({ unpinned: options.unpinned === true });
  const database = await largeSeedDatabase({ reseed: options.reseed === true });
  const { placed, postmaster, restore } = await cores.movePostgres(database.url);
  const children: ChildProcess[] = [];
  const store = new PostgresEventStore({ connectionString: database.url, poolSize: 2 });
  const db = openReadDatabase(database.url, 2);
  await migrateToLatest(db);
  try {
    await startReactionsAtHead(store, db);
    const product = await startProduct(database.url, cores);
    children.push(product.child);
    await settle(store, db); // a first start builds every read model from the log
    const { members, creators } = await viewers(db, product.baseUrl, count);
    const feed = await feedTargets(
      product.baseUrl,
      members.map((m) => m.cookie),
    );
    const stats = (
      await db.raw(
        `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM creators) AS creators, (SELECT count(*) FROM posts) AS posts, (SELECT count(*) FROM users) AS users`,
      )
    ).rows[0];
    console.log(
      `api benchmark on ${fmt(Number(stats.events))} events (${fmt(Number(stats.users))} users, ${fmt(Number(stats.creators))} creators, ${fmt(Number(stats.posts))} posts), ${members.length} signed-in members and ${creators.length} creators; ${rate} req/s for ${duration} s, flat out for ${flat} s`,
    );
    console.log(`cores: ${cores.plan}; ${placed}`);

    const trivial = await startTrivialServer(cores);
    children.push(trivial.child);
    const measure = async (url: string, server: ChildProcess, requests?: autocannon.Request[]) => {
      await cannon({ url, connections: 10, duration: 2, requests }); // warm-up
      const steady = await paced({ url, rate, duration, requests });
      const postgres = () => (postmaster === null ? 0 : postgresCpuSeconds(postmaster));
      const before = [cpuSeconds([server.pid!]), postgres()];
      const max = await cannon({ url, connections: 10, duration: flat, requests });
      const perRequest = (seconds: number) => (seconds * 1e6) / (max.rps * flat);
      return {
        steady,
        max,
        serverCpu: perRequest(cpuSeconds([server.pid!]) - before[0]),
        postgresCpu: perRequest(postgres() - before[1]),
      };
    };
    const chosen = routes(members, creators, feed).filter(([label]) => !only || label.includes(only));
    const baseline = await measure(trivial.url, trivial.child);
    printRow(`baseline: trivial express route @${rate}/s`, baseline.steady);
    printRow('baseline: trivial express route, max', baseline.max);
    const verdicts: string[] = [];
    for (const [label, targets] of chosen) {
      if (!targets.length) throw new Error(`${label}: no seeded viewer has a target`);
      const { steady, max, serverCpu, postgresCpu } = await measure(product.baseUrl, product.child, [
        rotating(targets),
      ]);
      // The VM's speed drifts within minutes: each route's share is of the trivial route measured
      // flat out right after it.
      const trivialNow = await cannon({ url: trivial.url, connections: 10, duration: flat });
      printRow(`${label} @${rate}/s`, steady);
      printRow(`${label}, max`, max);
      printRow(`  trivial route right after, max`, trivialNow);
      const share = max.rps / trivialNow.rps;
      const met = steady.p99 < 25 && share >= 0.2 && !steady.non2xx && !max.non2xx;
      verdicts.push(
        `${label.padEnd(36)} p99 ${steady.p99.toFixed(1).padStart(6)} ms, ${fmt(max.rps).padStart(6)} req/s, ${(share * 100).toFixed(1).padStart(5)}% of the trivial route's ${fmt(trivialNow.rps)}: ${met ? 'met' : 'NOT met'} (CPU µs a request: ${fmt(serverCpu)} product, ${fmt(postgresCpu)} PostgreSQL)`,
      );
    }
    console.log(
      `\ntargets (p99 < 25 ms at ${rate}/s; flat out >= 20% of the trivial route measured right after each; at the start ${fmt(baseline.max.rps)} req/s, CPU ${fmt(baseline.serverCpu)} µs a request):`,
    );
    for (const line of verdicts) console.log(`  ${line}`);
  } finally {
    restore();
    await stopProcesses(children);
    await db.destroy();
    await store.close();
    await database.close();
  }
}
