import type { Knex } from 'knex';
import type { PromotionStatus, PromotionView } from '../domain/contracts/promotions';
import type { RecordedEvent } from '../domain/event-store/port';
import type { CreatorSubscriptionStarted } from '../domain/creators/events';
import type {
  PromotionCreated,
  PromotionEnded,
  PromotionRedeemed,
  PromotionRedemptionReleased,
} from '../domain/creators/promotions-events';
import type { ProjectionContext, Projector } from './engine/projector';

/**
 * The `promotions` read model (issue 21): one row per promotion with its terms and how many
 * redemptions count, for the creator's list and the offer behind a share link. Each row moves
 * only for an event of a newer stream revision than it has applied, so a replay counts nothing
 * twice. `promotion_redemptions` keeps each reserved redemption and whether its subscription
 * started, for the ticker that gives back the claims of requests that died in between.
 */

type Handler = (context: ProjectionContext, event: RecordedEvent) => Promise<void>;

/** Applies `changes` once per event of the promotion's stream (a replayed one is older than the row). */
const once = ({ table }: ProjectionContext, event: RecordedEvent, promotionId: string, changes: object) =>
  table('promotions')
    .where({ id: promotionId })
    .andWhere('last_revision', '<', event.revision.toString())
    .update({ ...changes, last_revision: event.revision.toString() });

const handlers: Record<string, Handler> = {
  async PromotionCreated({ table }, event) {
    const d = (event as RecordedEvent<PromotionCreated['data']>).data;
    await table('promotions')
      .insert({
        id: d.promotionId,
        creator_id: d.creatorId,
        tier_id: d.tierId,
        tier_name: d.tierName,
        kind: d.kind,
        trial_days: d.trialDays,
        percent_off: d.percentOff,
        max_redemptions: d.maxRedemptions,
        redemptions: 0,
        ends_at: d.endsAt,
        ended_at: null,
        created_at: d.at,
        last_revision: event.revision.toString(),
      })
      .onConflict('id')
      .ignore();
  },
  async PromotionEnded(context, event) {
    const d = event.data as PromotionEnded['data'];
    await once(context, event, d.promotionId, { ended_at: d.at });
  },
  async PromotionRedeemed(context, event) {
    const d = event.data as PromotionRedeemed['data'];
    await once(context, event, d.promotionId, { redemptions: context.trx.raw('redemptions + 1') });
    await context
      .table('promotion_redemptions')
      .insert({
        subscription_id: d.subscriptionId,
        promotion_id: d.promotionId,
        creator_id: d.creatorId,
        subscriber_id: d.subscriberId,
        redeemed_at: d.at,
        released: false,
        started: false,
      })
      .onConflict('subscription_id')
      .merge(['redeemed_at', 'released']);
  },
  async PromotionRedemptionReleased(context, event) {
    const d = event.data as PromotionRedemptionReleased['data'];
    await once(context, event, d.promotionId, { redemptions: context.trx.raw('redemptions - 1') });
    await context
      .table('promotion_redemptions')
      .where({ subscription_id: d.subscriptionId })
      .update({ released: true });
  },
  async CreatorSubscriptionStarted({ table }, event) {
    const d = event.data as CreatorSubscriptionStarted['data'];
    if (d.promotionId)
      await table('promotion_redemptions').where({ subscription_id: d.subscriptionId }).update({ started: true });
  },
};

async function createTables(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('promotions', (t) => {
    t.text('id').primary();
    t.text('creator_id').notNullable().index();
    t.text('tier_id').notNullable();
    t.text('tier_name').notNullable();
    t.text('kind').notNullable();
    t.integer('trial_days').nullable();
    t.integer('percent_off').nullable();
    t.integer('max_redemptions').notNullable();
    /** Redemptions that count (a released one no longer does). */
    t.integer('redemptions').notNullable();
    t.timestamp('ends_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.bigInteger('last_revision').notNullable();
  });
  await db.schema.withSchema(schema).createTable('promotion_redemptions', (t) => {
    t.text('subscription_id').primary();
    t.text('promotion_id').notNullable();
    t.text('creator_id').notNullable();
    t.text('subscriber_id').notNullable();
    t.timestamp('redeemed_at', { useTz: true }).notNullable();
    /** Given back: the subscription did not start on it. */
    t.boolean('released').notNullable();
    t.boolean('started').notNullable();
  });
  await db.schema
    .withSchema(schema)
    .raw(
      `CREATE INDEX promotion_redemptions_unsettled ON "${schema}".promotion_redemptions (redeemed_at) WHERE NOT released AND NOT started`,
    );
}

export const promotionsProjector: Projector = {
  name: 'promotions',
  version: 2,
  tables: ['promotions', 'promotion_redemptions'],
  eventTypes: Object.keys(handlers),
  createTables,
  async apply(context, event) {
    await handlers[event.type]?.(context, event);
  },
};

// Queries: a creator's promotions and one promotion, with its status at `now`.

interface PromotionRow {
  id: string;
  creator_id: string;
  tier_id: string;
  tier_name: string;
  kind: PromotionView['kind'];
  trial_days: number | null;
  percent_off: number | null;
  max_redemptions: number;
  redemptions: number;
  ends_at: Date;
  ended_at: Date | null;
  created_at: Date;
}

function statusAt(row: PromotionRow, now: Date): PromotionStatus {
  if (row.ended_at) return 'ended';
  if (new Date(row.ends_at) <= now) return 'expired';
  if (row.redemptions >= row.max_redemptions) return 'used_up';
  return 'active';
}

function promotionView(row: PromotionRow, now: Date): PromotionView {
  return {
    id: row.id,
    creatorId: row.creator_id,
    tierId: row.tier_id,
    tierName: row.tier_name,
    kind: row.kind,
    trialDays: row.trial_days,
    percentOff: row.percent_off,
    maxRedemptions: row.max_redemptions,
    redemptions: row.redemptions,
    remaining: Math.max(0, row.max_redemptions - row.redemptions),
    endsAt: new Date(row.ends_at).toISOString(),
    endedAt: row.ended_at ? new Date(row.ended_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    status: statusAt(row, now),
  };
}

/** A creator's promotions, newest first. */
export async function promotionsOfCreator(db: Knex, creatorId: string, now: Date): Promise<PromotionView[]> {
  const rows: PromotionRow[] = await db('promotions')
    .where({ creator_id: creatorId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return rows.map((row) => promotionView(row, now));
}

/** One promotion (null when unknown). */
export async function findPromotion(db: Knex, promotionId: string, now: Date): Promise<PromotionView | null> {
  const row: PromotionRow | undefined = await db('promotions').where({ id: promotionId }).first();
  return row ? promotionView(row, now) : null;
}

/** Redemptions reserved before `before` whose subscription neither started nor gave them back. */
export async function unsettledPromotionClaims(
  db: Knex,
  before: Date,
): Promise<Array<{ promotionId: string; creatorId: string; subscriberId: string; subscriptionId: string }>> {
  const rows = await db('promotion_redemptions')
    .where({ released: false, started: false })
    .andWhere('redeemed_at', '<', before)
    .orderBy('redeemed_at')
    .limit(500);
  return rows.map((row) => ({
    promotionId: row.promotion_id,
    creatorId: row.creator_id,
    subscriberId: row.subscriber_id,
    subscriptionId: row.subscription_id,
  }));
}
