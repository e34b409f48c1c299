import type { Knex } from 'knex';
import type { CreatorSubscriber, SubscribersPage } from '../domain/contracts/creator-insights';
import type { CreatorSubscriptionStarted } from '../domain/creators/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { insertRuns } from './engine/insert-runs';
import type { Projector } from './engine/projector';
import { displayName, isUserId } from './users';

function rowOf(event: RecordedEvent) {
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
  };
}

/** Members' subscriptions to creators: who may read whose locked posts, and the feed's sources. */
export const creatorSubscriptionsProjector: Projector = {
  name: 'creator-subscriptions',
  version: 2,
  tables: ['creator_subscriptions'],
  eventTypes: ['CreatorSubscriptionStarted'],
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
      t.text('transaction_id').notNullable();
      t.index(['subscriber_id', 'end_date', 'creator_id']);
    });
    // A creator's current subscribers are counted from the index alone (the creator list counts them per row).
    await db.raw(`CREATE INDEX ON "${schema}"."creator_subscriptions" (creator_id, end_date) INCLUDE (subscriber_id)`);
  },
  async apply({ table }, event) {
    await table('creator_subscriptions').insert(rowOf(event)).onConflict('id').ignore();
  },
  applyAll: insertRuns({ table: 'creator_subscriptions', conflict: ['id'], rowOf }, (c, e) =>
    creatorSubscriptionsProjector.apply(c, e),
  ),
};

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
}

function subscriberView(row: SubscriberRow, now: Date): CreatorSubscriber {
  const endsAt = new Date(row.ends_at);
  // A creator-tier subscription is one paid month today: it ends, it does not renew.
  return {
    userId: row.subscriber_id,
    name: displayName(row),
    avatarUrl: row.profile_image_url,
    tierName: row.tier_name,
    since: new Date(row.since).toISOString(),
    status: endsAt > now ? 'active' : 'ended',
    renews: false,
    endsAt: endsAt.toISOString(),
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
