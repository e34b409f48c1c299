import { Client } from 'pg';
import { createLogger } from '../../api/logger';
import { hashPassword } from '../../domain/accounts/passwords';
import { INTERESTS, LOOKING_FOR_GENDERS, RELATIONSHIP_TYPES, SEXUAL_ORIENTATIONS } from '../../domain/contracts/chat';
import { ensureStaffAccount } from '../../domain/payouts/staff-role';
import { waitForEveryCheckpoint } from '../../projections/engine/read-your-writes';
import { freePort } from '../net';
import { startStack } from '../stack';
import { parseArgs, type OpsCommand } from './command';
import { thousands } from './format';
import { SeedClient } from './seed-client';
import { creatorBio, DEMO_ADMIN, DEMO_CREATOR, DEMO_LOGIN, FIRST, LAST, pick, TOPICS } from '../seed/names';
import { runLargeSeed } from './seed-large';
import { DEMO_TWO_FACTOR_SECRET, demoTwoFactorCode, turnOnDemoTwoFactor } from '../seed/two-factor';
import { seedAvatar, seedCover, seedPhotos, seedVideo, videosPossible } from '../seed/media';
import { seedIdentityVerification } from '../seed/identity';

/**
 * A realistic demo dataset, created the way users create it: through the HTTP API (and so the
 * command handlers), never by writing tables. A seeding stack runs in this process with a
 * clock set 20 days back, so earnings clear their 7-day hold and payouts can be made "today",
 * and the finance console's 30-day revenue chart shows the demo's sales.
 */
export { DEMO_ADMIN, DEMO_CREATOR, DEMO_LOGIN };

export interface SeedSize {
  members: number;
  creators: number;
  postsPerCreator: number;
  /** Stop adding activity rounds once the log holds this many events. */
  minEvents: number;
}
/** The HTTP seed's size (`large` is made in-process by ops/seed/large.ts). */
export const SIZES: Record<'small', SeedSize> = {
  small: { members: 12, creators: 4, postsPerCreator: 3, minEvents: 0 },
};

export interface SeedReport {
  events: number;
  steps: Record<string, number>;
  failures: string[];
}

/** Runs `work` over items with `parallel` workers; failures are collected, not fatal. */
async function each<T>(
  items: T[],
  parallel: number,
  failures: string[],
  work: (item: T, index: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        try {
          await work(items[index], index);
          done++;
        } catch (error) {
          if (failures.length < 50) failures.push((error as Error).message);
        }
      }
    }),
  );
  return done;
}

/** Whether the PostgreSQL event log is missing or empty (a first start). */
export async function logIsEmpty(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client
      .query(`SELECT to_regclass('public.events') IS NOT NULL AND EXISTS (SELECT 1 FROM events) AS any`)
      .catch(() => ({ rows: [{ any: false }] }));
    return !found.rows[0].any;
  } finally {
    await client.end();
  }
}

export async function seed(
  databaseUrl: string,
  size: SeedSize,
  log: (line: string) => void = () => undefined,
): Promise<SeedReport> {
  const DAY = 86_400_000;
  let offset = -20 * DAY;
  const clock = () => new Date(Date.now() + offset);
  const stack = await startStack({
    databaseUrl,
    port: 0,
    realtimePort: await freePort(),
    logger: createLogger({ level: 'silent' }),
    clock,
    // The seeder registers many accounts from one address.
    ports: {
      // Its uploads wait for their processing: jobs are looked for often.
      mediaSettings: { queue: { pollMs: 50 } },
      authRateLimits: {
        register: { perIp: { limit: 1e9, windowMs: 60_000 }, perAccount: { limit: 1e9, windowMs: 60_000 } },
        login: { perIp: { limit: 1e9, windowMs: 60_000 }, perAccountAndIp: { limit: 1e9, windowMs: 60_000 } },
      },
    },
  });
  const report: SeedReport = { events: 0, steps: {}, failures: [] };
  // Each phase reads what the previous one wrote: wait until every projection and process
  // manager has applied the newest event (bounded; the API's own wait is only 2 s).
  const settle = () => waitForEveryCheckpoint(stack.db, stack.followerNames, 120_000);
  const step = (name: string, count: number) => {
    report.steps[name] = (report.steps[name] ?? 0) + count;
    log(`${name}: ${thousands(count)}`);
  };
  try {
    const person = (i: number, kind: 'member' | 'creator') => {
      const demo = i === 0 ? (kind === 'member' ? DEMO_LOGIN : DEMO_CREATOR) : null;
      return {
        email: demo?.email ?? `${kind}${i}@example.com`,
        password: demo?.password ?? 'LivelyDemo1',
        firstName: pick(FIRST, i + (kind === 'creator' ? 7 : 0)),
        lastName: pick(LAST, i * 3 + (kind === 'creator' ? 1 : 0)),
      };
    };
    const members = Array.from({ length: size.members }, (_, i) => ({
      ...person(i, 'member'),
      client: new SeedClient(stack.url),
    }));
    const creators = Array.from({ length: size.creators }, (_, i) => ({
      ...person(i, 'creator'),
      client: new SeedClient(stack.url),
      tierIds: [] as string[],
      postIds: [] as string[],
    }));
    const everyone = [...members, ...creators];

    step(
      'accounts registered (card on file, site plan)',
      await each(everyone, 8, report.failures, async (p, i) => {
        const body = {
          firstName: p.firstName,
          lastName: p.lastName,
          email: p.email,
          password: p.password,
          confirmPassword: p.password,
          paymentToken: `dev_tok_seed_${i}`,
        };
        const registered = await p.client.call('POST', '/api/auth/register', body);
        if (registered.status >= 300) {
          const again = await p.client.ok<{ twoFactorRequired?: boolean }>('POST', '/api/auth/login', {
            email: p.email,
            password: p.password,
          });
          // A creator of an earlier run has two-factor on, with the demo secret.
          if (again.twoFactorRequired)
            await p.client.ok('POST', '/api/auth/login/2fa', { code: await demoTwoFactorCode() });
        }
      }),
    );
    await settle();
    await each(everyone, 8, report.failures, async (p) => {
      p.client.userId = (await p.client.ok<{ id: string }>('GET', '/api/auth/user')).id;
    });

    step(
      'creators',
      await each(creators, 4, report.failures, async (c, i) => {
        const registered = await c.client.call('POST', '/api/creators/register', { bio: creatorBio(c.firstName, i) });
        if (registered.status >= 300 && registered.status !== 409)
          throw new Error(
            `POST /api/creators/register -> ${registered.status} ${JSON.stringify(registered.body).slice(0, 200)}`,
          );
      }),
    );
    await settle();
    // Locked posts need a verified identity (issue 20): the form, then the provider's answer.
    step(
      'identity verification',
      await each(creators, 4, report.failures, (c) => seedIdentityVerification(c.client, c)),
    );
    step(
      'creator tiers',
      await each(creators, 4, report.failures, async (c) => {
        const id = c.client.userId!;
        const existing = await c.client.ok<Array<{ id: string; name: string }>>('GET', `/api/creators/${id}/tiers`);
        if (!existing.some((t) => t.name === 'Supporter')) {
          await c.client.ok('POST', `/api/creators/${id}/tiers`, {
            name: 'Supporter',
            description: 'Every post, early.',
            price: '4.99',
            features: ['All posts', 'Monthly Q&A'],
          });
          await c.client.ok('POST', `/api/creators/${id}/tiers`, {
            name: 'VIP',
            description: 'Everything, plus messages.',
            price: '14.99',
            features: ['All posts', 'Direct messages', 'Shout-outs'],
          });
          await settle();
        }
        c.tierIds = (await c.client.ok<Array<{ id: string }>>('GET', `/api/creators/${id}/tiers`)).map((t) => t.id);
      }),
    );

    await settle();
    // Imagery (issue 18), through the real upload path: avatars, creators' covers,
    // then a few posts with generated photos and clips. Each is made once: a rerun keeps them.
    step(
      'avatars and covers',
      await each(everyone, 4, report.failures, async (p, i) => {
        const me = await p.client.ok<{ profileImageUrl: string | null; isCreator: boolean }>('GET', '/api/auth/user');
        // Every creator and every other member (the demo member first): the rest keep their initials.
        if (!me.profileImageUrl && (me.isCreator || i % 2 === 0)) await seedAvatar(p.client, p, i);
        if (!me.isCreator) return;
        const page = await p.client.ok<{ coverImageUrl: string | null }>('GET', `/api/creators/${p.client.userId}`);
        if (!page.coverImageUrl) await seedCover(p.client, `${p.firstName} ${p.lastName}`, i);
      }),
    );
    await settle();
    const posts = creators.flatMap((c) => Array.from({ length: size.postsPerCreator }, (_, i) => ({ c, i })));
    step(
      'posts',
      await each(posts, 8, report.failures, async ({ c, i }) => {
        await c.client.ok('POST', '/api/posts', {
          title: `${pick(TOPICS, i)} #${i + 1}`,
          content: `Notes from ${c.firstName}: part ${i + 1}.`,
          isPublic: i % 3 === 0,
        });
      }),
    );
    // Videos first: their transcoding runs while the photos go up.
    const mediaPosts = [
      ...creators.slice(0, 2).flatMap((c, i) => (videosPossible() ? [{ c, n: 2 * i + 1, video: true }] : [])),
      ...creators.map((c, i) => ({ c, n: 2 * i, video: false })),
    ];
    step(
      'posts with photos and videos',
      await each(mediaPosts, 4, report.failures, async ({ c, n, video }) => {
        const existing = await c.client.ok<Array<{ title: string }>>('GET', `/api/creators/${c.client.userId}/posts`);
        const title = video ? `Clip of the week #${n + 1}` : `Photo set #${n + 1}`;
        if (existing.some((post) => post.title === title)) return;
        const mediaIds = video ? [await seedVideo(c.client, n)] : await seedPhotos(c.client, n);
        await c.client.ok('POST', '/api/posts', {
          title,
          content: video ? `A short clip from ${c.firstName}.` : `${c.firstName}'s latest photos.`,
          isPublic: n % 3 === 0,
          mediaIds,
        });
      }),
    );
    await settle();
    await each(creators, 4, report.failures, async (c) => {
      c.postIds = (await c.client.ok<Array<{ id: string }>>('GET', `/api/creators/${c.client.userId}/posts`)).map(
        (post) => post.id,
      );
    });

    await settle();
    const pairs = members.flatMap((m, i) => creators.filter((_, j) => (i + j) % 3 !== 2).map((c, j) => ({ m, c, j })));
    step(
      'creator subscriptions',
      await each(pairs, 8, report.failures, async ({ m, c, j }) => {
        if (c.tierIds.length === 0) throw new Error(`creator ${c.email} has no tiers`);
        await m.client.ok('POST', '/api/subscriptions', { creatorId: c.client.userId, tierId: pick(c.tierIds, j) });
      }),
    );

    await settle();
    step(
      'chat profiles and preferences',
      await each(members, 8, report.failures, async (m, i) => {
        await m.client.ok('POST', '/api/profile', {
          displayName: m.firstName,
          age: 21 + (i % 30),
          location: pick(['Berlin', 'Austin', 'Lisbon', 'Toronto', 'Seoul'], i),
          genderIdentity: pick(LOOKING_FOR_GENDERS, i),
          sexualOrientation: pick(SEXUAL_ORIENTATIONS, i),
          relationshipType: [pick(RELATIONSHIP_TYPES, i)],
          bio: 'Here for good conversations.',
          interests: [pick(INTERESTS, i), pick(INTERESTS, i + 5)],
        });
        await m.client.ok('POST', '/api/preferences', {
          ageRangeMin: 21,
          ageRangeMax: 45,
          maxDistance: 50,
          lookingForGenders: [pick(LOOKING_FOR_GENDERS, i + 1), pick(LOOKING_FOR_GENDERS, i + 2)],
        });
      }),
    );

    await settle();
    step(
      'crypto wallets and conversions',
      await each(
        members.filter((_, i) => i % 2 === 0),
        4,
        report.failures,
        async (m, i) => {
          const walletAddress = `0x${(i + 1).toString(16).padStart(40, 'a')}`;
          await m.client.call('POST', '/api/crypto/wallets', {
            cryptoType: i % 4 === 0 ? 'USDC' : 'USDT',
            walletAddress,
          });
          await m.client.ok('POST', '/api/crypto/convert', {
            cryptoType: i % 4 === 0 ? 'USDC' : 'USDT',
            cryptoAmount: '25.00000000',
            walletAddress,
          });
        },
      ),
    );

    await settle();
    // Activity rounds: likes and messages (paid ones from creators), until the size is reached.
    for (let round = 0; ; round++) {
      step(
        'likes',
        await each(
          pairs.filter(({ c }) => c.postIds.length > 0),
          16,
          report.failures,
          async ({ m, c }, k) => {
            await m.client.ok('POST', `/api/posts/${pick(c.postIds, k + round)}/like`);
          },
        ),
      );
      step(
        'messages',
        await each(pairs, 16, report.failures, async ({ m, c }, k) => {
          await m.client.ok('POST', '/api/messages', {
            receiverId: c.client.userId,
            content: `Loved the last post (${round}.${k})!`,
          });
          await c.client.ok('POST', '/api/messages', {
            receiverId: m.client.userId,
            content: `Thanks! Here is something special (${round}.${k}).`,
            ...(k % 4 === 0 ? { price: '2.99' } : {}),
          });
        }),
      );
      const events = Number((await stack.db.raw('SELECT count(*)::bigint AS n FROM events')).rows[0].n);
      if (events >= size.minEvents) break;
      log(`events so far: ${thousands(events)} of ${thousands(size.minEvents)}`);
    }

    await settle();
    // Today: the 20-day-old earnings have cleared their hold.
    offset = 0;
    // Payment accounts and payouts need two-factor on: the creators use the documented demo secret.
    step(
      'two-factor on (creators, demo secret)',
      await each(creators, 4, report.failures, (c) => turnOnDemoTwoFactor(stack, c.client.userId!, c.email)),
    );
    step(
      'payment accounts and payouts',
      await each(creators, 4, report.failures, async (c) => {
        const account = await c.client.ok<{ id: string }>('POST', '/api/payment-accounts', {
          type: 'bank_account',
          accountHolderName: `${c.firstName} ${c.lastName}`,
          bankAccountLast4: '6789',
          routingNumber: '110000000',
        });
        const dashboard = await c.client.ok<{ availableBalance: string }>(
          'GET',
          `/api/payouts/${c.client.userId}/dashboard`,
        );
        if (Number(dashboard.availableBalance) > 0)
          await c.client.ok('POST', '/api/payouts', {
            paymentAccountId: account.id,
            amount: dashboard.availableBalance,
          });
      }),
    );

    await ensureStaffAccount(
      stack.store,
      { email: DEMO_ADMIN.email, passwordHash: () => hashPassword(DEMO_ADMIN.password) },
      { actorId: null, clientId: 'ops-seed', now: clock() },
    );
    step('finance staff', 1);
    await settle(); // the read models show everything before the seeding stack stops
    report.events = Number((await stack.db.raw('SELECT count(*)::bigint AS n FROM events')).rows[0].n);
    return report;
  } finally {
    await stack.stop();
  }
}

export const seedCommand: OpsCommand = {
  name: 'seed',
  args: '[--size small|large] [--parallel N] [--min-events N]',
  summary: 'Create a realistic demo dataset through commands (members, creators, tiers, posts, subscriptions, …)',
  help: `Creates members (sandbox card, site plan), creators with tiers and posts, creator
subscriptions, likes, messages (paid ones unlocked), crypto wallets and conversions, payment
accounts and payouts, chat profiles, and a finance staff account. Nothing writes tables
directly: every change is a command.
small (default): a dozen members and four creators, through the HTTP API of a product
  started in this process, in about a minute.
large: 20,000 members and 1,000 creators made in this process by the domain's command
  functions (16 in parallel, no HTTP), with rounds of conversations until at least
  1,000,000 events were appended (58 min at 300 events/s on a 2-vCPU VM at load ~10); a
  progress line shows events/s and the ETA. The running
  product (or the next start) builds its read models from the new events.
  --parallel N (default 16), --min-events N (default 1000000).
Demo logins (password ${DEMO_LOGIN.password}): ${DEMO_LOGIN.email} (member), ${DEMO_CREATOR.email} (creator),
${DEMO_ADMIN.email} (finance staff). Creators have two-factor on with the demo secret ${DEMO_TWO_FACTOR_SECRET}
(add it to an authenticator app). Running it again adds activity; demo accounts are reused.`,
  async run(args, context) {
    const { options } = parseArgs(args);
    const size = String(options.size ?? 'small');
    if (size !== 'small' && size !== 'large') {
      context.out('Usage: npm run ops -- seed [--size small|large]');
      return 2;
    }
    if (size === 'large') return runLargeSeed(options, context);
    const { databaseUrl } = await context.connect();
    const started = Date.now();
    const report = await seed(databaseUrl, SIZES.small, (line) => process.stderr.write(`${line}\n`));
    context.out(
      `Seeded (${size}) in ${Math.round((Date.now() - started) / 1000)}s: the log holds ${thousands(report.events)} events.`,
    );
    if (report.failures.length)
      context.out(`${report.failures.length} step(s) failed, first: ${report.failures.slice(0, 3).join(' | ')}`);
    context.out(
      `Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password} (creator ${DEMO_CREATOR.email}, finance staff ${DEMO_ADMIN.email}, same password)`,
    );
    return report.failures.length ? 1 : 0;
  },
};
