import type { ExperienceLevel, GenderIdentity, RelationshipType, SexualOrientation } from '../contracts/chat';
import type { DomainEvent } from '../shared/command-handler';

/**
 * Events of Lively Chat. Streams: `chatMember-<userId>` (profile, preferences, blocks),
 * `chatPresence-<userId>` (online/offline: frequent, so apart from the member's other facts),
 * `chatSession-<roomId>`.
 */

export const memberStream = (userId: string) => `chatMember-${userId}`;
export const presenceStream = (userId: string) => `chatPresence-${userId}`;
export const sessionStream = (roomId: string) => `chatSession-${roomId}`;

export interface ProfileData {
  displayName: string;
  age: number;
  location: string;
  genderIdentity: GenderIdentity;
  sexualOrientation: SexualOrientation;
  relationshipType: RelationshipType[];
  bio: string;
  interests: string[];
}

export interface PreferencesData {
  sexualActivities: string[];
  kinks: string[];
  rolePreferences: string[];
  experienceLevel: ExperienceLevel | null;
  ageRangeMin: number;
  ageRangeMax: number;
  maxDistance: number;
  lookingForGenders: string[];
  dealBreakers: string[];
  mustHaves: string[];
  isPrivate: boolean;
}

export type ChatProfileSaved = DomainEvent<'ChatProfileSaved', ProfileData & { userId: string; savedAt: string }>;
export type ChatPreferencesSaved = DomainEvent<
  'ChatPreferencesSaved',
  PreferencesData & { userId: string; savedAt: string }
>;
export type ChatUserBlocked = DomainEvent<
  'ChatUserBlocked',
  { blockerId: string; blockedId: string; reason: string | null; blockedAt: string }
>;
/** Presence: the member opened their first chat socket / closed their last one (SPEC §3 user_profiles.isOnline). */
export type ChatMemberWentOnline = DomainEvent<'ChatMemberWentOnline', { userId: string; at: string }>;
export type ChatMemberWentOffline = DomainEvent<'ChatMemberWentOffline', { userId: string; at: string }>;
export type MemberEvent = ChatProfileSaved | ChatPreferencesSaved | ChatUserBlocked;
export type PresenceEvent = ChatMemberWentOnline | ChatMemberWentOffline;

export type ChatEndReason = 'skipped' | 'left' | 'disconnected' | 'rejoined';

export type ChatSessionStarted = DomainEvent<
  'ChatSessionStarted',
  {
    roomId: string;
    user1Id: string;
    user2Id: string;
    mode: 'standard' | 'random';
    compatibilityScore: number;
    startedAt: string;
  }
>;
export type ChatSessionEnded = DomainEvent<
  'ChatSessionEnded',
  {
    roomId: string;
    user1Id: string;
    user2Id: string;
    endedBy: string | null;
    reason: ChatEndReason;
    endedAt: string;
    durationSeconds: number;
  }
>;
export type ChatSessionReported = DomainEvent<
  'ChatSessionReported',
  { roomId: string; reporterId: string; reportedUserId: string; reason: string; reportedAt: string }
>;
export type SessionEvent = ChatSessionStarted | ChatSessionEnded | ChatSessionReported;
