import type { Knex } from 'knex';
import type { AccountDeletedData } from '../domain/accounts/events';
import { LAPSED_WITHIN_DAYS, type MassMessageSummary } from '../domain/contracts/mass-messages';
import { formatCents } from '../domain/contracts/money';
import { FALLBACK_TIERS } from '../domain/creators/fallback-tiers';
import type {
  MassMessageDelivered,
  MassMessageSegment,
  MassMessageSent,
  MessageUnlocked,
} from '../domain/messaging/events';
import { REMOVED } from '../domain/privacy/personal-data';
import type { Projector } from './engine/projector';

/**
 * The `mass_messages` read model (issue 21): each mass message of a creator with its recipients,
 * delivery and the unlocks of its messages (`mass_message_unlocks`, one row per unlocked message,
 * so a replay counts nothing twice). Also the segment query the send route resolves recipients with.
 */
export const massMessagesProjector: Projector = {
  name: 'mass-messages',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['mass_messages', 'mass_message_unlocks'],
  eventTypes: ['MassMessageSent', 'MassMessageDelivered', 'MessageUnlocked', 'AccountDeleted'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('mass_messages', (t) => {
      t.text('id').primary();
      t.text('creator_id').notNullable();
      t.text('content').notNullable();
      t.text('segment').notNullable();
      t.text('tier_id');
      t.integer('price_cents');
      t.integer('media_count').notNullable();
      t.integer('recipients').notNullable();
      t.integer('delivered_count').notNullable().defaultTo(0);
      t.timestamp('delivered_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['creator_id', 'created_at']);
    });
    await db.schema.withSchema(schema).createTable('mass_message_unlocks', (t) => {
      t.text('message_id').primary();
      t.text('mass_message_id').notNullable().index();
      t.integer('price_cents').notNullable();
    });
  },
  async apply({ table }, event) {
    if (event.type === 'AccountDeleted') {
      // Issue 23: a deleted creator's texts read REMOVED (as MassMessageSent replays once their key is gone).
      const { userId } = event.data as AccountDeletedData;
      await table('mass_messages').where({ creator_id: userId }).update({ content: REMOVED });
    } else if (event.type === 'MassMessageSent') {
      const d = event.data as MassMessageSent['data'];
      await table('mass_messages')
        .insert({
          id: d.massMessageId,
          creator_id: d.creatorId,
          content: d.content,
          segment: d.segment.kind,
          tier_id: d.segment.kind === 'tier' ? d.segment.tierId : null,
          price_cents: d.priceCents,
          media_count: d.mediaIds?.length ?? 0,
          recipients: d.recipientIds.length,
          created_at: d.sentAt,
        })
        .onConflict('id')
        .ignore();
    } else if (event.type === 'MassMessageDelivered') {
      const d = event.data as MassMessageDelivered['data'];
      await table('mass_messages')
        .where({ id: d.massMessageId })
        .update({ delivered_count: d.deliveredCount, delivered_at: d.deliveredAt });
    } else {
      const d = event.data as MessageUnlocked['data'];
      if (!d.massMessageId) return;
      await table('mass_message_unlocks')
        .insert({ message_id: d.messageId, mass_message_id: d.massMessageId, price_cents: d.priceCents })
        .onConflict('message_id')
        .ignore();
    }
  },
};

/** A creator's mass messages, newest first, with their unlocks and revenue. */
export async function massMessagesOf(db: Knex, creatorId: string, limit = 50): Promise<MassMessageSummary[]> {
  const rows = await db('mass_messages as m')
    .leftJoin('subscription_tiers as t', 't.id', 'm.tier_id')
    .where('m.creator_id', creatorId)
    .orderBy([
      { column: 'm.created_at', order: 'desc' },
      { column: 'm.id', order: 'desc' },
    ])
    .limit(limit)
    .select(
      'm.*',
      't.name as tier_name',
      db.raw('(SELECT count(*) FROM mass_message_unlocks u WHERE u.mass_message_id = m.id)::int AS unlocked'),
      db.raw(
        '(SELECT coalesce(sum(u.price_cents), 0) FROM mass_message_unlocks u WHERE u.mass_message_id = m.id)::int AS revenue_cents',
      ),
    );
  return rows.map((row) => ({
    id: row.id,
    content: row.content,
    segment: row.segment,
    tierName: row.tier_name ?? FALLBACK_TIERS.find((tier) => tier.tierId === row.tier_id)?.name ?? null,
    price: row.price_cents === null ? null : formatCents(row.price_cents),
    mediaCount: row.media_count,
    recipients: row.recipients,
    sent: row.delivered_count,
    delivered: row.delivered_at !== null,
    unlocked: row.unlocked,
    revenue: formatCents(row.revenue_cents),
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

const DAY_MS = 86_400_000;

/**
 * The members a mass message to this segment reaches now: subscribers with a running period
 * (of the tier, for a tier segment), or whose last period ended within the last 90 days and who
 * have none running; never a member blocked by the creator or who blocked them.
 */
export async function segmentRecipients(
  db: Knex,
  now: Date,
  creatorId: string,
  segment: MassMessageSegment,
): Promise<string[]> {
  const latest = db('creator_subscriptions')
    .distinctOn('subscriber_id')
    .where({ creator_id: creatorId })
    .whereNot({ subscriber_id: creatorId })
    .orderBy([{ column: 'subscriber_id' }, { column: 'end_date', order: 'desc' }])
    .select('subscriber_id', 'tier_id', 'end_date');
  const query = db
    .from(latest.as('s'))
    .whereNotExists(
      db('user_blocks as b').where((pair) =>
        pair
          .where((w) => w.where('b.blocker_id', creatorId).andWhereRaw('b.blocked_id = s.subscriber_id'))
          .orWhere((w) => w.whereRaw('b.blocker_id = s.subscriber_id').andWhere('b.blocked_id', creatorId)),
      ),
    )
    .orderBy('s.subscriber_id')
    .pluck('s.subscriber_id');
  if (segment.kind === 'lapsed')
    query
      .where('s.end_date', '<=', now)
      .andWhere('s.end_date', '>', new Date(now.getTime() - LAPSED_WITHIN_DAYS * DAY_MS));
  else query.where('s.end_date', '>', now);
  if (segment.kind === 'tier') query.where('s.tier_id', segment.tierId);
  return query;
}
