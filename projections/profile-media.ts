import type { Knex } from 'knex';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { ProfileImageSetData } from '../domain/media/profile-images';
import type { MediaVariant } from '../domain/media/variants';
import type { Projector } from './engine/projector';

/**
 * `profile_media`: the items made for avatars, covers and chat profile images. They are public:
 * anyone, signed out too, may fetch their files (`publicMediaFile`). `current` marks the one a
 * profile shows now; that one cannot be deleted from the vault.
 */
const SLOT_OF: Record<string, string> = { AvatarSet: 'avatar', CoverSet: 'cover', ChatProfileImageAdded: 'chat' };

export const profileMediaProjector: Projector = {
  name: 'profile-media',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['profile_media'],
  eventTypes: ['AvatarSet', 'CoverSet', 'ChatProfileImageAdded', 'ChatProfileImageRemoved', 'AccountDeleted'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('profile_media', (t) => {
      t.text('media_id').primary();
      t.text('owner_id').notNullable();
      t.text('slot').notNullable();
      t.boolean('current').notNullable();
      t.index(['owner_id', 'slot']);
    });
  },
  async apply({ table }, event: RecordedEvent) {
    // Issue 23: a deleted person's profile items are gone (no longer public).
    if (event.type === 'AccountDeleted')
      return void (await table('profile_media')
        .where({ owner_id: (event.data as AccountDeletedData).userId })
        .delete());
    const d = event.data as ProfileImageSetData;
    if (event.type === 'ChatProfileImageRemoved')
      return void (await table('profile_media').where({ media_id: d.mediaId }).update({ current: false }));
    const slot = SLOT_OF[event.type];
    // An avatar or cover replaces the one before; a chat profile has several images.
    if (slot !== 'chat') await table('profile_media').where({ owner_id: d.userId, slot }).update({ current: false });
    await table('profile_media')
      .insert({ media_id: d.mediaId, owner_id: d.userId, slot, current: true })
      .onConflict('media_id')
      .merge();
  },
};

/** Whether `variant` of a public profile item may be served to anyone (it exists and is ready). */
export async function publicMediaFile(db: Knex, mediaId: string, variant: string): Promise<boolean> {
  const row: { variants: MediaVariant[] } | undefined = await db('profile_media as p')
    .join('media as m', 'm.id', 'p.media_id')
    .where({ 'p.media_id': mediaId, 'm.status': 'ready' })
    .first('m.variants');
  return Boolean(row?.variants.includes(variant as MediaVariant));
}

/** Whether a profile shows the item now (so it stays out of reach of deletion). */
export async function isCurrentProfileMedia(db: Knex, mediaId: string): Promise<boolean> {
  return Boolean(await db('profile_media').where({ media_id: mediaId, current: true }).first('media_id'));
}
