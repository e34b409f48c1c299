import type { Knex } from 'knex';
import { DEFAULT_CREATOR_BIO, type Creator, type CreatorStats, type Tier } from '../domain/contracts/creators';
import { formatCents } from '../domain/contracts/money';
import type { RecordedEvent } from '../domain/event-store/port';
import type { CreatorRegistered, CreatorWatermarkSet, TierData } from '../domain/creators/events';
import { FALLBACK_TIERS } from '../domain/creators/fallback-tiers';
import { publicMediaUrl, type ProfileImageSetData } from '../domain/media/profile-images';
import { splitEarnings } from '../domain/payouts/money';
import { runningSubscribersSql } from './creator-subscriptions';
import { forgettingAccounts } from './engine/forgetting-accounts';
import { rowPerEvent, type Row } from './engine/keyed-rows';
import type { Projector } from './engine/projector';
import type { PageRead, PageStatement } from './page-reads';
import { verifiedColumn } from './verifications';
import { displayName, isUserId } from './users';

/**
 * The price label ("from ...") of a creator without tiers: the cheapest fallback tier, the one the tier
 * dialog offers first (SPEC §9 Basic 9.99), not a price nobody can subscribe at.
 */
export const NO_TIERS_PRICE = formatCents(Math.min(...FALLBACK_TIERS.map((tier) => tier.priceCents)));

/**
 * Creators (bio, cover, watermark setting) and their tiers. Names and avatars come from the
 * users read model.
 */
export const creatorsProjector: Projector = {
  name: 'creators',
  // 4: AccountDeleted (issue 23).
  // 5: tiers indexed by (creator, price, creation): the card's cheapest price and the tier list in order (issue 24).
  version: 5,
  tables: ['creators', 'subscription_tiers'],
  eventTypes: ['CreatorRegistered', 'TierCreated', 'TierUpdated', 'CreatorWatermarkSet', 'CoverSet', 'AccountDeleted'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('creators', (t) => {
      t.text('user_id').primary();
      t.text('bio').notNullable();
      t.text('cover_image_url');
      t.timestamp('registered_at', { useTz: true }).notNullable();
      t.boolean('watermark_enabled').notNullable().defaultTo(false);
      // The creator list's order: its first page is read in order, not sorted from all.
      t.index(['registered_at', 'user_id']);
    });
    await db.schema.withSchema(schema).createTable('subscription_tiers', (t) => {
      t.text('id').primary();
      t.text('creator_id').notNullable();
      t.text('name').notNullable();
      t.text('description').notNullable();
      t.integer('price_cents').notNullable();
      t.jsonb('features').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
      // A creator's tiers, cheapest first: min(price_cents) reads one entry, CREATOR_TIERS reads them in order.
      t.index(['creator_id', 'price_cents', 'created_at']);
    });
  },
  // Every event but AccountDeleted names its row: a few statements a batch, not one an event
  // (a rebuild's first pages, where the creators sign up, held a connection for seconds).
  ...forgettingAccounts(
    async (context, events) => {
      // Creators and tiers are apart: each table's events in order, one table after the other.
      const [tiers, creators] = partition(events, isTierEvent);
      await creatorRows.applyAll(context, creators);
      await tierRows.applyAll(context, tiers);
    },
    async ({ table }, userId) => {
      // Issue 23: a deleted creator leaves listings, search and their page (a 404, as for anyone not a creator).
      await table('creators').where({ user_id: userId }).delete();
      await table('subscription_tiers').where({ creator_id: userId }).delete();
    },
  ),
};

const isTierEvent = (event: RecordedEvent) => event.type === 'TierCreated' || event.type === 'TierUpdated';

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

/**
 * A creator's row after CreatorRegistered (inserted, or its columns overwritten), CoverSet or
 * CreatorWatermarkSet (a stored row changed). Object.assign rather than spreads: see `row` in
 * billing-history.ts.
 */
function nextCreator(row: Row | undefined, event: RecordedEvent): Row | undefined {
  if (event.type === 'CreatorRegistered') {
    const data = (event as RecordedEvent<CreatorRegistered['data']>).data;
    const registered = {
      user_id: data.userId,
      bio: data.bio,
      cover_image_url: data.coverImageUrl,
      registered_at: data.registeredAt,
    };
    return Object.assign({ watermark_enabled: false }, row, registered);
  }
  if (event.type === 'CoverSet') {
    const data = event.data as ProfileImageSetData;
    return row && Object.assign({}, row, { cover_image_url: publicMediaUrl(data.mediaId, data.variant) });
  }
  const data = (event as RecordedEvent<CreatorWatermarkSet['data']>).data;
  return row && Object.assign({}, row, { watermark_enabled: data.enabled });
}

const creatorOf = (event: RecordedEvent) =>
  event.type === 'CreatorWatermarkSet'
    ? (event.data as CreatorWatermarkSet['data']).creatorId
    : (event.data as { userId: string }).userId;

/** A tier's row after TierCreated (the whole row written) or TierUpdated (a stored row changed). */
function nextTier(row: Row | undefined, event: RecordedEvent): Row | undefined {
  const data = event.data as TierData;
  const tier = {
    id: data.tierId,
    creator_id: data.creatorId,
    name: data.name,
    description: data.description,
    price_cents: data.priceCents,
    features: data.features, // a value: bulk writes take jsonb as values
    updated_at: data.at,
  };
  if (event.type === 'TierCreated') return Object.assign(tier, { created_at: data.at });
  return row && Object.assign({}, row, tier);
}

const creatorRows = rowPerEvent('creators', 'user_id', creatorOf, nextCreator);
const tierRows = rowPerEvent('subscription_tiers', 'id', (event) => (event.data as TierData).tierId, nextTier);

// Queries: creators with their names (users), tiers, counts and stats.

interface CreatorRow {
  user_id: string;
  bio: string;
  cover_image_url: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  min_price: number | null;
  post_count: string;
  subscriber_count: string;
  verified: boolean;
}

function creatorView(row: CreatorRow): Creator {
  return {
    id: row.user_id,
    name: displayName(row, 'Creator'),
    firstName: row.first_name,
    lastName: row.last_name,
    bio: row.bio.trim() || DEFAULT_CREATOR_BIO,
    coverImageUrl: row.cover_image_url,
    profileImageUrl: row.profile_image_url,
    price: row.min_price === null ? NO_TIERS_PRICE : formatCents(row.min_price),
    postCount: Number(row.post_count),
    subscriberCount: Number(row.subscriber_count),
    verified: row.verified,
  };
}

/**
 * A creator's card, as a page statement without a viewer: `$2` is now (subscribers are counted
 * while their period runs). `verified` is a subquery of its own, so that over a list PostgreSQL
 * probes the index per card rather than hashing the whole table.
 */
const CREATOR_CARD = `SELECT c.user_id, c.bio, c.cover_image_url, u.first_name, u.last_name, u.profile_image_url,
    (SELECT min(t.price_cents) FROM subscription_tiers t WHERE t.creator_id = c.user_id) AS min_price,
    (SELECT count(*) FROM posts p WHERE p.creator_id = c.user_id) AS post_count,
    ${runningSubscribersSql('c.user_id', '$2')} AS subscriber_count,
    (SELECT ${verifiedColumn('c.user_id::uuid')}) AS verified
  FROM creators c JOIN users u ON u.id = c.user_id::uuid`;

/** The first `$3` creators in registration order. */
const CREATOR_LIST: PageStatement = {
  name: 'creator-list',
  text: `${CREATOR_CARD} ORDER BY c.registered_at, c.user_id LIMIT $3`,
};

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
const FULL_NAME = `concat_ws(' ', u.first_name, u.last_name)`;
/** The first `$3` matches; `$4` is the query as a contained pattern, `$5` as a prefix. */
const CREATOR_SEARCH: PageStatement = {
  name: 'creator-search',
  text: `${CREATOR_CARD}
  WHERE u.first_name ILIKE $4 OR u.last_name ILIKE $4 OR ${FULL_NAME} ILIKE $4 OR c.bio ILIKE $4
  ORDER BY CASE WHEN u.first_name ILIKE $5 OR u.last_name ILIKE $5 OR ${FULL_NAME} ILIKE $5 THEN 0
    WHEN ${FULL_NAME} ILIKE $4 THEN 1 ELSE 2 END, c.registered_at, c.user_id
  LIMIT $3`,
};

/** The card of one creator (`$3`). */
const ONE_CREATOR: PageStatement = { name: 'creator-card', text: `${CREATOR_CARD} WHERE c.user_id = $3` };

/**
 * Creators in registration order; `q` matches first name, last name, full name and bio (never the
 * email), case-insensitively. With `q`, names that start with it come first, then other name
 * matches, then bio matches (the search box's suggestions show the likeliest first).
 */
export async function listCreators(
  read: PageRead,
  now: Date,
  options: { q?: string; limit?: number } = {},
): Promise<Creator[]> {
  const limit = options.limit ?? 100;
  const q = options.q?.trim();
  // Page statements: the list every page load asks for is planned once per connection.
  const rows = q
    ? await read<CreatorRow>(CREATOR_SEARCH, [now, limit, `%${likeEscaped(q)}%`, `${likeEscaped(q)}%`])
    : await read<CreatorRow>(CREATOR_LIST, [now, limit]);
  return rows.map(creatorView);
}

export async function findCreator(read: PageRead, now: Date, creatorId: string): Promise<Creator | null> {
  if (!isUserId(creatorId)) return null;
  const [row] = await read<CreatorRow>(ONE_CREATOR, [now, creatorId]);
  return row ? creatorView(row) : null;
}

/** Whether the creator's images carry the viewer watermark (false for anyone not a creator). */
export async function watermarkEnabled(db: Knex, creatorId: string): Promise<boolean> {
  const row = await db('creators').where({ user_id: creatorId }).first('watermark_enabled');
  return Boolean(row?.watermark_enabled);
}

/** Every account's id, name and email, for staff mapping a watermark's viewer code back. */
export async function watermarkCandidates(
  db: Knex,
): Promise<Array<{ id: string; email: string; first_name: string | null; last_name: string | null }>> {
  return db('users').select('id', 'email', 'first_name', 'last_name');
}

export async function isCreator(db: Knex, userId: string): Promise<boolean> {
  return Boolean(await db('creators').where({ user_id: userId }).first('user_id'));
}

/** A creator's tiers (`$2`), cheapest first; one row of nulls while they have none, no row for anyone not a creator. */
const CREATOR_TIERS: PageStatement = {
  name: 'creator-tiers',
  text: `SELECT t.id, t.name, t.description, t.price_cents, t.features
  FROM creators c LEFT JOIN subscription_tiers t ON t.creator_id = c.user_id
  WHERE c.user_id = $2 ORDER BY t.price_cents, t.created_at`,
};

/**
 * The creator's tiers, cheapest first, or the three fallback tiers while there are none; null
 * when `creatorId` is no creator. One round trip: the creator page asks on every load.
 */
export async function creatorTiers(read: PageRead, creatorId: string): Promise<Tier[] | null> {
  const rows = await read<{
    id: string | null;
    name: string;
    description: string;
    price_cents: number;
    features: string[];
  }>(CREATOR_TIERS, [creatorId]);
  if (rows.length === 0) return null;
  if (rows[0].id === null) {
    return FALLBACK_TIERS.map((tier) => ({
      id: tier.tierId,
      creatorId,
      name: tier.name,
      description: tier.description,
      price: formatCents(tier.priceCents),
      features: tier.features,
      popular: tier.popular,
      isDefault: true,
    }));
  }
  return rows.map((row) => ({
    id: row.id!,
    creatorId,
    name: row.name,
    description: row.description,
    price: formatCents(row.price_cents),
    features: row.features,
    popular: false,
    isDefault: false,
  }));
}

/**
 * A creator's stats (`$2`) at `$3`, in one row (none for anyone not a creator): their sales
 * counted per price (the split is applied per price in TS, its one home), posts with their likes
 * and comments, and subscribers whose period runs.
 */
const CREATOR_STATS: PageStatement = {
  name: 'creator-stats',
  text: `SELECT p.posts, p.interactions, ${runningSubscribersSql('c.user_id', '$3')} AS subscribers,
    (SELECT coalesce(json_agg(json_build_array(price_cents, sales)), '[]') FROM (
      SELECT price_cents, count(*) AS sales FROM (
        SELECT price_cents FROM creator_subscriptions WHERE creator_id = $2
        UNION ALL SELECT price_cents FROM messages
          WHERE sender_id = $2 AND is_paid AND is_unlocked AND receiver_id <> sender_id
        UNION ALL SELECT amount_cents FROM billing_history WHERE creator_id = $2 AND kind = 'tip'
      ) sold GROUP BY price_cents) g) AS sales
  FROM creators c
  CROSS JOIN LATERAL (SELECT count(*) AS posts, coalesce(sum(like_count + comment_count), 0) AS interactions
    FROM posts WHERE creator_id = c.user_id) p
  WHERE c.user_id = $2`,
};

/**
 * totalEarnings: the creator's 90% of every paid tier month and unlocked message.
 * engagementRate: (likes + comments) ÷ (posts × subscribers) × 100, one decimal; 0 without
 * posts or subscribers (see ENGAGEMENT_RATE_DEFINITION). Null when `creatorId` is no creator.
 */
export async function creatorStats(read: PageRead, now: Date, creatorId: string): Promise<CreatorStats | null> {
  const [row] = await read<{
    posts: string;
    interactions: string;
    subscribers: string;
    /** [price in cents, how many sold at it] */
    sales: Array<[number, number]>;
  }>(CREATOR_STATS, [creatorId, now]);
  if (!row) return null;
  const earnedCents = row.sales.reduce(
    (sum, [priceCents, sold]) => sum + splitEarnings(priceCents).creatorShareCents * sold,
    0,
  );
  const postCount = Number(row.posts);
  const subscriberCount = Number(row.subscribers);
  const interactions = Number(row.interactions);
  const engagementRate =
    postCount && subscriberCount ? Math.round((interactions / (postCount * subscriberCount)) * 1000) / 10 : 0;
  return { totalEarnings: formatCents(earnedCents), subscriberCount, postCount, engagementRate };
}
