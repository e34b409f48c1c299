import type { Knex } from 'knex';
import { CHAT_ERRORS } from '../domain/contracts/chat';
import { hasSiteAccess } from '../domain/contracts/membership';
import { blockedAround } from '../projections/blocks';
import { resolveSession } from '../projections/sessions';
import { isDeactivated } from '../projections/users';
import { chatMemberRow, type ChatMemberRow } from '../projections/user-profiles';
import { compileProfile } from './compatibility';
import type { Member } from './matcher';

/** Who is opening a chat socket, decided once per upgrade. */
export type Admission =
  | { ok: false; status: '401 Unauthorized' | '403 Forbidden'; reason: string }
  /** `refusal`: the socket opens only to say why chat is not available (SPEC §8 text), then closes. */
  | { ok: true; member: Member; refusal: string | null };

export interface MemberDirectory {
  admit(sessionToken: string | undefined, userId: string | null): Promise<Admission>;
  /** A connected member's fresh profile and preferences (after they saved new ones). */
  load(userId: string, blocked: Set<string>): Promise<Member | null>;
}

/**
 * Members from the read models: the HTTP session (`lively.sid` cookie), the `users` row
 * (subscription and age verification gate chat), the chat profile, preferences and blocks.
 */
export class DatabaseDirectory implements MemberDirectory {
  constructor(private readonly db: Knex) {}

  async admit(sessionToken: string | undefined, userId: string | null): Promise<Admission> {
    const session = await resolveSession(this.db, sessionToken);
    // Suspended or banned: its sessions were ended; one opened meanwhile opens no chat either.
    if (!session || (session.user && isDeactivated(session.user, new Date())))
      return { ok: false, status: '401 Unauthorized', reason: 'Unauthorized' };
    // A socket never acts as anyone but the session's user.
    if (!userId || userId !== session.userId) return { ok: false, status: '403 Forbidden', reason: 'Forbidden' };
    const blocked = await blockedAround(this.db, userId);
    const row = await chatMemberRow(this.db, userId);
    if (!row) return { ok: false, status: '401 Unauthorized', reason: 'Unauthorized' };
    const access = hasSiteAccess({
      subscriptionStatus: row.subscription_status ?? 'none',
      subscriptionEndDate: row.subscription_end_date && new Date(row.subscription_end_date).toISOString(),
    });
    const refusal = !access ? CHAT_ERRORS.subscription : row.age_verified !== true ? CHAT_ERRORS.ageVerification : null;
    return { ok: true, member: toMember(row, blocked), refusal };
  }

  async load(userId: string, blocked: Set<string>): Promise<Member | null> {
    const row = await chatMemberRow(this.db, userId);
    return row ? toMember(row, blocked) : null;
  }
}

function toMember(row: ChatMemberRow, blocked: Set<string>): Member {
  const profile = row.display_name
    ? {
        age: row.age,
        location: row.location,
        genderIdentity: row.gender_identity,
        sexualOrientation: row.sexual_orientation,
        relationshipType: row.relationship_type ?? [],
        interests: row.interests ?? [],
      }
    : null;
  const preferences =
    row.age_range_min !== null
      ? {
          sexualActivities: row.sexual_activities ?? [],
          kinks: row.kinks ?? [],
          rolePreferences: row.role_preferences ?? [],
          experienceLevel: row.experience_level,
          ageRangeMin: row.age_range_min ?? 18,
          ageRangeMax: row.age_range_max ?? 99,
          lookingForGenders: row.looking_for_genders ?? [],
          dealBreakers: row.deal_breakers ?? [],
          mustHaves: row.must_haves ?? [],
        }
      : null;
  return {
    userId: row.id,
    displayName: row.display_name || row.first_name || 'Anonymous',
    photos: row.profile_images ?? [],
    profile: compileProfile(profile, preferences),
    blocked,
  };
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}
