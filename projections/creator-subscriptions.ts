import type { Knex } from 'knex';
import type { CreatorSubscriptionStarted } from '../domain/creators/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { insertRuns } from './engine/insert-runs';
import type { Projector } from './engine/projector';

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
