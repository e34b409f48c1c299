import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { creatorAnalytics, creatorAnalyticsProjector } from './creator-analytics';
import { projectionContext, type Projector } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';
import { postsProjector } from './posts';

let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

const creator = '11111111-1111-4111-8111-111111111111';
const [m1, m2, m3] = ['2', '3', '4'].map(
  (digit) => `${digit.repeat(8)}-${digit.repeat(4)}-4${digit.repeat(3)}-8${digit.repeat(3)}-${digit.repeat(12)}`,
);
const post = '55555555-5555-4555-8555-555555555555';
const ANY = { expectedRevision: 'any' } as const;
const now = new Date('2026-03-31T12:00:00Z');
const at = (day: string) => `2026-${day}T10:00:00.000Z`;

async function subscribe(member: string, start: string, end: string) {
  await store.append(
    `creatorSubscription-${member}_${creator}`,
    [
      {
        type: 'CreatorSubscriptionStarted',
        data: {
          subscriptionId: `${member}-${start}`,
          subscriberId: member,
          creatorId: creator,
          tierId: 't1',
          tierName: 'Gold',
          priceCents: 999,
          transactionId: `tx-${member}-${start}`,
          startDate: at(start),
          endDate: at(end),
        },
      },
    ],
    ANY,
  );
}

/** A later event of the member's subscription (renewal, refund, issue 21). */
const subscriptionEvent = (member: string, type: string, data: Record<string, unknown>) =>
  store.append(
    `creatorSubscription-${member}_${creator}`,
    [{ type, data: { subscriptionId: `${member}-sub`, subscriberId: member, creatorId: creator, ...data } }],
    ANY,
  );

const earnings = (type: string, reference: string, cents: number, day: string, sale: Record<string, unknown> = {}) =>
  store.append(
    `creatorAccount-${creator}`,
    [
      {
        type,
        data: {
          creatorId: creator,
          reference,
          creatorShareCents: cents,
          platformFeeCents: 0,
          occurredAt: at(day),
          ...sale,
        },
      },
    ],
    ANY,
  );

const onPost = (type: string, data: Record<string, unknown>) =>
  store.append(`post-${post}`, [{ type, data: { postId: post, creatorId: creator, userId: m1, ...data } }], ANY);

let log: RecordedEvent[];

beforeAll(async () => {
  // m2 subscribed in the previous window and renewed without a gap: lost day moves past today.
  await subscribe(m2, '02-10', '03-10');
  await subscriptionEvent(m2, 'CreatorSubscriptionRenewed', {
    renewalId: 'r1',
    tierId: 't1',
    tierName: 'Gold',
    priceCents: 999,
    transactionId: 'tx-r1',
    periodStart: at('03-10'),
    periodEnd: at('04-10'),
    renewedAt: at('03-10'),
  });
  // m3 lapsed in the previous window and came back in this one.
  await subscribe(m3, '01-05', '02-05');
  await subscribe(m3, '03-15', '04-15');
  // m3 claimed the money-back guarantee on 03-18: lost that day, not at the period's end.
  await subscriptionEvent(m3, 'CreatorSubscriptionRefunded', {
    transactionId: `tx-${m3}-03-15`,
    gatewayRefundId: 're-1',
    amountCents: 999,
    reason: 'money-back guarantee',
    at: at('03-18'),
    saleReference: 'creatorSubscription:x',
  });
  await subscribe(m1, '03-20', '04-20');
  await earnings('EarningsCredited', 'a', 450, '02-10');
  await earnings('EarningsCredited', 'b', 899, '03-20');
  await earnings('EarningsReversed', 'a', 450, '03-25');
  // A tip and an unlock (issue 21) count with what they paid, gross.
  await earnings('EarningsCredited', 'tip:t1', 900, '03-22', { source: 'tip', grossCents: 1000 });
  await earnings('EarningsCredited', 'messageUnlock:m1', 360, '03-22', { source: 'message_unlock', grossCents: 400 });
  await store.append(
    `post-other`,
    [
      {
        type: 'PostPublished',
        data: {
          postId: 'other',
          creatorId: creator,
          title: 'Older',
          content: '',
          isPublic: true,
          publishedAt: at('03-01'),
        },
      },
    ],
    ANY,
  );
  await onPost('PostPublished', { title: 'Newer', content: '', isPublic: false, publishedAt: at('03-05') });
  await onPost('PostLiked', { at: at('03-06') });
  await onPost('PostUnliked', { at: at('03-07') });
  await onPost('PostLiked', { at: at('03-08') });
  await onPost('PostCommented', { commentId: 'c1', content: 'hi', at: at('03-08') });
  log = await readWholeLog(store);
});

async function buildInPublic(projector: Projector) {
  await projector.createTables(db, 'public');
  await db.transaction(async (trx) => {
    const context = projectionContext(trx, 'public');
    for (const event of log) if (projector.eventTypes.includes(event.type)) await projector.apply(context, event);
  });
}

describe('creator analytics read model', () => {
  it('is idempotent: every event applied twice leaves the same rows', async () => {
    const { once, twice } = await replayTwice(db, creatorAnalyticsProjector, log);
    expect(twice).toEqual(once);
    expect(once.creator_daily_stats.length).toBeGreaterThan(5);
  });

  it('applies a whole batch as one by one', async () => {
    const schema = 'analytics_batch';
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE; CREATE SCHEMA "${schema}"`);
    await creatorAnalyticsProjector.createTables(db, schema);
    const handled = log.filter((event) => creatorAnalyticsProjector.eventTypes.includes(event.type));
    await db.transaction((trx) => creatorAnalyticsProjector.applyAll!(projectionContext(trx, schema), handled));
    const { once } = await replayTwice(db, creatorAnalyticsProjector, log);
    expect(await dumpTables(db, creatorAnalyticsProjector, schema)).toEqual(once);
  });

  it('answers a 30-day window with every day, its totals and the previous window', async () => {
    await buildInPublic(creatorAnalyticsProjector);
    await buildInPublic(postsProjector);
    const analytics = await creatorAnalytics(db, now, creator, 30);
    expect(analytics).toMatchObject({ days: 30, from: '2026-03-02', to: '2026-03-31' });
    expect(analytics.daily).toHaveLength(30);
    expect(analytics.daily[0]).toEqual({
      date: '2026-03-02',
      earningsCents: 0,
      subscribersGained: 0,
      subscribersLost: 0,
      tips: 0,
      tipsCents: 0,
      unlocks: 0,
      unlocksCents: 0,
    });
    expect(analytics.daily.find((day) => day.date === '2026-03-22')).toMatchObject({
      earningsCents: 1260,
      tips: 1,
      tipsCents: 1000,
      unlocks: 1,
      unlocksCents: 400,
    });
    expect(analytics.daily.find((day) => day.date === '2026-03-20')).toMatchObject({
      earningsCents: 899,
      subscribersGained: 1,
    });
    expect(analytics.daily.find((day) => day.date === '2026-03-25')).toMatchObject({ earningsCents: -450 });
    // m2's renewal moved the loss of 03-10 to 04-10, still ahead.
    expect(analytics.daily.find((day) => day.date === '2026-03-10')).toMatchObject({ subscribersLost: 0 });
    expect(analytics.daily.find((day) => day.date === '2026-03-18')).toMatchObject({ subscribersLost: 1 });
    expect(analytics.current).toEqual({
      earningsCents: 1709,
      subscribersGained: 2,
      subscribersLost: 1,
      postsPublished: 1,
      interactions: 2,
      tips: 1,
      tipsCents: 1000,
      unlocks: 1,
      unlocksCents: 400,
    });
    expect(analytics.previous).toEqual({
      earningsCents: 450,
      subscribersGained: 1,
      subscribersLost: 1,
      postsPublished: 1,
      interactions: 0,
      tips: 0,
      tipsCents: 0,
      unlocks: 0,
      unlocksCents: 0,
    });
    expect(analytics.topPosts).toEqual([
      { id: post, title: 'Newer', likeCount: 1, commentCount: 1 },
      { id: 'other', title: 'Older', likeCount: 0, commentCount: 0 },
    ]);
  });

  it('has a day for each of 7 and 90 days too, zeros for a creator without data', async () => {
    const quiet = await creatorAnalytics(db, now, '99999999-9999-4999-8999-999999999999', 7);
    expect(quiet.daily.map((day) => day.date)).toEqual([
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
      '2026-03-31',
    ]);
    expect(quiet.current).toEqual(quiet.previous);
    expect(quiet.topPosts).toEqual([]);
    const long = await creatorAnalytics(db, now, creator, 90);
    expect(long.daily).toHaveLength(90);
    expect(long.from).toBe('2026-01-01');
    expect(long.current.subscribersGained).toBe(4);
    // m3's lapse on 02-05 and the money-back claim on 03-18.
    expect(long.current.subscribersLost).toBe(2);
  });
});
