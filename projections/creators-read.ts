import type { Knex } from 'knex';
import { DEFAULT_CREATOR_BIO, DEFAULT_CREATOR_PRICE, type Creator, type CreatorStats, type Tier } from '../domain/contracts/creators';
import { FALLBACK_TIERS } from '../domain/creators/fallback-tiers';
import { formatCents, splitEarnings } from '../domain/payouts/money';
import { displayName, isUserId } from './users';

/** Read queries over creators, tiers and creator subscriptions (joined with `users` for names). */

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
    price: row.min_price === null ? DEFAULT_CREATOR_PRICE : formatCents(row.min_price),
    postCount: Number(row.post_count),
    subscriberCount: Number(row.subscriber_count),
  };
}

function creatorQuery(db: Knex, now: Date) {
  return db('creators as c')
    .join('users as u', 'u.id', db.raw('c.user_id::uuid'))
    .select(
      'c.user_id',
      'c.bio',
      'c.cover_image_url',
      'u.first_name',
      'u.last_name',
      'u.profile_image_url',
      db.raw('(SELECT min(t.price_cents) FROM subscription_tiers t WHERE t.creator_id = c.user_id) AS min_price'),
      db.raw('(SELECT count(*) FROM posts p WHERE p.creator_id = c.user_id) AS post_count'),
      db.raw('(SELECT count(DISTINCT s.subscriber_id) FROM creator_subscriptions s WHERE s.creator_id = c.user_id AND s.end_date > ?) AS subscriber_count', [now]),
    );
}

/** Creators in registration order; `q` matches first name, last name, full name and bio (never the email). */
export async function listCreators(db: Knex, now: Date, options: { q?: string; limit?: number } = {}): Promise<Creator[]> {
  const query = creatorQuery(db, now).orderBy([{ column: 'c.registered_at' }, { column: 'c.user_id' }]).limit(options.limit ?? 100);
  const q = options.q?.trim();
  if (q) {
    const pattern = `%${q.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query.where((where) =>
      where
        .whereILike('u.first_name', pattern)
        .orWhereILike('u.last_name', pattern)
        .orWhereRaw(`concat_ws(' ', u.first_name, u.last_name) ILIKE ?`, [pattern])
        .orWhereILike('c.bio', pattern),
    );
  }
  return ((await query) as CreatorRow[]).map(creatorView);
}

export async function findCreator(db: Knex, now: Date, creatorId: string): Promise<Creator | null> {
  if (!isUserId(creatorId)) return null;
  const row = (await creatorQuery(db, now).where('c.user_id', creatorId).first()) as CreatorRow | undefined;
  return row ? creatorView(row) : null;
}

export async function isCreator(db: Knex, userId: string): Promise<boolean> {
  return Boolean(await db('creators').where({ user_id: userId }).first('user_id'));
}

/** The creator's tiers, cheapest first, or the three fallback tiers while there are none. */
export async function creatorTiers(db: Knex, creatorId: string): Promise<Tier[]> {
  const rows = await db('subscription_tiers').where({ creator_id: creatorId }).orderBy([{ column: 'price_cents' }, { column: 'created_at' }]);
  if (rows.length === 0) {
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
    id: row.id,
    creatorId,
    name: row.name,
    description: row.description,
    price: formatCents(row.price_cents),
    features: row.features,
    popular: false,
    isDefault: false,
  }));
}

/** The running subscription of a member to a creator, if any. */
export async function activeSubscription(db: Knex, now: Date, subscriberId: string, creatorId: string) {
  return db('creator_subscriptions').where({ subscriber_id: subscriberId, creator_id: creatorId }).andWhere('end_date', '>', now).orderBy('end_date', 'desc').first();
}

/** Creators whose locked posts the member may read right now (own posts included). */
export async function readableCreatorIds(db: Knex, now: Date, viewerId: string): Promise<Set<string>> {
  const rows = await db('creator_subscriptions').distinct('creator_id').where({ subscriber_id: viewerId }).andWhere('end_date', '>', now);
  return new Set([viewerId, ...rows.map((row) => row.creator_id as string)]);
}

/**
 * totalEarnings: the creator's 90% of every paid tier month and unlocked message.
 * engagementRate: (likes + comments) ÷ (posts × subscribers) × 100, one decimal; 0 without
 * posts or subscribers (see ENGAGEMENT_RATE_DEFINITION).
 */
export async function creatorStats(db: Knex, now: Date, creatorId: string): Promise<CreatorStats> {
  const [sales, posts, subscribers] = await Promise.all([
    db.raw(
      `SELECT price_cents FROM creator_subscriptions WHERE creator_id = ?
       UNION ALL SELECT price_cents FROM messages WHERE sender_id = ? AND is_paid AND is_unlocked AND receiver_id <> sender_id`,
      [creatorId, creatorId],
    ),
    db('posts').where({ creator_id: creatorId }).first(db.raw('count(*) AS posts'), db.raw('coalesce(sum(like_count + comment_count), 0) AS interactions')),
    db('creator_subscriptions').where({ creator_id: creatorId }).andWhere('end_date', '>', now).first(db.raw('count(DISTINCT subscriber_id) AS subscribers')),
  ]);
  const earnedCents = (sales.rows as Array<{ price_cents: number }>).reduce((sum, row) => sum + splitEarnings(row.price_cents).creatorShareCents, 0);
  const postCount = Number(posts.posts);
  const subscriberCount = Number(subscribers.subscribers);
  const interactions = Number(posts.interactions);
  const engagementRate = postCount && subscriberCount ? Math.round((interactions / (postCount * subscriberCount)) * 1000) / 10 : 0;
  return { totalEarnings: formatCents(earnedCents), subscriberCount, postCount, engagementRate };
}
