import type { Knex } from 'knex';
import type { ChatPreferencesSaved } from '../domain/chat/events';
import type { Projector } from './projector';

/** user_preferences: one row per member who saved matching preferences (SPEC §3). */
export const userPreferencesProjector: Projector = {
  name: 'user_preferences',
  version: 1,
  tables: ['user_preferences'],
  eventTypes: ['ChatPreferencesSaved'],
  async createTables(db: Knex, schema: string) {
    await db.schema.withSchema(schema).createTable('user_preferences', (t) => {
      t.text('user_id').primary();
      t.jsonb('sexual_activities').notNullable();
      t.jsonb('kinks').notNullable();
      t.jsonb('role_preferences').notNullable();
      t.text('experience_level');
      t.integer('age_range_min').notNullable().defaultTo(18);
      t.integer('age_range_max').notNullable().defaultTo(99);
      t.integer('max_distance').notNullable().defaultTo(50);
      t.jsonb('looking_for_genders').notNullable();
      t.jsonb('deal_breakers').notNullable();
      t.jsonb('must_haves').notNullable();
      t.boolean('is_private').notNullable().defaultTo(false);
      t.timestamp('updated_at', { useTz: true }).notNullable();
    });
  },
  async apply({ table }, event) {
    const d = (event as unknown as ChatPreferencesSaved).data;
    const row = {
      sexual_activities: JSON.stringify(d.sexualActivities),
      kinks: JSON.stringify(d.kinks),
      role_preferences: JSON.stringify(d.rolePreferences),
      experience_level: d.experienceLevel,
      age_range_min: d.ageRangeMin,
      age_range_max: d.ageRangeMax,
      max_distance: d.maxDistance,
      looking_for_genders: JSON.stringify(d.lookingForGenders),
      deal_breakers: JSON.stringify(d.dealBreakers),
      must_haves: JSON.stringify(d.mustHaves),
      is_private: d.isPrivate,
      updated_at: d.savedAt,
    };
    await table('user_preferences').insert({ user_id: d.userId, ...row }).onConflict('user_id').merge(row);
  },
};

export interface UserPreferencesRow {
  user_id: string;
  sexual_activities: string[];
  kinks: string[];
  role_preferences: string[];
  experience_level: string | null;
  age_range_min: number;
  age_range_max: number;
  max_distance: number;
  looking_for_genders: string[];
  deal_breakers: string[];
  must_haves: string[];
  is_private: boolean;
  updated_at: Date;
}
