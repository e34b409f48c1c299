import type { Knex } from 'knex';
import type { ChatMemberWentOffline, ChatMemberWentOnline, ChatProfileSaved, ChatSessionEnded, ChatSessionStarted } from '../domain/chat/events';
import type { Projector } from './projector';

/**
 * user_profiles: one row per chat member (SPEC §3). is_online follows the presence events the
 * realtime service records (first chat socket opened / last one closed); chat_presence keeps it
 * for members who have no profile yet, so a profile saved while online starts online.
 * last_active_at is the latest presence change or start or end of one of the member's sessions.
 */
export const userProfilesProjector: Projector = {
  name: 'user_profiles',
  version: 2,
  tables: ['user_profiles', 'chat_presence'],
  eventTypes: ['ChatProfileSaved', 'ChatSessionStarted', 'ChatSessionEnded', 'ChatMemberWentOnline', 'ChatMemberWentOffline'],
  async createTables(db: Knex, schema: string) {
    await db.schema.withSchema(schema).createTable('chat_presence', (t) => {
      t.text('user_id').primary();
      t.boolean('is_online').notNullable();
      t.timestamp('changed_at', { useTz: true }).notNullable();
    });
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
  async apply({ table, ref, trx }, event) {
    if (event.type === 'ChatMemberWentOnline' || event.type === 'ChatMemberWentOffline') {
      const d = (event as unknown as ChatMemberWentOnline | ChatMemberWentOffline).data;
      const isOnline = event.type === 'ChatMemberWentOnline';
      // Events of one member arrive in stream order: the last one applied is the state.
      await table('chat_presence').insert({ user_id: d.userId, is_online: isOnline, changed_at: d.at }).onConflict('user_id').merge(['is_online', 'changed_at']);
      await table('user_profiles')
        .where({ user_id: d.userId })
        .update({ is_online: isOnline, last_active_at: trx.raw('GREATEST(COALESCE(last_active_at, ?::timestamptz), ?::timestamptz)', [d.at, d.at]) });
      return;
    }
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
      const presence = (column: string) => trx.raw(`(SELECT ${column} FROM ${ref('chat_presence')} WHERE user_id = ?)`, [d.userId]);
      await table('user_profiles')
        .insert({ user_id: d.userId, ...row, is_online: trx.raw('COALESCE(?, false)', [presence('is_online')]), last_active_at: presence('changed_at'), created_at: d.savedAt })
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
