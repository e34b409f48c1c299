import type { Knex } from 'knex';
import type { ChatProfileSaved, ChatSessionEnded, ChatSessionStarted } from '../domain/chat/events';
import type { Projector } from './projector';

/**
 * user_profiles: one row per chat member (SPEC §3). last_active_at is the latest start or end of
 * one of the member's chat sessions. is_online stays false here: live presence is the realtime
 * service's memory, not an event (a socket per heartbeat is not a fact worth recording).
 */
export const userProfilesProjector: Projector = {
  name: 'user_profiles',
  version: 1,
  tables: ['user_profiles'],
  eventTypes: ['ChatProfileSaved', 'ChatSessionStarted', 'ChatSessionEnded'],
  async createTables(db: Knex, schema: string) {
    await db.schema.withSchema(schema).createTable('user_profiles', (t) => {
      t.text('user_id').primary();
      t.text('display_name').notNullable();
      t.integer('age').notNullable();
      t.text('location').notNullable();
      t.text('gender_identity').notNullable();
      t.text('sexual_orientation').notNullable();
      t.jsonb('relationship_type').notNullable();
      t.text('bio').notNullable().defaultTo('');
      t.jsonb('profile_images').notNullable().defaultTo('[]');
      t.jsonb('interests').notNullable();
      t.boolean('is_online').notNullable().defaultTo(false);
      t.timestamp('last_active_at', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  async apply({ table, trx }, event) {
    if (event.type === 'ChatProfileSaved') {
      const d = (event as unknown as ChatProfileSaved).data;
      const row = {
        display_name: d.displayName,
        age: d.age,
        location: d.location,
        gender_identity: d.genderIdentity,
        sexual_orientation: d.sexualOrientation,
        relationship_type: JSON.stringify(d.relationshipType),
        bio: d.bio,
        interests: JSON.stringify(d.interests),
        updated_at: d.savedAt,
      };
      await table('user_profiles')
        .insert({ user_id: d.userId, ...row, created_at: d.savedAt })
        .onConflict('user_id')
        .merge(row);
      return;
    }
    const d = (event as unknown as ChatSessionStarted | ChatSessionEnded).data;
    const at = 'startedAt' in d ? d.startedAt : d.endedAt;
    // GREATEST keeps the newest activity whatever order sessions of different streams arrive in.
    await table('user_profiles')
      .whereIn('user_id', [d.user1Id, d.user2Id])
      .update({ last_active_at: trx.raw('GREATEST(COALESCE(last_active_at, ?::timestamptz), ?::timestamptz)', [at, at]) });
  },
};

export interface UserProfileRow {
  user_id: string;
  display_name: string;
  age: number;
  location: string;
  gender_identity: string;
  sexual_orientation: string;
  relationship_type: string[];
  bio: string;
  profile_images: string[];
  interests: string[];
  is_online: boolean;
  last_active_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
