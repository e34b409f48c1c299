import type { Knex } from 'knex';
import type {
  AccountExport,
  ExportComment,
  ExportConversion,
  ExportCreator,
  ExportMessage,
  ExportPayment,
  ExportPayout,
  ExportPost,
  ExportProfile,
  ExportReport,
  ExportSubscription,
  ExportTier,
  ExportTip,
} from '../domain/contracts/account';
import type { BillingMethod } from '../domain/contracts/billing';
import type { ChatPreferences } from '../domain/contracts/chat';
import { formatCryptoUnits, formatRate, parseCryptoUnits, parseRateUnits } from '../domain/contracts/crypto';
import { blocksBy } from './blocks';
import { creatorBalances } from './creator-balances';
import { walletsOf } from './crypto-wallets';
import { readAs } from './page-reads';
import { paymentAccountsOfCreator } from './payment-accounts';
import { preferencesOf } from './user-preferences';
import { findProfile } from './user-profiles';
import { displayName, findUserRow, isUserId, standingOf, toCurrentUser } from './users';
import { balanceCents } from './wallet-balances';

/**
 * `GET /api/account/export` (issue 23): everything the read models hold about one member, as
 * one file. It is its own view over those tables (as `admin-tables.ts` is the finance
 * console's): where a read model's query already answers this member's data in the right shape
 * it is called (chat profile and preferences, blocks, crypto wallets, USD balance, creator
 * balances, payment accounts); the rest is read here, in integer cents and ISO times, newest
 * first, every row of the member's own (no page limit: a large account is exported by a job).
 *
 * What stays out: secrets (password and reset token hashes, gateway customer and connected
 * account ids), the content of a paid message the member received and has not unlocked, what
 * moderation removed from messages they received, and whatever is about other members beyond
 * their id and name (what staff did about a report, other people's messages).
 */
export async function accountExport(db: Knex, userId: string, now: Date): Promise<AccountExport> {
  const user = isUserId(userId) ? await findUserRow(db, userId) : null;
  // No account (deleted before a prepared export ran): nothing about it is held. Never a throw,
  // which would stop the export process on this event for good.
  if (!user) return nothingHeld(now);
  const [
    usdBalanceCents,
    chatProfile,
    chatPreferences,
    creator,
    posts,
    comments,
    messagesSent,
    messagesReceived,
    subscriptions,
    payments,
    conversions,
    wallets,
    payouts,
    reports,
    blocks,
  ] = await Promise.all([
    balanceCents(db, userId),
    findProfile(db, userId),
    savedPreferences(db, userId),
    creatorOf(db, userId, now),
    postsOf(db, userId),
    commentsOf(db, userId),
    messagesOf(db, userId, 'sent'),
    messagesOf(db, userId, 'received'),
    subscriptionsOf(db, userId),
    paymentsOf(db, userId),
    conversionsOf(db, userId),
    walletsOf(db, userId),
    payoutsOf(db, userId),
    reportsBy(db, userId),
    blocksBy(db, userId),
  ]);
  const profile: ExportProfile = {
    ...toCurrentUser(user),
    createdAt: iso(user.created_at),
    lastLoginAt: isoOrNull(user.last_login_at as Date | null),
    standing: standingOf(user, now),
    usdBalanceCents,
  };
  return {
    exportedAt: now.toISOString(),
    profile,
    chatProfile,
    chatPreferences,
    creator,
    posts,
    comments,
    messagesSent,
    messagesReceived,
    subscriptions,
    payments,
    tipsGiven: payments.filter((payment) => payment.kind === 'tip').map(tipOf),
    conversions,
    // walletsOf answers oldest first (the wallet page's order).
    wallets: [...wallets].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    payouts,
    reports,
    blocks,
  };
}

const nothingHeld = (now: Date): AccountExport => ({
  exportedAt: now.toISOString(),
  profile: null,
  chatProfile: null,
  chatPreferences: null,
  creator: null,
  posts: [],
  comments: [],
  messagesSent: [],
  messagesReceived: [],
  subscriptions: [],
  payments: [],
  tipsGiven: [],
  conversions: [],
  wallets: [],
  payouts: [],
  reports: [],
  blocks: [],
});

/**
 * How many rows the export would hold (its lists, the profile and the creator's rows): one
 * statement of counts, each on an index of the member's id (comments excepted: `post_comments`
 * is indexed by post only). The API answers at once below its threshold, else prepares the file.
 */
export async function accountExportSize(db: Knex, userId: string): Promise<number> {
  if (!isUserId(userId)) return 0;
  const counts = [
    'SELECT count(*) FROM users WHERE id = CAST(:id AS uuid)',
    'SELECT count(*) FROM user_profiles WHERE user_id = :id',
    'SELECT count(*) FROM user_preferences WHERE user_id = :id',
    'SELECT count(*) FROM creators WHERE user_id = :id',
    'SELECT count(*) FROM subscription_tiers WHERE creator_id = :id',
    'SELECT count(*) FROM payment_accounts WHERE creator_id = :id',
    'SELECT count(*) FROM posts WHERE creator_id = :id',
    'SELECT count(*) FROM scheduled_posts WHERE creator_id = :id',
    'SELECT count(*) FROM post_comments WHERE user_id = :id',
    'SELECT count(*) FROM messages WHERE sender_id = :id',
    'SELECT count(*) FROM messages WHERE receiver_id = :id',
    'SELECT count(*) FROM creator_subscriptions WHERE subscriber_id = :id',
    'SELECT count(*) FROM billing_history WHERE user_id = :id',
    'SELECT count(*) FROM crypto_conversions WHERE user_id = :id',
    'SELECT count(*) FROM crypto_wallets WHERE user_id = :id',
    'SELECT count(*) FROM payouts WHERE creator_id = :id',
    'SELECT count(*) FROM reports WHERE reporter_id = :id',
    'SELECT count(*) FROM user_blocks WHERE blocker_id = :id',
  ];
  const result = await db.raw(`SELECT (${counts.map((count) => `(${count})`).join(' + ')})::text AS rows`, {
    id: userId,
  });
  return Number(result.rows[0].rows);
}

// ---------------------------------------------------------------------------------------------

type Row = Record<string, any>;

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null | undefined) => (value == null ? null : iso(value));
/** int8 columns come back as strings (never JS floats in transit); the export's cents are numbers. */
const cents = (value: string | number) => Number(value);
const mediaIdsOf = (value: unknown) => (Array.isArray(value) ? (value as string[]) : []);
const newestFirst = (column: string, id: string) => [
  { column, order: 'desc' as const },
  { column: id, order: 'desc' as const },
];

/** The member's matching preferences as their page shows them; null while they have saved none (only defaults). */
async function savedPreferences(db: Knex, userId: string): Promise<ChatPreferences | null> {
  const saved = await db('user_preferences').where({ user_id: userId }).first('user_id');
  return saved ? preferencesOf(db, userId) : null;
}

async function creatorOf(db: Knex, userId: string, now: Date): Promise<ExportCreator | null> {
  const row = await db('creators').where({ user_id: userId }).first();
  if (!row) return null;
  const [tiers, earnings, accounts] = await Promise.all([
    db('subscription_tiers').where({ creator_id: userId }).orderBy(newestFirst('created_at', 'id')),
    creatorBalances(readAs(db, userId), userId, now),
    paymentAccountsOfCreator(db, userId),
  ]);
  return {
    bio: row.bio,
    coverImageUrl: row.cover_image_url,
    watermarkEnabled: row.watermark_enabled,
    registeredAt: iso(row.registered_at),
    tiers: tiers.map((tier: Row): ExportTier => ({
      id: tier.id,
      name: tier.name,
      description: tier.description,
      priceCents: tier.price_cents,
      features: tier.features,
      createdAt: iso(tier.created_at),
      updatedAt: iso(tier.updated_at),
    })),
    earnings,
    // The connected account's id at the payout processor stays out; newest first, as every list.
    paymentAccounts: accounts
      .map(({ stripeAccountId: _gatewayId, ...account }) => account)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
  };
}

/** The creator's posts, out or scheduled (removed ones too: they wrote them), newest first. */
async function postsOf(db: Knex, creatorId: string): Promise<ExportPost[]> {
  const result = await db.raw(
    `SELECT id, title, content, media_url, media_ids, is_public, like_count, comment_count, removed,
        created_at, NULL::timestamptz AS scheduled_at
      FROM posts WHERE creator_id = :id
     UNION ALL
     SELECT id, title, content, media_url, media_ids, is_public, 0, 0, false, NULL, scheduled_at
      FROM scheduled_posts WHERE creator_id = :id
     ORDER BY 10 DESC NULLS FIRST, 11 DESC, 1 DESC`,
    { id: creatorId },
  );
  return (result.rows as Row[]).map((row) => ({
    id: row.id,
    title: row.title,
    content: row.content,
    mediaUrl: row.media_url,
    mediaIds: mediaIdsOf(row.media_ids),
    visibility: row.is_public ? 'public' : 'subscribers',
    status: row.scheduled_at ? 'scheduled' : 'published',
    likeCount: row.like_count,
    commentCount: row.comment_count,
    removed: row.removed,
    createdAt: isoOrNull(row.created_at),
    scheduledAt: isoOrNull(row.scheduled_at),
  }));
}

async function commentsOf(db: Knex, userId: string): Promise<ExportComment[]> {
  const rows: Row[] = await db('post_comments as c')
    .leftJoin('posts as p', 'p.id', 'c.post_id')
    .where('c.user_id', userId)
    .orderBy(newestFirst('c.created_at', 'c.id'))
    .select('c.id', 'c.post_id', 'c.content', 'c.created_at', 'p.title');
  return rows.map((row) => ({
    id: row.id,
    postId: row.post_id,
    postTitle: row.title ?? null,
    content: row.content,
    createdAt: iso(row.created_at),
  }));
}

/**
 * The messages the member sent, or received, newest first, each with the other member's id and
 * name. A received paid message not unlocked is exported without its content and media (it
 * was not paid for), and a received one moderation removed without what was removed.
 */
async function messagesOf(db: Knex, userId: string, side: 'sent' | 'received'): Promise<ExportMessage[]> {
  const [own, other] = side === 'sent' ? ['sender_id', 'receiver_id'] : ['receiver_id', 'sender_id'];
  const rows: Row[] = await db('messages as m')
    .leftJoin('users as u', 'u.id', db.raw(`m.${other}::uuid`))
    .where(`m.${own}`, userId)
    .orderBy(newestFirst('m.created_at', 'm.id'))
    .select('m.*', db.raw(`m.${other} AS other_id`), 'u.first_name', 'u.last_name');
  return rows.map((row) => {
    const locked = side === 'received' && row.is_paid && !row.is_unlocked;
    const hidden = locked || (side === 'received' && row.removed);
    return {
      id: row.id,
      otherMemberId: row.other_id,
      otherMemberName: displayName({ first_name: row.first_name ?? null, last_name: row.last_name ?? null }),
      content: hidden ? null : row.content,
      mediaUrl: hidden ? null : row.media_url,
      mediaIds: hidden ? [] : mediaIdsOf(row.media_ids),
      isPaid: row.is_paid,
      priceCents: row.price_cents,
      locked,
      isUnlocked: row.is_unlocked,
      unlockedAt: isoOrNull(row.unlocked_at),
      removed: row.removed,
      sentAt: iso(row.created_at),
    };
  });
}

/** Every subscription to a creator (each run, renewals included), newest first. */
async function subscriptionsOf(db: Knex, subscriberId: string): Promise<ExportSubscription[]> {
  const rows: Row[] = await db('creator_subscriptions as s')
    .leftJoin('users as u', 'u.id', db.raw('s.creator_id::uuid'))
    .where('s.subscriber_id', subscriberId)
    .orderBy(newestFirst('s.start_date', 's.id'))
    .select('s.*', 'u.first_name', 'u.last_name');
  return rows.map((row) => {
    const renewing = row.status === 'active' || row.status === 'past_due';
    return {
      id: row.id,
      creatorId: row.creator_id,
      creatorName: displayName({ first_name: row.first_name ?? null, last_name: row.last_name ?? null }, 'Creator'),
      tierId: row.tier_id,
      tierName: row.tier_name,
      priceCents: row.price_cents,
      status: row.status,
      since: iso(row.start_date),
      periodEnd: iso(row.period_end),
      renewsAt: renewing ? isoOrNull(row.renews_at) : null,
      endsAt: row.status === 'active' ? null : iso(row.end_date),
      renewFrom: row.renew_from,
      nextTier: row.next_tier_id
        ? { tierId: row.next_tier_id, tierName: row.next_tier_name ?? '', priceCents: row.next_price_cents ?? 0 }
        : null,
    };
  });
}

function methodOf(row: Row): BillingMethod {
  if (row.method === 'card') return { type: 'card', cardLast4: row.card_last4 };
  if (row.method === 'crypto') return { type: 'crypto', cryptoType: row.crypto_type ?? 'crypto' };
  return { type: 'usd_balance' };
}

/** The billing history (billing-history.ts keeps every money fact of a member), newest first. */
async function paymentsOf(db: Knex, userId: string): Promise<ExportPayment[]> {
  const rows: Row[] = await db('billing_history').where({ user_id: userId }).orderBy(newestFirst('occurred_at', 'id'));
  return rows.map((row) => ({
    id: row.id,
    occurredAt: iso(row.occurred_at),
    kind: row.kind,
    direction: row.direction,
    description: row.description,
    amountCents: row.amount_cents,
    refundedCents: row.refunded_cents,
    currency: 'USD',
    method: methodOf(row),
    status: row.status,
    // A failed conversion's note is the crypto processor's own text, which the member is shown nowhere.
    note: row.kind === 'crypto_conversion' ? null : row.note,
    creatorId: row.creator_id,
    creatorName: row.creator_name,
    periodStart: isoOrNull(row.period_start),
    periodEnd: isoOrNull(row.period_end),
  }));
}

const tipOf = (payment: ExportPayment): ExportTip => ({
  id: payment.id,
  creatorId: payment.creatorId,
  creatorName: payment.creatorName,
  amountCents: payment.amountCents,
  method: payment.method,
  status: payment.status,
  givenAt: payment.occurredAt,
});

/** Crypto → USD conversions (the conversion history with its transaction's address and hash), newest first. */
async function conversionsOf(db: Knex, userId: string): Promise<ExportConversion[]> {
  const rows: Row[] = await db('crypto_conversions as c')
    .leftJoin('crypto_transactions as t', 't.id', 'c.transaction_id')
    .where('c.user_id', userId)
    .orderBy([
      { column: 'c.created_at', order: 'desc' },
      { column: 'c.number', order: 'desc', nulls: 'last' },
      { column: 'c.id', order: 'desc' },
    ])
    .select('c.*', 't.wallet_address', 't.transaction_hash');
  return rows.map((row) => ({
    number: row.number === null ? null : Number(row.number),
    transactionId: row.transaction_id,
    cryptoType: row.from_crypto_type,
    cryptoAmount: formatCryptoUnits(parseCryptoUnits(String(row.crypto_amount)) ?? 0n),
    exchangeRate: formatRate(parseRateUnits(String(row.exchange_rate)) ?? 0n),
    walletAddress: row.wallet_address ?? null,
    usdAmountCents: cents(row.usd_amount_cents),
    feeCents: cents(row.service_fee_cents),
    netCents: cents(row.net_amount_cents),
    status: row.status,
    transactionHash: row.transaction_hash ?? null,
    usedForSubscription: row.used_for_subscription,
    subscriptionMonths: row.subscription_months,
    createdAt: iso(row.created_at),
    completedAt: isoOrNull(row.completed_at),
  }));
}

/** A creator's payouts, newest first (the processor's transfer id stays out). */
async function payoutsOf(db: Knex, creatorId: string): Promise<ExportPayout[]> {
  const rows: Row[] = await db('payouts').where({ creator_id: creatorId }).orderBy(newestFirst('created_at', 'id'));
  return rows.map((row) => ({
    id: row.id,
    paymentAccountId: row.payment_account_id,
    amountCents: cents(row.amount_cents),
    processingFeeCents: cents(row.processing_fee_cents),
    netAmountCents: cents(row.net_amount_cents),
    currency: row.currency,
    status: row.status,
    failureReason: row.failure_reason,
    processedAt: isoOrNull(row.processed_at),
    createdAt: iso(row.created_at),
  }));
}

/** The reports the member filed, newest first: what they said and where it stands, not what staff did to whom. */
async function reportsBy(db: Knex, reporterId: string): Promise<ExportReport[]> {
  const rows: Row[] = await db('reports').where({ reporter_id: reporterId }).orderBy(newestFirst('created_at', 'id'));
  return rows.map((row) => ({
    id: row.id,
    targetType: row.target_type,
    targetId: row.target_id,
    reason: row.reason,
    details: row.details,
    status: row.status,
    createdAt: iso(row.created_at),
    resolvedAt: isoOrNull(row.resolved_at),
  }));
}
