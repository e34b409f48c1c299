import type { Knex } from 'knex';
import type { AnalyticsDay, CreatorAnalytics, PeriodTotals, TopPost } from '../domain/contracts/creator-insights';
import type {
  CreatorSubscriptionRefunded,
  CreatorSubscriptionRenewed,
  CreatorSubscriptionStarted,
} from '../domain/creators/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { EarningsCreditedData, EarningsReversedData } from '../domain/payouts/events';
import type { PostLiked, PostPublished } from '../domain/posts/events';
import type { ProjectionContext, Projector } from './engine/projector';

/**
 * A creator's analytics: counters per creator and UTC day (earnings, subscribers gained and
 * lost, posts, interactions), so a 90-day window is at most 180 rows read by primary key.
 *
 * Subscribers are counted in spells: a subscription that starts by the end of the member's
 * running spell continues it (a renewal), any other starts a new spell (gained on its first
 * day). A spell is lost on the day its paid period ends; a continuation moves that day. Lost
 * days in the future lie outside every window until they come.
 *
 * Idempotence: every event comes from one stream (creatorAccount-, creatorSubscription-,
 * post-), whose last applied revision is kept, so an event applied twice counts once.
 */

const DAILY = 'creator_daily_stats';
const SPELLS = 'creator_subscriber_spells';
const STREAMS = 'creator_analytics_streams';

const COUNTERS = [
  'earnings_cents',
  'subscribers_gained',
  'subscribers_lost',
  'posts_published',
  'interactions',
  'tips',
  'tips_cents',
  'unlocks',
  'unlocks_cents',
] as const;
type Counter = (typeof COUNTERS)[number];
type Deltas = Record<Counter, number>;

const dayOf = (instant: string | Date) => new Date(instant).toISOString().slice(0, 10);

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable(DAILY, (t) => {
    t.text('creator_id').notNullable();
    t.date('day').notNullable();
    t.bigInteger('earnings_cents').notNullable().defaultTo(0);
    t.integer('subscribers_gained').notNullable().defaultTo(0);
    t.integer('subscribers_lost').notNullable().defaultTo(0);
    t.integer('posts_published').notNullable().defaultTo(0);
    t.integer('interactions').notNullable().defaultTo(0);
    // Tips and paid-message unlocks (issue 21): how many, and what they paid (gross).
    t.integer('tips').notNullable().defaultTo(0);
    t.bigInteger('tips_cents').notNullable().defaultTo(0);
    t.integer('unlocks').notNullable().defaultTo(0);
    t.bigInteger('unlocks_cents').notNullable().defaultTo(0);
    t.primary(['creator_id', 'day']);
  });
  await db.schema.withSchema(schema).createTable(SPELLS, (t) => {
    t.text('creator_id').notNullable();
    t.text('subscriber_id').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.primary(['creator_id', 'subscriber_id']);
  });
  await db.schema.withSchema(schema).createTable(STREAMS, (t) => {
    t.text('stream_id').primary();
    t.bigInteger('revision').notNullable();
  });
}

/** The events not applied yet: newer than their stream's stored revision (and than their batch-mates). */
async function unapplied({ trx, ref }: ProjectionContext, events: RecordedEvent[]) {
  const streamIds = [...new Set(events.map((event) => event.streamId))];
  // One array parameter, not an IN list of thousands (a rebuild's page names ~7,000 streams).
  const { rows }: { rows: Array<{ stream_id: string; revision: string }> } = await trx.raw(
    `SELECT stream_id, revision FROM ${ref(STREAMS)} WHERE stream_id = ANY(?)`,
    [streamIds],
  );
  const stored = new Map(rows.map((row) => [row.stream_id, BigInt(row.revision)]));
  const revisions = new Map<string, bigint>();
  const fresh = events.filter((event) => {
    const last = revisions.get(event.streamId) ?? stored.get(event.streamId);
    if (last !== undefined && event.revision <= last) return false;
    revisions.set(event.streamId, event.revision);
    return true;
  });
  return { fresh, revisions };
}

interface Spell {
  startedAt: Date;
  endsAt: Date;
}

/** Daily deltas, keyed `creatorId|day`, and the spells an ordered run of events leaves. */
class Tally {
  readonly days = new Map<string, Deltas>();
  readonly changedSpells = new Map<string, Spell>();

  constructor(private readonly spells: Map<string, Spell>) {}

  add(creatorId: string, instant: string | Date, counter: Counter, amount: number) {
    const key = `${creatorId}|${dayOf(instant)}`;
    const deltas = this.days.get(key) ?? (Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Deltas);
    deltas[counter] += amount;
    this.days.set(key, deltas);
  }

  subscription(d: Pick<CreatorSubscriptionStarted['data'], 'creatorId' | 'subscriberId' | 'startDate' | 'endDate'>) {
    const key = `${d.creatorId}|${d.subscriberId}`;
    const start = new Date(d.startDate);
    const end = new Date(d.endDate);
    const spell = this.spells.get(key);
    let next: Spell;
    if (spell && start <= spell.endsAt) {
      if (end <= spell.endsAt) return;
      this.add(d.creatorId, spell.endsAt, 'subscribers_lost', -1);
      next = { startedAt: spell.startedAt, endsAt: end };
    } else {
      this.add(d.creatorId, start, 'subscribers_gained', 1);
      next = { startedAt: start, endsAt: end };
    }
    this.add(d.creatorId, end, 'subscribers_lost', 1);
    this.spells.set(key, next);
    this.changedSpells.set(key, next);
  }

  /** A refunded or charged-back subscription is lost on that day, not at its paid period's end. */
  refund(d: Pick<CreatorSubscriptionRefunded['data'], 'creatorId' | 'subscriberId' | 'at'>) {
    const key = `${d.creatorId}|${d.subscriberId}`;
    const spell = this.spells.get(key);
    const at = new Date(d.at);
    if (!spell || at >= spell.endsAt) return;
    this.add(d.creatorId, spell.endsAt, 'subscribers_lost', -1);
    this.add(d.creatorId, at, 'subscribers_lost', 1);
    const next = { startedAt: spell.startedAt, endsAt: at };
    this.spells.set(key, next);
    this.changedSpells.set(key, next);
  }

  /** A tip or an unlock counts on the day of its sale, with what it paid. */
  sale(d: EarningsCreditedData) {
    const kind = d.source === 'tip' ? 'tips' : d.source === 'message_unlock' ? 'unlocks' : null;
    if (!kind) return;
    this.add(d.creatorId, d.occurredAt, kind, 1);
    this.add(d.creatorId, d.occurredAt, `${kind}_cents`, d.grossCents);
  }

  event(event: RecordedEvent) {
    switch (event.type) {
      case 'CreatorSubscriptionStarted':
        return this.subscription(event.data as CreatorSubscriptionStarted['data']);
      case 'CreatorSubscriptionRenewed': {
        // A renewal continues the spell to the new period's end.
        const d = event.data as CreatorSubscriptionRenewed['data'];
        return this.subscription({ ...d, startDate: d.periodStart, endDate: d.periodEnd });
      }
      case 'CreatorSubscriptionRefunded':
      case 'CreatorSubscriptionChargeGivenBack':
        return this.refund(event.data as CreatorSubscriptionRefunded['data']);
      case 'EarningsCredited': {
        const d = event.data as EarningsCreditedData;
        this.sale(d);
        return this.add(d.creatorId, d.occurredAt, 'earnings_cents', d.creatorShareCents);
      }
      case 'EarningsReversed': {
        // Taken back on the day of the reversal, as the ledger books it.
        const d = event.data as EarningsReversedData;
        return this.add(d.creatorId, d.occurredAt, 'earnings_cents', -d.creatorShareCents);
      }
      case 'PostPublished': {
        const d = event.data as PostPublished['data'];
        return this.add(d.creatorId, d.publishedAt, 'posts_published', 1);
      }
      default: {
        const d = event.data as PostLiked['data'];
        return this.add(d.creatorId, d.at, 'interactions', event.type === 'PostUnliked' ? -1 : 1);
      }
    }
  }
}

/** The subscription events that start, continue or cut a subscriber's spell. */
const SUBSCRIPTION_EVENTS = [
  'CreatorSubscriptionStarted',
  'CreatorSubscriptionRenewed',
  'CreatorSubscriptionRefunded',
  'CreatorSubscriptionChargeGivenBack',
];

async function spellsOf({ trx, ref }: ProjectionContext, events: RecordedEvent[]): Promise<Map<string, Spell>> {
  const pairs = events
    .filter((event) => SUBSCRIPTION_EVENTS.includes(event.type))
    .map((event) => event.data as { creatorId: string; subscriberId: string });
  if (pairs.length === 0) return new Map();
  const { rows } = await trx.raw(
    `SELECT creator_id, subscriber_id, started_at, ends_at FROM ${ref(SPELLS)}
     WHERE (creator_id, subscriber_id) IN (SELECT * FROM unnest(?::text[], ?::text[]))`,
    [pairs.map((d) => d.creatorId), pairs.map((d) => d.subscriberId)],
  );
  return new Map(
    (rows as Array<{ creator_id: string; subscriber_id: string; started_at: Date; ends_at: Date }>).map((row) => [
      `${row.creator_id}|${row.subscriber_id}`,
      { startedAt: new Date(row.started_at), endsAt: new Date(row.ends_at) },
    ]),
  );
}

async function write({ trx, ref }: ProjectionContext, tally: Tally, revisions: Map<string, bigint>) {
  const days = [...tally.days];
  if (days.length > 0) {
    const columns = ['creator_id', 'day', ...COUNTERS];
    await trx.raw(
      `INSERT INTO ${ref(DAILY)} AS d (${columns.join(', ')})
       SELECT * FROM unnest(?::text[], ?::date[], ?::bigint[], ?::int[], ?::int[], ?::int[], ?::int[], ?::int[], ?::bigint[], ?::int[], ?::bigint[])
       ON CONFLICT (creator_id, day) DO UPDATE SET
       ${COUNTERS.map((c) => `${c} = d.${c} + excluded.${c}`).join(', ')}`,
      [
        days.map(([key]) => key.split('|')[0]),
        days.map(([key]) => key.split('|')[1]),
        ...COUNTERS.map((counter) => days.map(([, deltas]) => deltas[counter])),
      ],
    );
  }
  const spells = [...tally.changedSpells];
  if (spells.length > 0) {
    await trx.raw(
      `INSERT INTO ${ref(SPELLS)} (creator_id, subscriber_id, started_at, ends_at)
       SELECT * FROM unnest(?::text[], ?::text[], ?::timestamptz[], ?::timestamptz[])
       ON CONFLICT (creator_id, subscriber_id) DO UPDATE SET started_at = excluded.started_at, ends_at = excluded.ends_at`,
      [
        spells.map(([key]) => key.split('|')[0]),
        spells.map(([key]) => key.split('|')[1]),
        spells.map(([, spell]) => spell.startedAt.toISOString()),
        spells.map(([, spell]) => spell.endsAt.toISOString()),
      ],
    );
  }
  await trx.raw(
    `INSERT INTO ${ref(STREAMS)} (stream_id, revision) SELECT * FROM unnest(?::text[], ?::bigint[])
     ON CONFLICT (stream_id) DO UPDATE SET revision = excluded.revision`,
    [[...revisions.keys()], [...revisions.values()].map(String)],
  );
}

async function applyEvents(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const { fresh, revisions } = await unapplied(context, events);
  if (fresh.length === 0) return;
  const tally = new Tally(await spellsOf(context, fresh));
  for (const event of fresh) tally.event(event);
  await write(context, tally, revisions);
}

export const creatorAnalyticsProjector: Projector = {
  name: 'creator-analytics',
  version: 2,
  tables: [DAILY, SPELLS, STREAMS],
  eventTypes: [
    ...SUBSCRIPTION_EVENTS,
    'EarningsCredited',
    'EarningsReversed',
    'PostPublished',
    'PostLiked',
    'PostUnliked',
    'PostCommented',
  ],
  createTables,
  apply: (context, event) => applyEvents(context, [event]),
  applyAll: applyEvents,
};

// Queries: a window of days and the one before it, and the creator's most liked posts.

const DAY_MS = 86_400_000;
const emptyTotals = (): PeriodTotals => ({
  earningsCents: 0,
  subscribersGained: 0,
  subscribersLost: 0,
  postsPublished: 0,
  interactions: 0,
  tips: 0,
  tipsCents: 0,
  unlocks: 0,
  unlocksCents: 0,
});

interface DailyRow {
  day: string;
  earnings_cents: string;
  subscribers_gained: number;
  subscribers_lost: number;
  posts_published: number;
  interactions: number;
  tips: number;
  tips_cents: string;
  unlocks: number;
  unlocks_cents: string;
}

function addTo(totals: PeriodTotals, row: DailyRow) {
  totals.earningsCents += Number(row.earnings_cents);
  totals.subscribersGained += row.subscribers_gained;
  totals.subscribersLost += row.subscribers_lost;
  totals.postsPublished += row.posts_published;
  totals.interactions += row.interactions;
  totals.tips += row.tips;
  totals.tipsCents += Number(row.tips_cents);
  totals.unlocks += row.unlocks;
  totals.unlocksCents += Number(row.unlocks_cents);
}

/** The last `days` UTC days up to today (every day, zeros included), their totals and the previous window's. */
export async function creatorAnalytics(
  db: Knex,
  now: Date,
  creatorId: string,
  days: CreatorAnalytics['days'],
): Promise<CreatorAnalytics> {
  const today = Date.parse(dayOf(now));
  const from = dayOf(new Date(today - (days - 1) * DAY_MS));
  const previousFrom = dayOf(new Date(today - (2 * days - 1) * DAY_MS));
  const [rows, topPosts] = await Promise.all([
    db(DAILY)
      .where('creator_id', creatorId)
      .andWhereBetween('day', [previousFrom, dayOf(now)])
      .select(db.raw(`to_char(day, 'YYYY-MM-DD') AS day`), ...COUNTERS) as Promise<DailyRow[]>,
    mostLikedPosts(db, creatorId),
  ]);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const current = emptyTotals();
  const previous = emptyTotals();
  for (const row of rows) addTo(row.day >= from ? current : previous, row);
  const daily: AnalyticsDay[] = Array.from({ length: days }, (_, index) => {
    const date = dayOf(new Date(Date.parse(from) + index * DAY_MS));
    const row = byDay.get(date);
    return {
      date,
      earningsCents: Number(row?.earnings_cents ?? 0),
      subscribersGained: row?.subscribers_gained ?? 0,
      subscribersLost: row?.subscribers_lost ?? 0,
      tips: row?.tips ?? 0,
      tipsCents: Number(row?.tips_cents ?? 0),
      unlocks: row?.unlocks ?? 0,
      unlocksCents: Number(row?.unlocks_cents ?? 0),
    };
  });
  return { days, from, to: dayOf(now), daily, current, previous, topPosts };
}

/** The creator's five most liked posts (comments, then newest, break ties). */
async function mostLikedPosts(db: Knex, creatorId: string): Promise<TopPost[]> {
  const rows = await db('posts')
    .where('creator_id', creatorId)
    .orderBy([
      { column: 'like_count', order: 'desc' },
      { column: 'comment_count', order: 'desc' },
      { column: 'created_at', order: 'desc' },
    ])
    .limit(5)
    .select('id', 'title', 'like_count', 'comment_count');
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    likeCount: row.like_count,
    commentCount: row.comment_count,
  }));
}
