import type { RecordedEvent } from '../domain/event-store/port';
import type { CreatorRegistered, TierData } from '../domain/creators/events';
import type { Projector } from './engine/projector';

/** Creators (bio, cover) and their tiers. Names and avatars come from the users read model. */
export const creatorsProjector: Projector = {
  name: 'creators',
  version: 2,
  tables: ['creators', 'subscription_tiers'],
  eventTypes: ['CreatorRegistered', 'TierCreated', 'TierUpdated'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('creators', (t) => {
      t.text('user_id').primary();
      t.text('bio').notNullable();
      t.text('cover_image_url');
      t.timestamp('registered_at', { useTz: true }).notNullable();
      // The creator list's order: its first page is read in order, not sorted from all.
      t.index(['registered_at', 'user_id']);
    });
    await db.schema.withSchema(schema).createTable('subscription_tiers', (t) => {
      t.text('id').primary();
      t.text('creator_id').notNullable().index();
      t.text('name').notNullable();
      t.text('description').notNullable();
      t.integer('price_cents').notNullable();
      t.jsonb('features').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  async apply({ table }, event: RecordedEvent) {
    if (event.type === 'CreatorRegistered') {
      const data = (event as RecordedEvent<CreatorRegistered['data']>).data;
      await table('creators')
        .insert({ user_id: data.userId, bio: data.bio, cover_image_url: data.coverImageUrl, registered_at: data.registeredAt })
        .onConflict('user_id')
        .merge();
      return;
    }
    const data = event.data as TierData;
    const row = {
      id: data.tierId,
      creator_id: data.creatorId,
      name: data.name,
      description: data.description,
      price_cents: data.priceCents,
      features: JSON.stringify(data.features),
      updated_at: data.at,
    };
    if (event.type === 'TierCreated') await table('subscription_tiers').insert({ ...row, created_at: data.at }).onConflict('id').merge();
    else await table('subscription_tiers').where({ id: data.tierId }).update(row);
  },
};
