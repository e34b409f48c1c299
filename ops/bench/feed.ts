import type { ChildProcess } from 'node:child_process';
import type autocannon from 'autocannon';
import type { Knex } from 'knex';
import { creatorDecider } from '../../domain/creators/decider';
import { creatorStream } from '../../domain/creators/events';
import { subscribeToCreator } from '../../domain/creators/subscribe';
import { openEventStore } from '../../domain/event-store';
import type { EventStore } from '../../domain/event-store/port';
import { createSandboxGateway } from '../../domain/payments/sandbox-gateway';
import { publishPost } from '../../domain/posts/publish';
import { handleCommand } from '../../domain/shared/command-handler';
import { newId } from '../../domain/shared/ids';
import { openReadDatabase } from '../../projections/engine/database';
import { parseArgs } from '../commands/command';
import { benchDatabase } from './_database';
import { cannon, fmt, paced, printRow, rotating, settle } from './_load';
import { startProduct, startTrivialServer, stopProcesses } from './_servers';

/**
 * Feed benchmark: 1,000 creators, 100,000 posts and 10,000 creator subscriptions seeded
 * through the product's commands, then `GET /api/posts/feed` (signed-in members, first and
 * second pages) at a steady 200 requests/s with autocannon (see `paced`; the same rate in
 * autocannon's one-second bursts is printed beside it). The product runs in its own process,
 * like in production; a trivial express route in another process is the baseline, measured in
 * the same run at the same rate and flat out.
 */
const TARGET_P99_MS = 25;

/** Runs `work(i)` for i in [0, count) with `parallel` workers, printing progress. */
async function inParallel(
  label: string,
  count: number,
  parallel: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let done = 0;
  const started = Date.now();
  const timer = setInterval(() => process.stdout.write(`\r  ${label}: ${fmt(done)} / ${fmt(count)}`), 1000);
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        await work(i);
        done++;
      }
    }),
  );
  clearInterval(timer);
  console.log(
    `\r  ${label}: ${fmt(count)} in ${((Date.now() - started) / 1000).toFixed(1)} s (${fmt(count / ((Date.now() - started) / 1000))}/s)`,
  );
}

async function seed(
  store: EventStore,
  baseUrl: string,
  counts: { creators: number; posts: number; members: number; perMember: number; viewers: number },
) {
  const gateway = createSandboxGateway();
  const base = Date.now() - counts.posts * 1000;

  // Viewers: real members signed up through the API (their sessions make the feed requests).
  const viewers: Array<{ id: string; cookie: string; customerId: string | null }> = [];
  await inParallel('members signed up through the API', counts.viewers, 4, async (i) => {
    const password = VIEWER_PASSWORD;
    const res = await fetch(`${baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: baseUrl,
        'x-forwarded-for': `10.77.${i % 250}.${Math.floor(i / 250) + 1}`,
      },
      body: JSON.stringify({
        firstName: 'Bench',
        lastName: `Viewer${i}`,
        email: `viewer${i}.${Date.now()}@bench.test`,
        password,
        confirmPassword: password,
        paymentToken: `dev_tok_bench_viewer_${i}`,
      }),
    });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { user: { id: string } };
    const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('lively.sid=')) ?? '').split(';')[0];
    viewers.push({ id: body.user.id, cookie, customerId: null });
  });

  const creators = Array.from({ length: counts.creators }, () => newId());
  await inParallel('creators registered', creators.length, 16, async (i) => {
    const userId = creators[i];
    await handleCommand(
      store,
      creatorStream(userId),
      creatorDecider,
      { type: 'RegisterCreator', userId, bio: `Bench creator ${i}`, coverImageUrl: null, at: new Date(base) },
      { actorId: userId, now: new Date(base) },
    );
  });

  await inParallel('posts published', counts.posts, 16, async (i) => {
    const creatorId = creators[i % creators.length];
    const now = new Date(base + i * 1000);
    await publishPost(
      store,
      {
        creatorId,
        title: `Post ${i}`,
        content: `Content of post ${i}. `.repeat(8),
        mediaUrl: i % 3 ? `https://img.bench.test/${i}.jpg` : null,
        isPublic: i % 5 === 0,
      },
      { actorId: creatorId, now },
    );
  });

  // Members: the viewers plus synthetic members (cards on file at the sandbox gateway), each
  // subscribing to `perMember` different creators, charged through the gateway.
  const members = [
    ...viewers.map((v) => v.id),
    ...Array.from({ length: counts.members - viewers.length }, () => newId()),
  ];
  const customers = new Map<string, string>();
  await inParallel('creator subscriptions started', members.length * counts.perMember, 16, async (n) => {
    const m = Math.floor(n / counts.perMember);
    const memberId = members[m];
    let customerId = customers.get(memberId);
    if (!customerId) {
      customerId = (
        await gateway.createCustomer({
          email: `${memberId}@bench.test`,
          name: 'Bench',
          paymentToken: `dev_tok_bench_${m}`,
          idempotencyKey: `bench:${memberId}`,
        })
      ).customerId;
      customers.set(memberId, customerId);
    }
    const creatorId = creators[(m * 7 + (n % counts.perMember) * 97) % creators.length];
    await subscribeToCreator(
      store,
      gateway,
      { subscriberId: memberId, creatorId, tierId: 'default-basic', customerId },
      { actorId: memberId, now: new Date() },
    );
  });
  return viewers;
}

const VIEWER_PASSWORD = 'Passw0rdGood';

/** Signs the seeded viewers in again (for `--database`, a database seeded by an earlier `--keep` run). */
async function signInViewers(db: Knex, baseUrl: string): Promise<Array<{ id: string; cookie: string }>> {
  const rows = await db('users').whereLike('email', 'viewer%@bench.test').select('id', 'email');
  return Promise.all(
    rows.map(async (row, i) => {
      const res = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: baseUrl,
          'x-forwarded-for': `10.78.${i % 250}.${Math.floor(i / 250) + 1}`,
        },
        body: JSON.stringify({ email: row.email, password: VIEWER_PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
      return {
        id: row.id as string,
        cookie: (res.headers.getSetCookie().find((c) => c.startsWith('lively.sid=')) ?? '').split(';')[0],
      };
    }),
  );
}

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const counts = {
    creators: Number(options.creators ?? 1000),
    posts: Number(options.posts ?? 100_000),
    members: Number(options.members ?? 1000),
    perMember: Number(options['per-member'] ?? 10),
    viewers: Number(options.viewers ?? 20),
  };
  const rate = Number(options.rate ?? 200);
  const duration = Number(options.duration ?? 20);
  const reuse = typeof options.database === 'string' ? options.database : null;
  const database = reuse ? { url: reuse, drop: async () => undefined } : await benchDatabase('bench_feed');
  const children: ChildProcess[] = [];
  try {
    console.log(
      `feed benchmark: ${fmt(counts.creators)} creators, ${fmt(counts.posts)} posts, ${fmt(counts.members * counts.perMember)} subscriptions; ${rate} req/s for ${duration} s`,
    );
    const product = await startProduct(database.url);
    children.push(product.child);
    const baseUrl = product.baseUrl;
    const store = await openEventStore({ databaseUrl: database.url });
    const db = openReadDatabase(database.url, 4);
    const viewers = reuse ? await signInViewers(db, baseUrl) : await seed(store, baseUrl, counts);
    await settle(store, db);
    const stats = await db.raw(
      `SELECT (SELECT count(*) FROM posts) AS posts, (SELECT count(*) FROM events WHERE event_type = 'PostPublished') AS "postEvents",
              (SELECT count(*) FROM creator_subscriptions) AS subscriptions, (SELECT count(*) FROM creators) AS creators`,
    );
    console.log(`  read models: ${JSON.stringify(stats.rows[0])}`);
    if (stats.rows[0].posts !== stats.rows[0].postEvents)
      throw new Error('the posts read model does not match the log');

    // Each viewer's first-page cursor, so a fifth of the requests ask for page 2.
    const targets: Array<{ path: string; cookie: string }> = [];
    for (const viewer of viewers) {
      const first = (await (
        await fetch(`${baseUrl}/api/posts/feed`, { headers: { cookie: viewer.cookie } })
      ).json()) as { posts: unknown[]; nextCursor: string | null };
      if (first.posts.length !== 20) throw new Error(`feed page has ${first.posts.length} posts`);
      targets.push({ path: '/api/posts/feed', cookie: viewer.cookie });
      if (first.nextCursor) targets.push({ path: `/api/posts/feed?cursor=${first.nextCursor}`, cookie: viewer.cookie });
    }
    const request = rotating(targets);

    const trivial = await startTrivialServer();
    children.push(trivial.child);
    const trivialUrl = trivial.url;
    await cannon({ url: trivialUrl, connections: 10, duration: 2 }); // warm-up
    const baselineAtRate = await paced({ url: trivialUrl, rate, duration });
    const baselineMax = await cannon({ url: trivialUrl, connections: 10, duration: 5 });

    // The product's own floor: a signed-in call through the same middleware (session, user lookup).
    const userRequest: autocannon.Request = rotating(
      targets.map((t) => ({ path: '/api/auth/user', cookie: t.cookie })),
    );
    const productAtRate = await paced({
      url: baseUrl,
      rate,
      duration: Math.min(duration, 10),
      requests: [userRequest],
    });

    await cannon({ url: baseUrl, connections: 10, overallRate: rate, duration: 3, requests: [request] }); // warm-up
    const feed = await paced({ url: baseUrl, rate, duration, requests: [request] });
    const feedBursts = await cannon({
      url: baseUrl,
      connections: 10,
      overallRate: rate,
      duration: Math.min(duration, 10),
      requests: [request],
    });
    const feedMax = await cannon({ url: baseUrl, connections: 10, duration: 5, requests: [request] });

    const row = printRow;
    console.log('');
    row(`baseline: trivial express route @${rate}/s`, baselineAtRate);
    row('baseline: trivial express route, max', baselineMax);
    row(`product floor: GET /api/auth/user @${rate}/s`, productAtRate);
    row(`GET /api/posts/feed @${rate}/s`, feed);
    row(`GET /api/posts/feed @${rate}/s, 10-conn bursts`, feedBursts);
    row('GET /api/posts/feed, max', feedMax);
    const ok = feed.p99 < TARGET_P99_MS && feed.non2xx === 0 && feed.errors === 0;
    console.log(
      `\nfeed p99 ${feed.p99.toFixed(1)} ms, target < ${TARGET_P99_MS} ms: ${ok ? 'PASS' : 'FAIL'}   (feed max throughput ${((feedMax.rps / baselineMax.rps) * 100).toFixed(1)}% of the trivial route's)`,
    );
    await db.destroy();
    await store.close();
  } finally {
    await stopProcesses(children);
    if (options.keep || reuse) console.log(`kept database ${database.url} (rerun the load with --database <url>)`);
    else await database.drop();
  }
}
