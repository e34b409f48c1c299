import type { Knex } from 'knex';
import type { ChatProfile, GenderIdentity, RelationshipType, SexualOrientation } from '../domain/contracts/chat';
import type {
  ChatMemberWentOffline,
  ChatMemberWentOnline,
  ChatProfileSaved,
  ChatSessionEnded,
  ChatSessionStarted,
} from '../domain/chat/events';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { DELETED_USER_NAME } from '../domain/privacy/personal-data';
import { publicMediaPrefix, publicMediaUrl, type ProfileImageSetData } from '../domain/media/profile-images';
import { KeyedRows } from './engine/keyed-rows';
import type { ProjectionContext, Projector } from './engine/projector';

/**
 * user_profiles: one row per chat member (SPEC §3). is_online follows the presence events the
 * realtime service records (first chat socket opened / last one closed); chat_presence keeps it
 * for members who have no profile yet, so a profile saved while online starts online.
 * last_active_at is the latest presence change or start or end of one of the member's sessions.
 */
export const userProfilesProjector: Projector = {
  name: 'user_profiles',
  // 3: AccountDeleted (issue 23); 4: it also forgets gender, orientation and relationship type.
  version: 4,
  tables: ['user_profiles', 'chat_presence'],
  eventTypes: [
    'ChatProfileSaved',
    'ChatSessionStarted',
    'ChatSessionEnded',
    'ChatMemberWentOnline',
    'ChatMemberWentOffline',
    'ChatProfileImageAdded',
    'ChatProfileImageRemoved',
    'ChatProfileImagesReordered',
    'AccountDeleted',
  ],
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
  apply: (context, event) => applyProfiles(context, [event]),
  applyAll: applyProfiles,
};

type PresenceEvent = ChatMemberWentOnline | ChatMemberWentOffline;
const imagesOf = (row: Record<string, unknown>) => (row.profile_images ?? []) as string[];
type SessionEvent = ChatSessionStarted | ChatSessionEnded;
const isPresence = (event: RecordedEvent) =>
  event.type === 'ChatMemberWentOnline' || event.type === 'ChatMemberWentOffline';
const isSession = (event: RecordedEvent) => event.type === 'ChatSessionStarted' || event.type === 'ChatSessionEnded';

/** The members an event is about. */
const membersOf = (event: RecordedEvent): string[] => {
  if (isSession(event)) {
    const d = (event as unknown as SessionEvent).data;
    return [d.user1Id, d.user2Id];
  }
  return [(event.data as { userId: string }).userId];
};

/** GREATEST(COALESCE(last, at), at): the newest activity whatever order sessions of different streams arrive in. */
const latest = (last: unknown, at: string) =>
  last == null || new Date(at) > new Date(last as string | Date) ? at : last;

/**
 * Four statements per batch: the profiles and presence of the batch's members read, the events
 * applied to them in memory in order, then both upserted.
 */
async function applyProfiles(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const profiles = await KeyedRows.load(context, 'user_profiles', 'user_id', events.flatMap(membersOf));
  const presence = await KeyedRows.load(
    context,
    'chat_presence',
    'user_id',
    events.filter((e) => !isSession(e)).flatMap(membersOf),
  );
  for (const event of events) {
    if (isPresence(event)) {
      const d = (event as unknown as PresenceEvent).data;
      const isOnline = event.type === 'ChatMemberWentOnline';
      // Events of one member arrive in stream order: the last one applied is the state.
      presence.set(d.userId, { user_id: d.userId, is_online: isOnline, changed_at: d.at });
      profiles.change(
        d.userId,
        (row) => row && { ...row, is_online: isOnline, last_active_at: latest(row.last_active_at, d.at) },
      );
    } else if (event.type === 'ChatProfileImageAdded') {
      // The chat profile's images (issue 18): the public URL of each item made for it, in order.
      const d = event.data as ProfileImageSetData;
      const url = publicMediaUrl(d.mediaId, d.variant);
      profiles.change(d.userId, (row) => row && { ...row, profile_images: [...imagesOf(row), url] });
    } else if (event.type === 'ChatProfileImageRemoved') {
      const d = event.data as ProfileImageSetData;
      const gone = publicMediaPrefix(d.mediaId);
      profiles.change(
        d.userId,
        (row) => row && { ...row, profile_images: imagesOf(row).filter((url) => !url.startsWith(gone)) },
      );
    } else if (event.type === 'ChatProfileImagesReordered') {
      const d = event.data as { userId: string; mediaIds: string[] };
      const rank = (url: string) => d.mediaIds.findIndex((id) => url.startsWith(publicMediaPrefix(id)));
      profiles.change(
        d.userId,
        (row) => row && { ...row, profile_images: [...imagesOf(row)].sort((a, b) => rank(a) - rank(b)) },
      );
    } else if (event.type === 'AccountDeleted') {
      // Issue 23: the profile reads as ChatProfileSaved replays once the key is gone, without
      // images (their items are gone); `chatMemberRow` no longer admits the account to chat.
      const d = event.data as AccountDeletedData;
      profiles.change(
        d.userId,
        (row) =>
          row && {
            ...row,
            display_name: DELETED_USER_NAME,
            location: '',
            bio: '',
            interests: [],
            profile_images: [],
            // Special-category data (GDPR art. 9): sealed in the log like the texts.
            gender_identity: '',
            sexual_orientation: '',
            relationship_type: [],
          },
      );
    } else if (event.type === 'ChatProfileSaved') {
      const d = (event as unknown as ChatProfileSaved).data;
      const saved = {
        display_name: d.displayName,
        age: d.age,
        location: d.location,
        gender_identity: d.genderIdentity,
        sexual_orientation: d.sexualOrientation,
        relationship_type: d.relationshipType,
        bio: d.bio,
        interests: d.interests,
        updated_at: d.savedAt,
      };
      // A new profile starts with the presence recorded so far (and the table's defaults).
      const online = presence.get(d.userId);
      const created = {
        user_id: d.userId,
        profile_images: [],
        is_online: online?.is_online ?? false,
        last_active_at: online?.changed_at ?? null,
        created_at: d.savedAt,
      };
      profiles.change(d.userId, (row) => ({ ...(row ?? created), ...saved }));
    } else {
      const d = (event as unknown as SessionEvent).data;
      const at = 'startedAt' in d ? d.startedAt : d.endedAt;
      for (const member of [d.user1Id, d.user2Id])
        profiles.change(member, (row) => row && { ...row, last_active_at: latest(row.last_active_at, at) });
    }
  }
  await presence.store();
  await profiles.store();
}

interface UserProfileRow {
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

// Queries: a member's chat profile as the client shows it, members shown online, the chat member row.

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

export async function findProfile(db: Knex, userId: string): Promise<ChatProfile | null> {
  const row = await db<UserProfileRow>('user_profiles').where({ user_id: userId }).first();
  return row ? profileView(row) : null;
}

/** Members the read model shows online (before the projection's first run: none). */
export async function membersShownOnline(db: Knex): Promise<string[]> {
  if (!(await db.schema.hasTable('chat_presence'))) return [];
  const rows: { user_id: string }[] = await db('chat_presence').where({ is_online: true }).select('user_id');
  return rows.map((row) => row.user_id);
}

/**
 * What the chat service knows of a member: the `users` gates, the chat profile and the matching
 * preferences; none for an account that is not active.
 */
export interface ChatMemberRow {
  id: string;
  first_name: string | null;
  subscription_status: string | null;
  subscription_end_date: Date | null;
  age_verified: boolean | null;
  display_name: string | null;
  profile_images: string[] | null;
  age: number | null;
  location: string | null;
  gender_identity: string | null;
  sexual_orientation: string | null;
  relationship_type: string[] | null;
  interests: string[] | null;
  sexual_activities: string[] | null;
  kinks: string[] | null;
  role_preferences: string[] | null;
  experience_level: string | null;
  age_range_min: number | null;
  age_range_max: number | null;
  looking_for_genders: string[] | null;
  deal_breakers: string[] | null;
  must_haves: string[] | null;
}

export async function chatMemberRow(db: Knex, userId: string): Promise<ChatMemberRow | undefined> {
  return (
    db('users as u')
      // users.id is a uuid column, the chat read models key on text.
      .leftJoin('user_profiles as p', (on) => on.on(db.raw('p.user_id = u.id::text')))
      .leftJoin('user_preferences as q', (on) => on.on(db.raw('q.user_id = u.id::text')))
      .where('u.id', userId)
      // A deleted (or deactivated) account is no chat member: never admitted, never matched.
      .where('u.is_active', true)
      .first(
        'u.id',
        'u.first_name',
        'u.subscription_status',
        'u.subscription_end_date',
        'u.age_verified',
        'p.display_name',
        'p.profile_images',
        'p.age',
        'p.location',
        'p.gender_identity',
        'p.sexual_orientation',
        'p.relationship_type',
        'p.interests',
        'q.sexual_activities',
        'q.kinks',
        'q.role_preferences',
        'q.experience_level',
        'q.age_range_min',
        'q.age_range_max',
        'q.looking_for_genders',
        'q.deal_breakers',
        'q.must_haves',
      )
  );
}
