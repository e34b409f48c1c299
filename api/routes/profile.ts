import { Router, type Request } from 'express';
import {
  preferencesSchema,
  profileSchema,
  STORED_PREFERENCE_DEFAULTS,
  type ChatPreferences,
  type ChatProfile,
  type ExperienceLevel,
  type GenderIdentity,
  type RelationshipType,
  type SexualOrientation,
} from '../../domain/contracts/chat';
import { memberStream } from '../../domain/chat/events';
import { memberDecider } from '../../domain/chat/member-decider';
import { handleCommand } from '../../domain/shared/command-handler';
import { refuse } from '../../domain/shared/errors';
import type { UserPreferencesRow } from '../../projections/user-preferences';
import type { UserProfileRow } from '../../projections/user-profiles';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

function profileView(row: UserProfileRow): ChatProfile {
  return {
    userId: row.user_id,
    displayName: row.display_name,
    age: row.age,
    location: row.location,
    genderIdentity: row.gender_identity as GenderIdentity,
    sexualOrientation: row.sexual_orientation as SexualOrientation,
    relationshipType: row.relationship_type as RelationshipType[],
    bio: row.bio,
    interests: row.interests,
    profileImages: row.profile_images,
    isOnline: row.is_online,
    lastActiveAt: iso(row.last_active_at),
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function preferencesView(userId: string, row: UserPreferencesRow | undefined): ChatPreferences {
  if (!row) {
    return { userId, sexualActivities: [], kinks: [], rolePreferences: [], experienceLevel: null, ...STORED_PREFERENCE_DEFAULTS, lookingForGenders: [], dealBreakers: [], mustHaves: [], isPrivate: false };
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

/** The Lively Chat profile and matching preferences of the signed-in member (SPEC §2 Profile setup, §5). */
export function profileRoutes(api: Api): Router {
  const router = Router();
  const { store, db } = api.deps;
  const userOf = (req: Request) => req.userId as string;
  // Chat is for members with an active site subscription (SPEC §6).
  const member = requireActiveSubscription(db);
  const readProfile = async (userId: string) => {
    const row = await db<UserProfileRow>('user_profiles').where({ user_id: userId }).first();
    return row ? profileView(row) : null;
  };

  router.get('/profile', member, async (req, res) => {
    const profile = await readProfile(userOf(req));
    if (!profile) throw refuse.notFound('Profile not found');
    res.json(profile);
  });

  router.post('/profile', member, async (req, res) => {
    const profile = parseWith(profileSchema, req.body);
    const context = api.context(req);
    const result = await handleCommand(store, memberStream(userOf(req)), memberDecider, { type: 'SaveProfile', userId: userOf(req), profile, now: context.now }, context);
    await api.readYourWrites(result.position);
    res.json({ message: 'Profile saved', profile: await readProfile(userOf(req)) });
  });

  router.get('/preferences', member, async (req, res) => {
    const row = await db<UserPreferencesRow>('user_preferences').where({ user_id: userOf(req) }).first();
    res.json(preferencesView(userOf(req), row));
  });

  router.post('/preferences', member, async (req, res) => {
    const body = parseWith(preferencesSchema, req.body);
    const preferences = { ...body, experienceLevel: body.experienceLevel ?? null };
    const context = api.context(req);
    const result = await handleCommand(store, memberStream(userOf(req)), memberDecider, { type: 'SavePreferences', userId: userOf(req), preferences, now: context.now }, context);
    await api.readYourWrites(result.position);
    const row = await db<UserPreferencesRow>('user_preferences').where({ user_id: userOf(req) }).first();
    res.json({ message: 'Preferences saved', preferences: preferencesView(userOf(req), row) });
  });

  return router;
}
