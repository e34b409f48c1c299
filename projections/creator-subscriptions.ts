import type { Knex } from 'knex';
import type { CreatorSubscriber, SubscribersPage } from '../domain/contracts/creator-insights';
import type { MemberSubscription } from '../domain/contracts/creator-subscriptions';
import type { SubscriptionCheck } from '../domain/contracts/creators';
import { formatCents } from '../domain/contracts/money';
import type { CreatorSubscriptionEvent, CreatorSubscriptionStarted } from '../domain/creators/events';
import { MONEY_BACK_DAYS } from '../domain/creators/subscription-decider';
import type { RecordedEvent } from '../domain/event-store/port';
import { preparedQuery } from './engine/database';
import { insertRuns } from './engine/insert-runs';
import type { ProjectionContext, Projector } from './engine/projector';
import type { PageRead, PageStatement } from './page-reads';
import { displayName, isUserId } from './users';

/**
 * One row per subscription (a member's run with a creator, renewals included). `end_date` is
 * when access ends as it stands (the paid period, the grace period when past due, the refund
 * time), so the readers of access need only `end_date > now`; `renews_at` is the next charge
 * attempt (null when it will not renew); `last_charge_at` starts the money-back guarantee.
 */
function rowOf(event: RecordedEvent) {
  if (event.type !== 'CreatorSubscriptionStarted') return null;
  const data = event.data as CreatorSubscriptionStarted['data'];
  return {
    id: data.subscriptionId,
    subscriber_id: data.subscriberId,
    creator_id: data.creatorId,
    tier_id: data.tierId,
    tier_name: data.tierName,
    price_cents: data.priceCents,
    status: 'active',
    start_date: data.startDate,
    end_date: data.endDate,
    transaction_id: data.transactionId,
    period_end: data.endDate,
    renews_at: data.endDate,
    last_charge_at: data.transactionId ? data.startDate : null,
    renew_from: 'card',
  };
}

/** The columns each later event of a subscription changes. */
function changesOf(event: CreatorSubscriptionEvent): Record<string, unknown> | null {
  const noNextTier = { next_tier_id: null, next_tier_name: null, next_price_cents: null };
  switch (event.type) {
    case 'CreatorSubscriptionStarted':
      return null;
    case 'CreatorSubscriptionRenewed': {
      const d = event.data;
      return {
        status: 'active',
        tier_id: d.tierId,
        tier_name: d.tierName,
        price_cents: d.priceCents,
        transaction_id: d.transactionId,
        period_end: d.periodEnd,
        end_date: d.periodEnd,
        renews_at: d.periodEnd,
        last_charge_at: d.renewedAt,
        ...noNextTier,
      };
    }
    case 'CreatorSubscriptionRenewalDeclined':
      return { status: 'past_due', end_date: event.data.graceEndsAt, renews_at: event.data.nextAttemptAt };
    case 'CreatorSubscriptionCanceled':
      return { status: 'canceled', end_date: event.data.accessUntil, renews_at: null, ...noNextTier };
    case 'CreatorSubscriptionResumed':
      return { status: 'active', end_date: event.data.periodEnd, renews_at: event.data.periodEnd };
    case 'CreatorSubscriptionTierChanged':
      return {
        next_tier_id: event.data.tierId,
        next_tier_name: event.data.tierName,
        next_price_cents: event.data.priceCents,
      };
    case 'CreatorSubscriptionRenewalSourceChanged':
      return { renew_from: event.data.source };
    case 'CreatorSubscriptionExpired':
      return { status: 'expired', renews_at: null };
    case 'CreatorSubscriptionRefunded':
    case 'CreatorSubscriptionChargeGivenBack':
      return { status: 'refunded', end_date: event.data.at, renews_at: null, last_charge_at: null, ...noNextTier };
  }
}

async function applyChange({ table }: ProjectionContext, event: RecordedEvent) {
  const change = changesOf(event as unknown as CreatorSubscriptionEvent);
  if (!change) return;
  const { subscriptionId } = event.data as { subscriptionId: string };
  await table('creator_subscriptions').where({ id: subscriptionId }).update(change);
  // Changing back to the paid tier before the period ends undoes the change.
  if (event.type === 'CreatorSubscriptionTierChanged')
    await table('creator_subscriptions')
      .where({ id: subscriptionId })
      .whereRaw('next_tier_id = tier_id')
      .update({ next_tier_id: null, next_tier_name: null, next_price_cents: null });
}

const EVENT_TYPES: CreatorSubscriptionEvent['type'][] = [
  'CreatorSubscriptionStarted',
  'CreatorSubscriptionRenewed',
  'CreatorSubscriptionRenewalDeclined',
  'CreatorSubscriptionCanceled',
  'CreatorSubscriptionResumed',
  'CreatorSubscriptionTierChanged',
  'CreatorSubscriptionExpired',
  'CreatorSubscriptionRefunded',
  'CreatorSubscriptionChargeGivenBack',
  'CreatorSubscriptionRenewalSourceChanged',
];

/** Members' subscriptions to creators: who may read whose locked posts, the feed's sources, renewals due. */
export const creatorSubscriptionsProjector: Projector = {
  name: 'creator-subscriptions',
  // 3: renewals, cancel, tier change and refunds (status, period_end, renews_at, next tier, last charge).
  // 4: how renewals are paid (renew_from: card or balance).
  // 5: the creator's index covers the price (issue 24: a creator's stats count sales per price from it).
  version: 5,
  tables: ['creator_subscriptions'],
  eventTypes: EVENT_TYPES,
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('creator_subscriptions', (t) => {
      t.text('id').primary();
      t.text('subscriber_id').notNullable();
      t.text('creator_id').notNullable();
      t.text('tier_id').notNullable();
      t.text('tier_name').notNullable();
      t.integer('price_cents').notNullable();
      t.text('status').notNullable().defaultTo('active');
      t.timestamp('start_date', { useTz: true }).notNullable();
      t.timestamp('end_date', { useTz: true }).notNullable();
      t.text('transaction_id');
      t.timestamp('period_end', { useTz: true }).notNullable();
      t.timestamp('renews_at', { useTz: true });
      t.timestamp('last_charge_at', { useTz: true });
      t.text('next_tier_id');
      t.text('next_tier_name');
      t.integer('next_price_cents');
      t.text('renew_from').notNullable().defaultTo('card');
      t.index(['subscriber_id', 'end_date', 'creator_id']);
    });
    // A creator's current subscribers (the creator list counts them per row) and their sales per price
    // (a creator's stats) are read from the index alone.
    await db.raw(
      `CREATE INDEX ON "${schema}"."creator_subscriptions" (creator_id, end_date) INCLUDE (subscriber_id, price_cents)`,
    );
    // The renewal tick's due list: renewing rows by their next attempt.
    await db.raw(
      `CREATE INDEX ON "${schema}"."creator_subscriptions" (renews_at) WHERE status IN ('active', 'past_due')`,
    );
  },
  async apply(context, event) {
    const row = rowOf(event);
    if (row) await context.table('creator_subscriptions').insert(row).onConflict('id').ignore();
    else await applyChange(context, event);
  },
  applyAll: insertRuns({ table: 'creator_subscriptions', conflict: ['id'], rowOf }, (c, e) =>
    creatorSubscriptionsProjector.apply(c, e),
  ),
};

/**
 * How many members subscribe to `creator` while their period runs at `now` (SQL expressions), as
 * an index-only count of rows. A member has at most one running row per creator: a run's stream
 * is the member's with the creator, which refuses a new run while one is active, and a run's
 * `end_date` never passes the point at which the stream lets the next one start (a refund ends it
 * at the refund). So counting rows counts members, without grouping them (a third of home's
 * database time when it grouped).
 */
export const runningSubscribersSql = (creator: string, now: string) =>
  `(SELECT count(*) FROM creator_subscriptions s WHERE s.creator_id = ${creator} AND s.end_date > ${now})`;

/**
 * The member-creator pairs whose subscription needs the renewal process now: a charge attempt
 * is due, or access ran out without renewal (to expire). The stream re-checks each.
 */
export async function creatorSubscriptionsDue(
  db: Knex,
  now: Date,
  limit = 500,
): Promise<Array<{ subscriberId: string; creatorId: string }>> {
  const rows = await db('creator_subscriptions')
    .select('subscriber_id', 'creator_id')
    .where((where) =>
      where
        .where((due) => due.whereIn('status', ['active', 'past_due']).andWhere('renews_at', '<=', now))
        .orWhere((over) =>
          over.whereIn('status', ['canceled', 'past_due']).whereNull('renews_at').andWhere('end_date', '<=', now),
        ),
    )
    .orderBy('end_date')
    .limit(limit);
  return rows.map((row) => ({ subscriberId: row.subscriber_id, creatorId: row.creator_id }));
}

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

interface MemberRow {
  id: string;
  creator_id: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  tier_id: string;
  tier_name: string;
  price_cents: number;
  status: MemberSubscription['status'];
  start_date: Date;
  end_date: Date;
  period_end: Date;
  renews_at: Date | null;
  last_charge_at: Date | null;
  next_tier_id: string | null;
  next_tier_name: string | null;
  next_price_cents: number | null;
  renew_from: MemberSubscription['renewFrom'];
}

/** A subscription row as its member sees it at `now`. */
function memberView(row: MemberRow, now: Date): MemberSubscription {
  const renewing = row.status === 'active' || (row.status === 'past_due' && row.renews_at !== null);
  const refundableUntil =
    row.last_charge_at && new Date(row.end_date) > now
      ? new Date(new Date(row.last_charge_at).getTime() + MONEY_BACK_DAYS * 86_400_000)
      : null;
  return {
    id: row.id,
    creatorId: row.creator_id,
    creatorName: displayName(row, 'Creator'),
    creatorAvatarUrl: row.profile_image_url ?? null,
    tierId: row.tier_id,
    tierName: row.tier_name,
    price: formatCents(row.price_cents),
    status: row.status,
    startedAt: iso(row.start_date)!,
    periodEnd: iso(row.period_end)!,
    renewsAt: renewing ? iso(row.renews_at) : null,
    endsAt: row.status === 'active' ? null : iso(row.end_date),
    nextTier: row.next_tier_id
      ? { tierId: row.next_tier_id, tierName: row.next_tier_name ?? '', price: formatCents(row.next_price_cents ?? 0) }
      : null,
    refundableUntil: refundableUntil && refundableUntil > now ? refundableUntil.toISOString() : null,
    renewFrom: row.renew_from,
  };
}

/** A subscription's columns as its member sees them, with the creator's name and avatar (`s`, `u`). */
const MEMBER_COLUMNS = `s.id, s.creator_id, u.first_name, u.last_name, u.profile_image_url, s.tier_id, s.tier_name,
    s.price_cents, s.status, s.start_date, s.end_date, s.period_end, s.renews_at, s.last_charge_at, s.next_tier_id,
    s.next_tier_name, s.next_price_cents, s.renew_from`;
const CREATOR_USER = 'LEFT JOIN users u ON u.id = s.creator_id::uuid';

/** The viewer's (`$1`) subscriptions, the latest one per creator (the creator's user joined to that one only). */
const MEMBER_SUBSCRIPTIONS: PageStatement = {
  name: 'member-subscriptions',
  text: `SELECT ${MEMBER_COLUMNS}
  FROM (SELECT DISTINCT ON (creator_id) * FROM creator_subscriptions WHERE subscriber_id = $1
    ORDER BY creator_id, start_date DESC) s
  ${CREATOR_USER}`,
};

/** The viewer's subscriptions, the latest one per creator, running ones first, then by start (newest first). */
export async function memberSubscriptions(read: PageRead, now: Date): Promise<MemberSubscription[]> {
  const rows = await read<MemberRow>(MEMBER_SUBSCRIPTIONS, []);
  const views = rows.map((row) => memberView(row, now));
  const running = (view: MemberSubscription) => (view.status === 'expired' || view.status === 'refunded' ? 1 : 0);
  // ISO times of one format order as plain strings (localeCompare's collation costs more per pair).
  const newestFirst = (a: MemberSubscription, b: MemberSubscription) =>
    a.startedAt === b.startedAt ? 0 : a.startedAt < b.startedAt ? 1 : -1;
  return views.sort((a, b) => running(a) - running(b) || newestFirst(a, b));
}

/** Subscription `$2` when it is `$1`'s. */
const MEMBER_SUBSCRIPTION = `SELECT ${MEMBER_COLUMNS} FROM creator_subscriptions s ${CREATOR_USER}
  WHERE s.id = $2 AND s.subscriber_id = $1`;

/** One subscription of the member (null when it is not theirs). */
export async function memberSubscription(
  db: Knex,
  now: Date,
  subscriberId: string,
  subscriptionId: string,
): Promise<MemberSubscription | null> {
  const [row] = await preparedQuery<MemberRow>(db, 'member-subscription', MEMBER_SUBSCRIPTION, [
    subscriberId,
    subscriptionId,
  ]);
  return row ? memberView(row, now) : null;
}

/** `$1`'s latest subscription to creator `$2`. */
const LATEST_SUBSCRIPTION = `SELECT ${MEMBER_COLUMNS} FROM creator_subscriptions s ${CREATOR_USER}
  WHERE s.subscriber_id = $1 AND s.creator_id = $2 ORDER BY s.start_date DESC LIMIT 1`;

/** The member's latest subscription to the creator (running or not), as they see it. */
export async function latestSubscriptionTo(
  db: Knex,
  now: Date,
  subscriberId: string,
  creatorId: string,
): Promise<MemberSubscription | null> {
  const [row] = await preparedQuery<MemberRow>(db, 'latest-subscription', LATEST_SUBSCRIPTION, [
    subscriberId,
    creatorId,
  ]);
  return row ? memberView(row, now) : null;
}

/**
 * Whether the viewer (`$1`) subscribes to creator `$2` at `$3`: one row while `$2` is a creator
 * (none otherwise), with the running subscription's tier and end (nulls when none runs) and,
 * while one runs, the latest subscription to them as the member sees it.
 */
const SUBSCRIPTION_CHECK: PageStatement = {
  name: 'subscription-check',
  text: `SELECT a.tier_id AS running_tier_id, a.end_date AS running_end_date, ${MEMBER_COLUMNS}
  FROM creators c
  LEFT JOIN LATERAL (SELECT tier_id, end_date FROM creator_subscriptions
    WHERE subscriber_id = $1 AND creator_id = c.user_id AND end_date > $3 ORDER BY end_date DESC LIMIT 1) a ON true
  LEFT JOIN LATERAL (SELECT * FROM creator_subscriptions
    WHERE subscriber_id = $1 AND creator_id = c.user_id ORDER BY start_date DESC LIMIT 1) s ON a.end_date IS NOT NULL
  ${CREATOR_USER}
  WHERE c.user_id = $2`,
};

/**
 * The viewer's subscription check of the creator page: the running subscription's tier and end,
 * with the latest subscription's state; null when `creatorId` is no creator. One round trip: the
 * creator page asks on every load.
 */
export async function subscriptionCheck(
  read: PageRead,
  now: Date,
  creatorId: string,
): Promise<SubscriptionCheck | null> {
  const [row] = await read<MemberRow & { running_tier_id: string | null; running_end_date: Date | null }>(
    SUBSCRIPTION_CHECK,
    [creatorId, now],
  );
  if (!row) return null;
  if (row.running_end_date === null) return { subscribed: false, tierId: null, endDate: null, subscription: null };
  return {
    subscribed: true,
    tierId: row.running_tier_id,
    endDate: iso(row.running_end_date),
    subscription: memberView(row, now),
  };
}

/** The running subscription of a member to a creator, if any. */
export async function activeSubscription(db: Knex, now: Date, subscriberId: string, creatorId: string) {
  return db('creator_subscriptions')
    .where({ subscriber_id: subscriberId, creator_id: creatorId })
    .andWhere('end_date', '>', now)
    .orderBy('end_date', 'desc')
    .first();
}

/** Creators whose locked posts the member may read right now (own posts included). */
export async function readableCreatorIds(db: Knex, now: Date, viewerId: string): Promise<Set<string>> {
  const rows = await db('creator_subscriptions')
    .distinct('creator_id')
    .where({ subscriber_id: viewerId })
    .andWhere('end_date', '>', now);
  return new Set([viewerId, ...rows.map((row) => row.creator_id as string)]);
}

// The creator's subscribers (issue 19): one row per member, joined with users for names.

export interface SubscriberCursor {
  since: Date;
  subscriberId: string;
}

/** The cursor after a row: its first-subscribed time and id, the list's order (newest first). */
const subscriberCursor = (cursor: SubscriberCursor) =>
  Buffer.from(`${cursor.since.toISOString()}|${cursor.subscriberId}`).toString('base64url');

/** A cursor made by `subscriberCursor`, or null for any other text. */
export function parseSubscriberCursor(text: string): SubscriberCursor | null {
  const [since, subscriberId, ...rest] = Buffer.from(text, 'base64url').toString().split('|');
  const at = new Date(since);
  if (rest.length > 0 || !subscriberId || !isUserId(subscriberId) || Number.isNaN(at.getTime())) return null;
  return { since: at, subscriberId };
}

interface SubscriberRow {
  subscriber_id: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  tier_name: string;
  since: Date;
  ends_at: Date;
  renews: boolean;
  renews_at: Date | null;
}

function subscriberView(row: SubscriberRow, now: Date): CreatorSubscriber {
  const endsAt = new Date(row.ends_at);
  return {
    userId: row.subscriber_id,
    name: displayName(row),
    avatarUrl: row.profile_image_url,
    tierName: row.tier_name,
    since: new Date(row.since).toISOString(),
    status: endsAt > now ? 'active' : 'ended',
    ...(row.renews && endsAt > now
      ? { renews: true, renewsAt: new Date(row.renews_at!).toISOString() }
      : { renews: false, endsAt: endsAt.toISOString() }),
  };
}

/**
 * Members who ever subscribed to the creator, newest first: first subscription, the latest
 * one's tier and end. `active` while that end is ahead of `now`. `q` matches first, last and
 * full name, case-insensitively (never the email). Keyset pages after `after`.
 */
export async function creatorSubscribers(
  db: Knex,
  now: Date,
  creatorId: string,
  options: { q?: string; status?: 'active' | 'ended'; after?: SubscriberCursor | null; limit: number },
): Promise<SubscribersPage> {
  const members = db('creator_subscriptions')
    .where('creator_id', creatorId)
    .groupBy('subscriber_id')
    .select(
      'subscriber_id',
      db.raw('min(start_date) AS since'),
      db.raw('max(end_date) AS ends_at'),
      db.raw('(array_agg(tier_name ORDER BY end_date DESC))[1] AS tier_name'),
      db.raw(`bool_or(status IN ('active', 'past_due') AND renews_at IS NOT NULL) AS renews`),
      db.raw(`max(renews_at) FILTER (WHERE status IN ('active', 'past_due')) AS renews_at`),
    );
  const query = db
    .with('s', members)
    .from('s')
    .join('users as u', 'u.id', db.raw('s.subscriber_id::uuid'))
    .select('s.*', 'u.first_name', 'u.last_name', 'u.profile_image_url')
    .orderBy([
      { column: 's.since', order: 'desc' },
      { column: 's.subscriber_id', order: 'desc' },
    ])
    .limit(options.limit + 1);
  if (options.status) query.where('s.ends_at', options.status === 'active' ? '>' : '<=', now);
  if (options.after)
    query.whereRaw('(s.since, s.subscriber_id) < (?, ?)', [options.after.since, options.after.subscriberId]);
  const q = options.q?.trim();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query.where((where) =>
      where
        .whereILike('u.first_name', pattern)
        .orWhereILike('u.last_name', pattern)
        .orWhereRaw(`concat_ws(' ', u.first_name, u.last_name) ILIKE ?`, [pattern]),
    );
  }
  const rows: SubscriberRow[] = await query;
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    subscribers: page.map((row) => subscriberView(row, now)),
    nextCursor:
      rows.length > options.limit && last
        ? subscriberCursor({ since: new Date(last.since), subscriberId: last.subscriber_id })
        : null,
  };
}
