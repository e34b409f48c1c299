import {
  ACTIVITIES,
  DEAL_BREAKERS,
  EXPERIENCE_LEVELS,
  GENDER_IDENTITIES,
  INTERESTS,
  KINKS,
  MUST_HAVES,
  RELATIONSHIP_TYPES,
  ROLES,
} from '../domain/contracts/chat';

/**
 * Compatibility between two chat members, from their profiles and preferences, on bitmasks so
 * the matcher can score thousands of pairs per millisecond.
 *
 *   score = 0.25 · interests            overlap of interests (plus the interests filter of the join)
 *         + 0.15 · relationship         overlap of relationship types
 *         + 0.20 · roles                complementary roles: 1 if one side holds a role the other
 *                                       side's roles complement (Dominant↔Submissive, Top↔Bottom,
 *                                       Sadist↔Masochist, Brat↔Caregiver; Switch complements
 *                                       Dominant, Submissive and Switch; Versatile complements
 *                                       Top, Bottom and Versatile), else 0.2
 *         + 0.15 · activities & kinks   mean of the overlaps of activities and of kinks
 *         + 0.10 · experience           1 − |level difference| / 3 (beginner … expert)
 *         + 0.15 · values               overlap of "values": must-haves, and deal-breakers read as
 *                                       the value they protect (Dishonesty → Honesty, Poor Hygiene
 *                                       → Good Hygiene, …); a must-have of one side that is the
 *                                       other side's deal-breaker value is agreement, not conflict
 *
 * overlap(A, B) = |A ∩ B| / min(|A|, |B|) (the overlap coefficient: a member with few tags is not
 * punished for the other's many), and 0.5 (neutral) when either side left the list empty.
 * The score is in [0, 1]; the page shows round(score × 100) %.
 */
export const WEIGHTS = {
  interests: 0.25,
  relationship: 0.15,
  roles: 0.2,
  activities: 0.15,
  experience: 0.1,
  values: 0.15,
} as const;

export interface MatchProfile {
  /** Bit of the member's gender identity (GENDER_IDENTITIES order); prefer_not_to_say when unknown. */
  genderBit: number;
  age: number | null;
  orientation: string | null;
  location: string;
  /** Genders the member wants to meet; 0 means anyone. */
  lookingFor: number;
  ageMin: number;
  ageMax: number;
  interests: number;
  relationships: number;
  activities: number;
  kinks: number;
  roles: number;
  /** The roles that complement the member's roles. */
  roleComplements: number;
  values: number;
  /** 0-3, or -1 when unknown. */
  experience: number;
}

const maskOf = (options: readonly string[]) => {
  const index = new Map(options.map((option, i) => [option, 1 << i]));
  return (list: readonly string[] | null | undefined) => {
    let mask = 0;
    for (const item of list ?? []) mask |= index.get(item) ?? 0;
    return mask;
  };
};
export const genderMask = maskOf(GENDER_IDENTITIES);
export const interestMask = maskOf(INTERESTS);
const relationshipMask = maskOf(RELATIONSHIP_TYPES);
const activityMask = maskOf(ACTIVITIES);
const kinkMask = maskOf(KINKS);
const roleMask = maskOf(ROLES);
const mustHaveMask = maskOf(MUST_HAVES);

const COMPLEMENTS: Record<string, string[]> = {
  Dominant: ['Submissive', 'Switch', 'Brat'],
  Submissive: ['Dominant', 'Switch'],
  Switch: ['Dominant', 'Submissive', 'Switch'],
  Top: ['Bottom', 'Versatile'],
  Bottom: ['Top', 'Versatile'],
  Versatile: ['Top', 'Bottom', 'Versatile'],
  Sadist: ['Masochist'],
  Masochist: ['Sadist'],
  Brat: ['Caregiver', 'Dominant'],
  Caregiver: ['Brat'],
};
/** A deal-breaker read as the value it protects (those without a counterpart are values of their own). */
const DEAL_BREAKER_VALUE: Record<string, string> = {
  Dishonesty: 'Honesty',
  Disrespect: 'Respect',
  'Poor Hygiene': 'Good Hygiene',
  'Closed Minded': 'Open Minded',
  Unreliable: 'Reliable',
  Rudeness: 'Kind',
  Selfish: 'Supportive',
  Judgmental: 'Understanding',
};
const OWN_VALUE_BITS = new Map(
  DEAL_BREAKERS.filter((d) => !DEAL_BREAKER_VALUE[d]).map((d, i) => [d, 1 << (MUST_HAVES.length + i)]),
);
function valuesMask(mustHaves: readonly string[], dealBreakers: readonly string[]): number {
  let mask = mustHaveMask(mustHaves);
  for (const d of dealBreakers)
    mask |= DEAL_BREAKER_VALUE[d]
      ? mustHaveMask([DEAL_BREAKER_VALUE[d]])
      : (OWN_VALUE_BITS.get(d as (typeof DEAL_BREAKERS)[number]) ?? 0);
  return mask;
}

export function popcount(n: number): number {
  n = n - ((n >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function overlap(a: number, b: number): number {
  if (a === 0 || b === 0) return 0.5;
  return popcount(a & b) / Math.min(popcount(a), popcount(b));
}

export interface ProfileInput {
  displayName?: string;
  age?: number | null;
  location?: string | null;
  genderIdentity?: string | null;
  sexualOrientation?: string | null;
  relationshipType?: readonly string[];
  interests?: readonly string[];
}
export interface PreferencesInput {
  sexualActivities?: readonly string[];
  kinks?: readonly string[];
  rolePreferences?: readonly string[];
  experienceLevel?: string | null;
  ageRangeMin?: number;
  ageRangeMax?: number;
  lookingForGenders?: readonly string[];
  dealBreakers?: readonly string[];
  mustHaves?: readonly string[];
}

/** A member's profile and preferences as the matcher reads them (either may be missing). */
export function compileProfile(profile: ProfileInput | null, preferences: PreferencesInput | null): MatchProfile {
  const roles = preferences?.rolePreferences ?? [];
  return {
    genderBit: genderMask([profile?.genderIdentity ?? 'prefer_not_to_say']) || genderMask(['prefer_not_to_say']),
    age: profile?.age ?? null,
    orientation: profile?.sexualOrientation ?? null,
    location: (profile?.location ?? '').toLowerCase(),
    lookingFor: genderMask(preferences?.lookingForGenders ?? []),
    ageMin: preferences?.ageRangeMin ?? 18,
    ageMax: preferences?.ageRangeMax ?? 99,
    interests: interestMask(profile?.interests ?? []),
    relationships: relationshipMask(profile?.relationshipType ?? []),
    activities: activityMask(preferences?.sexualActivities ?? []),
    kinks: kinkMask(preferences?.kinks ?? []),
    roles: roleMask(roles),
    roleComplements: roleMask(roles.flatMap((role) => COMPLEMENTS[role] ?? [])),
    values: valuesMask(preferences?.mustHaves ?? [], preferences?.dealBreakers ?? []),
    experience: EXPERIENCE_LEVELS.indexOf((preferences?.experienceLevel ?? '') as never),
  };
}

/** The formula above. `extraA`/`extraB`: interests named in each side's join filters. */
export function compatibility(a: MatchProfile, b: MatchProfile, extraA = 0, extraB = 0): number {
  const roles =
    a.roles === 0 || b.roles === 0
      ? 0.5
      : (a.roleComplements & b.roles) !== 0 || (b.roleComplements & a.roles) !== 0
        ? 1
        : 0.2;
  const experience = a.experience < 0 || b.experience < 0 ? 0.5 : 1 - Math.abs(a.experience - b.experience) / 3;
  const score =
    WEIGHTS.interests * overlap(a.interests | extraA, b.interests | extraB) +
    WEIGHTS.relationship * overlap(a.relationships, b.relationships) +
    WEIGHTS.roles * roles +
    WEIGHTS.activities * ((overlap(a.activities, b.activities) + overlap(a.kinks, b.kinks)) / 2) +
    WEIGHTS.experience * experience +
    WEIGHTS.values * overlap(a.values, b.values);
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}
