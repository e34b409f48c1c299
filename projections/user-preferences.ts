import type { Knex } from 'knex';
import { STORED_PREFERENCE_DEFAULTS, type ChatPreferences, type ExperienceLevel } from '../domain/contracts/chat';
import type { ChatPreferencesSaved } from '../domain/chat/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { bulkInsert } from './engine/bulk-insert';
import type { ProjectionContext, Projector } from './engine/projector';
import { forgettingAccounts } from './engine/forgetting-accounts';

/** Issue 23: the lists ChatPreferencesSaved replays empty once the key is gone, and the profile private. */
const forgetPreferences = (context: ProjectionContext, userId: string) =>
  context
    .table('user_preferences')
    .where({ user_id: userId })
    .update({
      sexual_activities: JSON.stringify([]),
      kinks: JSON.stringify([]),
      role_preferences: JSON.stringify([]),
      deal_breakers: JSON.stringify([]),
      must_haves: JSON.stringify([]),
      is_private: true,
    });

/** user_preferences: one row per member who saved matching preferences (SPEC §3). */
export const userPreferencesProjector: Projector = {
  name: 'user_preferences',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['user_preferences'],
  eventTypes: ['ChatPreferencesSaved', 'AccountDeleted'],
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
  ...forgettingAccounts(applyPreferences, forgetPreferences),
};

/** A save replaces the member's whole row: the batch's last save per member, in one upsert. */
async function applyPreferences(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const rows = new Map<string, Record<string, unknown>>();
  for (const event of events) {
    const d = (event as unknown as ChatPreferencesSaved).data;
    rows.set(d.userId, {
      user_id: d.userId,
      sexual_activities: d.sexualActivities,
      kinks: d.kinks,
      role_preferences: d.rolePreferences,
      experience_level: d.experienceLevel ?? null,
      age_range_min: d.ageRangeMin,
      age_range_max: d.ageRangeMax,
      max_distance: d.maxDistance,
      looking_for_genders: d.lookingForGenders,
      deal_breakers: d.dealBreakers,
      must_haves: d.mustHaves,
      is_private: d.isPrivate,
      updated_at: d.savedAt,
    });
  }
  await bulkInsert(context, 'user_preferences', [...rows.values()], { conflict: ['user_id'], merge: true });
}

interface UserPreferencesRow {
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

// Queries: a member's matching preferences as the client shows them (the defaults before any are saved).

function preferencesView(userId: string, row: UserPreferencesRow | undefined): ChatPreferences {
  if (!row) {
    return {
      userId,
      sexualActivities: [],
      kinks: [],
      rolePreferences: [],
      experienceLevel: null,
      ...STORED_PREFERENCE_DEFAULTS,
      lookingForGenders: [],
      dealBreakers: [],
      mustHaves: [],
      isPrivate: false,
    };
  }
  return {
    userId,
    sexualActivities: row.sexual_activities,
    kinks: row.kinks,
    rolePreferences: row.role_preferences,
    experienceLevel: row.experience_level as ExperienceLevel | null,
    ageRangeMin: row.age_range_min,
    ageRangeMax: row.age_range_max,
    maxDistance: row.max_distance,
    lookingForGenders: row.looking_for_genders,
    dealBreakers: row.deal_breakers,
    mustHaves: row.must_haves,
    isPrivate: row.is_private,
  };
}

export async function preferencesOf(db: Knex, userId: string): Promise<ChatPreferences> {
  const row = await db<UserPreferencesRow>('user_preferences').where({ user_id: userId }).first();
  return preferencesView(userId, row);
}
