import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { openEventStore } from '../../domain/event-store';
import type { EventStore, NewEvent } from '../../domain/event-store/port';
import { openReadDatabase } from '../../projections/engine/database';
import { parseArgs } from '../commands/command';
import { benchDatabase } from './_database';
import { fmt, settle } from './_load';
import { sleep, startProduct, stopProcesses } from './_servers';

/**
 * `npm run bench -- fanout [--subscribers 10000]` (issue 21): a creator with N active
 * subscribers sends a mass message through the API; measured is the time until every
 * recipient's conversation shows it (the `messages` read model has N rows of it), printed
 * beside the time to append N events in one batch to the same event store in the same run.
 * Target: within 10 s for 10,000 subscribers.
 */

const TARGET_MS = 10_000;
const SEED_BATCH = 1000;
const DAY = 86_400_000;

/** A member signed up through the API, with their session cookie. */
async function signUp(baseUrl: string, name: string): Promise<{ id: string; cookie: string }> {
  const call = (path: string, body: unknown, cookie = '') =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie, 'x-forwarded-for': '10.77.0.1' },
      body: JSON.stringify(body),
    });
  const password = 'Passw0rdGood';
  const res = await call('/api/auth/register', {
    firstName: name,
    lastName: 'Bench',
    email: `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@bench.test`,
    password,
    confirmPassword: password,
    paymentToken: `dev_tok_${randomUUID().slice(0, 8)}`,
  });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('lively.sid=')) ?? '').split(';')[0];
  for (let i = 0; i < 200; i++) {
    const me = await fetch(`${baseUrl}/api/auth/user`, { headers: { cookie } });
    const body = (await me.json()) as { id?: string; subscriptionStatus?: string };
    if (me.status === 200 && body.subscriptionStatus === 'active') {
      const creator = await call('/api/creators/register', { bio: 'Fan-out benchmark' }, cookie);
      if (creator.status !== 201) throw new Error(`creator: ${creator.status} ${await creator.text()}`);
      return { id: body.id!, cookie };
    }
    await sleep(100);
  }
  throw new Error('the sign-up never became active');
}

/**
 * N subscribers with a running month, appended in concurrent batches (the store's group commit
 * writes them together). Free months (a trial): no sale, so seeding does not credit the
 * creator's earnings N times over on one stream before the measurement starts.
 */
async function seedSubscribers(store: EventStore, creatorId: string, count: number): Promise<void> {
  const start = new Date(Date.now() - DAY);
  const end = new Date(start.getTime() + 30 * DAY);
  for (let from = 0; from < count; from += SEED_BATCH) {
    const batch = Array.from({ length: Math.min(SEED_BATCH, count - from) }, () => randomUUID());
    await Promise.all(
      batch.map((subscriberId) =>
        store.append(
          `creatorSubscription-${subscriberId}_${creatorId}`,
          [
            {
              type: 'CreatorSubscriptionStarted',
              data: {
                subscriptionId: randomUUID(),
                subscriberId,
                creatorId,
                tierId: 'default-basic',
                tierName: 'Basic',
                priceCents: 0,
                transactionId: null,
                startDate: start.toISOString(),
                endDate: end.toISOString(),
              },
            },
          ],
          { expectedRevision: 'no_stream' },
        ),
      ),
    );
  }
}

/** The baseline: N events of the same size appended to one stream in one call. */
async function appendOneBatch(store: EventStore, count: number, content: string): Promise<number> {
  const events: NewEvent[] = Array.from({ length: count }, () => ({
    type: 'BenchEvent',
    data: { messageId: randomUUID(), senderId: randomUUID(), receiverId: randomUUID(), content, priceCents: 499 },
  }));
  const started = performance.now();
  await store.append(`benchBatch-${randomUUID()}`, events, { expectedRevision: 'no_stream' });
  return performance.now() - started;
}

const shown = async (db: Knex, creatorId: string, content: string) =>
  Number((await db('messages').where({ sender_id: creatorId, content }).count('* as n').first())?.n ?? 0);

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const count = Number(options.subscribers ?? 10_000);
  const database = await benchDatabase('bench_fanout');
  const children: ChildProcess[] = [];
  try {
    console.log(`fan-out benchmark: a mass message to ${fmt(count)} active subscribers`);
    const product = await startProduct(database.url);
    children.push(product.child);
    const store = await openEventStore({ databaseUrl: database.url });
    const db = openReadDatabase(database.url, 4);
    try {
      const creator = await signUp(product.baseUrl, 'Creator');
      const seedStarted = performance.now();
      await seedSubscribers(store, creator.id, count);
      console.log(`  seeded ${fmt(count)} subscriptions in ${fmt(performance.now() - seedStarted)} ms`);
      await settle(store, db);

      const content = `New set out now (${randomUUID().slice(0, 8)})`;
      const started = performance.now();
      const res = await fetch(`${product.baseUrl}/api/mass-messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: product.baseUrl, cookie: creator.cookie },
        body: JSON.stringify({ segment: 'active', content }),
      });
      if (res.status !== 201) throw new Error(`mass message: ${res.status} ${await res.text()}`);
      const accepted = performance.now() - started;
      const { id, recipients } = (await res.json()) as { id: string; recipients: number };
      if (recipients !== count) throw new Error(`the segment has ${recipients} recipients, not ${count}`);
      // When the delivery process has appended every message (the write side), and when the read model shows them all.
      let appendedMs: number | null = null;
      let seen = 0;
      while ((seen = await shown(db, creator.id, content)) < count) {
        if (performance.now() - started > 120_000) throw new Error(`only ${seen} of ${count} delivered after 120 s`);
        if (appendedMs === null && (await store.readStream(`massMessage-${id}`)).length > 1)
          appendedMs = performance.now() - started;
        await sleep(25);
      }
      const deliveredMs = performance.now() - started;
      await settle(store, db);
      const baselineMs = await appendOneBatch(store, count, content);

      console.log('');
      console.log(`  POST /api/mass-messages answered             ${fmt(accepted).padStart(7)} ms`);
      if (appendedMs !== null)
        console.log(`  every recipient's message appended           ${fmt(appendedMs).padStart(7)} ms`);
      console.log(`  every recipient's conversation shows it      ${fmt(deliveredMs).padStart(7)} ms`);
      console.log(`  baseline: ${fmt(count)} events in one append     ${fmt(baselineMs).padStart(7)} ms`);
      const ok = deliveredMs < TARGET_MS;
      console.log(
        `\nfan-out to ${fmt(count)}: ${(deliveredMs / 1000).toFixed(2)} s (${(deliveredMs / baselineMs).toFixed(1)}x the one-batch append), target < ${TARGET_MS / 1000} s: ${ok ? 'PASS' : 'FAIL'}`,
      );
    } finally {
      await db.destroy();
      await store.close();
    }
  } finally {
    await stopProcesses(children);
    await database.drop();
  }
}
