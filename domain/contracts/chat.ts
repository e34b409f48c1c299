import { z } from 'zod';
import { text } from './text';

/** Lively Chat payloads (SPEC §3 payloads, enumerations, option lists; §5 messages; §7 chat socket). */

export const GENDER_IDENTITIES = [
  'man',
  'woman',
  'non_binary',
  'genderfluid',
  'transgender',
  'other',
  'prefer_not_to_say',
] as const;
/** The looking-for options omit prefer_not_to_say. */
export const LOOKING_FOR_GENDERS = GENDER_IDENTITIES.filter((g) => g !== 'prefer_not_to_say') as Exclude<
  GenderIdentity,
  'prefer_not_to_say'
>[];
export const SEXUAL_ORIENTATIONS = [
  'straight',
  'gay',
  'lesbian',
  'bisexual',
  'pansexual',
  'questioning',
  'asexual',
] as const;
/** The chat filter's orientations (it also offers queer, and 'any'). */
export const FILTER_ORIENTATIONS = [
  'any',
  'straight',
  'gay',
  'lesbian',
  'bisexual',
  'pansexual',
  'asexual',
  'queer',
] as const;
export const RELATIONSHIP_TYPES = [
  'casual',
  'dating',
  'serious',
  'friends',
  'hookup',
  'open_relationship',
  'polyamorous',
] as const;
export const EXPERIENCE_LEVELS = ['beginner', 'intermediate', 'experienced', 'expert'] as const;

export const INTERESTS = [
  'Music',
  'Movies',
  'Travel',
  'Fitness',
  'Art',
  'Photography',
  'Cooking',
  'Dancing',
  'Reading',
  'Gaming',
  'Sports',
  'Fashion',
  'Technology',
  'Nature',
  'Yoga',
  'Meditation',
  'Wine',
  'Coffee',
  'Pets',
  'Adventures',
] as const;
export const ACTIVITIES = [
  'Oral',
  'Anal',
  'BDSM',
  'Role Play',
  'Toys',
  'Outdoor',
  'Group',
  'Rough',
  'Gentle',
  'Massage',
  'Tantric',
  'Sensual',
  'Kinky',
  'Vanilla',
  'Fetish',
  'Swing',
  'Voyeur',
  'Exhibition',
] as const;
export const KINKS = [
  'Bondage',
  'Domination',
  'Submission',
  'Sadism',
  'Masochism',
  'Roleplay',
  'Fetish',
  'Voyeurism',
  'Exhibition',
  'Latex',
  'Leather',
  'Lingerie',
  'Feet',
  'Hair',
  'Impact Play',
  'Sensory Play',
] as const;
export const ROLES = [
  'Dominant',
  'Submissive',
  'Switch',
  'Top',
  'Bottom',
  'Versatile',
  'Sadist',
  'Masochist',
  'Brat',
  'Caregiver',
] as const;
export const DEAL_BREAKERS = [
  'Smoking',
  'Heavy Drinking',
  'Drug Use',
  'Dishonesty',
  'Jealousy',
  'Disrespect',
  'Poor Hygiene',
  'Rudeness',
  'Closed Minded',
  'Drama',
  'Unreliable',
  'Selfish',
  'Aggressive',
  'Judgmental',
] as const;
export const MUST_HAVES = [
  'Good Communication',
  'Sense of Humor',
  'Honesty',
  'Loyalty',
  'Respect',
  'Good Hygiene',
  'Confidence',
  'Open Minded',
  'Kind',
  'Adventurous',
  'Reliable',
  'Passionate',
  'Understanding',
  'Supportive',
] as const;

export type GenderIdentity = (typeof GENDER_IDENTITIES)[number];
export type SexualOrientation = (typeof SEXUAL_ORIENTATIONS)[number];
export type RelationshipType = (typeof RELATIONSHIP_TYPES)[number];
export type ExperienceLevel = (typeof EXPERIENCE_LEVELS)[number];

/** The wizard's starting values (SPEC §3 defaults; the stored defaults differ: 18-99, 50 miles). */
export const PROFILE_FORM_DEFAULTS = {
  displayName: '',
  age: 18,
  location: '',
  genderIdentity: 'prefer_not_to_say' as GenderIdentity,
  sexualOrientation: 'straight' as SexualOrientation,
  relationshipType: [] as RelationshipType[],
  bio: '',
  interests: [] as string[],
  sexualActivities: [] as string[],
  kinks: [] as string[],
  rolePreferences: [] as string[],
  experienceLevel: 'beginner' as ExperienceLevel,
  ageRangeMin: 18,
  ageRangeMax: 35,
  maxDistance: 25,
  lookingForGenders: [] as string[],
  dealBreakers: [] as string[],
  mustHaves: [] as string[],
  isPrivate: false,
};
export const STORED_PREFERENCE_DEFAULTS = { ageRangeMin: 18, ageRangeMax: 99, maxDistance: 50 };

/** A tag list: only the listed options, no repeats, order kept. */
const tags = (options: readonly string[], message: string) =>
  z
    .array(z.enum(options as [string, ...string[]], { error: message }), { error: message })
    .max(options.length, message)
    .transform((list) => [...new Set(list)]);

/** Numbers from a form may arrive as numeric strings. */
const wholeNumber = (typeMessage: string) => z.coerce.number({ error: typeMessage }).int(typeMessage);

export const profileSchema = z.object({
  displayName: text({ error: 'Display name must be at least 2 characters' })
    .trim()
    .min(2, 'Display name must be at least 2 characters')
    .max(50, 'Display name too long'),
  age: wholeNumber('Invalid age').min(18, 'You must be 18 or older').max(99, 'Invalid age'),
  location: text({ error: 'Location is required' }).trim().min(1, 'Location is required').max(100, 'Location too long'),
  genderIdentity: z.enum(GENDER_IDENTITIES, { error: 'Select a gender identity' }),
  sexualOrientation: z.enum(SEXUAL_ORIENTATIONS, { error: 'Select a sexual orientation' }),
  relationshipType: z
    .array(z.enum(RELATIONSHIP_TYPES, { error: 'Invalid relationship type' }), {
      error: 'Select at least one relationship type',
    })
    .min(1, 'Select at least one relationship type')
    .transform((list) => [...new Set(list)]),
  bio: text({ error: 'Bio too long' }).trim().max(500, 'Bio too long').optional().default(''),
  interests: tags(INTERESTS, 'Invalid interest').optional().default([]),
});
export type ProfileRequest = z.infer<typeof profileSchema>;

export const preferencesSchema = z
  .object({
    sexualActivities: tags(ACTIVITIES, 'Invalid activity').optional().default([]),
    kinks: tags(KINKS, 'Invalid kink').optional().default([]),
    rolePreferences: tags(ROLES, 'Invalid role').optional().default([]),
    experienceLevel: z.enum(EXPERIENCE_LEVELS, { error: 'Invalid experience level' }).optional(),
    ageRangeMin: wholeNumber('Invalid age').min(18, 'You must be 18 or older').max(99, 'Invalid age'),
    ageRangeMax: wholeNumber('Invalid age').min(18, 'You must be 18 or older').max(99, 'Invalid age'),
    maxDistance: wholeNumber('Invalid distance')
      .min(1, 'Distance must be at least 1 mile')
      .max(500, 'Distance must be at most 500 miles'),
    lookingForGenders: z
      .array(z.enum(LOOKING_FOR_GENDERS as [string, ...string[]], { error: 'Select at least one gender' }), {
        error: 'Select at least one gender',
      })
      .min(1, 'Select at least one gender')
      .transform((list) => [...new Set(list)]),
    dealBreakers: tags(DEAL_BREAKERS, 'Invalid deal breaker').optional().default([]),
    mustHaves: tags(MUST_HAVES, 'Invalid must have').optional().default([]),
    isPrivate: z.boolean({ error: 'Invalid private profile setting' }).optional().default(false),
  })
  .refine((p) => p.ageRangeMin <= p.ageRangeMax, {
    message: 'Minimum age must be less than or equal to maximum age',
    path: ['ageRangeMax'],
  });
export type PreferencesRequest = z.infer<typeof preferencesSchema>;

/** GET /api/profile. */
export interface ChatProfile extends ProfileRequest {
  userId: string;
  profileImages: string[];
  isOnline: boolean;
  lastActiveAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/preferences (stored defaults when none were saved). */
export interface ChatPreferences extends Omit<PreferencesRequest, 'experienceLevel'> {
  userId: string;
  experienceLevel: ExperienceLevel | null;
}

export const blockSchema = z.object({
  userId: text({ error: 'User id is required' }).trim().min(1, 'User id is required').pipe(z.uuid('Invalid user id')),
  reason: text({ error: 'Reason too long' }).trim().max(500, 'Reason too long').optional(),
});
/** POST /api/chat/sessions/:roomId/block: block the other member of that chat. */
export const blockPartnerSchema = z.object({
  reason: text({ error: 'Reason too long' }).trim().max(500, 'Reason too long').optional(),
});
export const reportSchema = z.object({
  reason: text({ error: 'Reason is required' }).trim().min(1, 'Reason is required').max(500, 'Reason too long'),
});

// ---- Chat socket (SPEC §7) ----

export const CHAT_MODES = ['standard', 'random'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

export const chatFiltersSchema = z.object({
  ageRange: z.tuple([z.number().int().min(18).max(99), z.number().int().min(18).max(99)]).optional(),
  orientation: z.enum(FILTER_ORIENTATIONS).optional(),
  interests: z.array(text().max(50)).max(50).optional(),
  location: text().max(100).optional(),
});

const sessionId = text().min(1).max(100);
/** Signalling payloads are relayed as they are; the size cap is the socket's payload limit. */
const signal = z.unknown();

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heartbeat') }),
  z.object({
    type: z.literal('join_queue'),
    mode: z.enum(CHAT_MODES).optional().default('standard'),
    filters: chatFiltersSchema.optional().default({}),
  }),
  z.object({ type: z.literal('offer'), sessionId, data: signal }),
  z.object({ type: z.literal('answer'), sessionId, data: signal }),
  z.object({ type: z.literal('ice_candidate'), sessionId, data: signal }),
  z.object({ type: z.literal('skip'), sessionId: sessionId.optional() }),
  z.object({ type: z.literal('leave'), sessionId: sessionId.optional() }),
]);

export interface MatchedData {
  /** `photos`: the partner's chat profile photos (public URLs), first shown first (issue 18). */
  peer: { displayName: string; photos?: string[] };
  compatibilityScore: number;
  isInitiator: boolean;
}

export type ServerMessage =
  | { type: 'connected'; userId: string }
  | { type: 'waiting' }
  | { type: 'matched'; sessionId: string; data: MatchedData }
  | { type: 'offer'; sessionId: string; data: unknown }
  | { type: 'answer'; sessionId: string; data: unknown }
  | { type: 'ice_candidate'; sessionId: string; data: unknown }
  | { type: 'skipped'; sessionId: string }
  | { type: 'error'; error: string }
  | { type: 'heartbeat_ack' };

/** Texts the service sends in `error` messages (SPEC §8 where it gives them). */
export const CHAT_ERRORS = {
  ageVerification: 'Age Verification Required: You must verify your age before using the chat feature.',
  subscription: 'Subscription Required: An active subscription is required to use the chat feature.',
  malformed: 'Malformed message',
  tooLarge: 'Message too large',
  staleSession: 'No such chat session',
  tooManyJoins: 'Too many chat searches in a minute. Please wait a moment and try again.',
  tooManySkips: 'Too many skips in a minute. Please wait a moment before skipping again.',
} as const;
