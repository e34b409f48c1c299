import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { createTestDatabase, type TestDatabase } from '../ops/testing/test-database';
import { blocksProjector } from './blocks';
import { chatSessionsProjector } from './chat-sessions';
import { openReadDatabase } from './engine/database';
import { replayTwice } from './engine/testing/replay-twice';
import { userPreferencesProjector } from './user-preferences';
import { userProfilesProjector } from './user-profiles';

let database: TestDatabase;
let db: Knex;
beforeAll(async () => {
  database = await createTestDatabase();
  db = openReadDatabase(database.url);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

let seq = 0n;
const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => {
  seq++;
  return {
    eventId: `e${seq}`,
    streamId: 's',
    revision: seq,
    position: { commit: seq, prepare: seq },
    type,
    data,
    metadata: {},
    createdAt: '2026-01-01T00:00:00Z',
  };
};

const profile = (userId: string, displayName: string, savedAt: string) =>
  recorded('ChatProfileSaved', {
    userId,
    displayName,
    age: 30,
    location: 'Austin, TX',
    genderIdentity: 'woman',
    sexualOrientation: 'bisexual',
    relationshipType: ['dating'],
    bio: 'hi',
    interests: ['Music'],
    savedAt,
  });

const events: RecordedEvent[] = [
  // c comes online before saving a profile; a goes online and off again.
  recorded('ChatMemberWentOnline', { userId: 'c', at: '2026-01-01T09:00:00.000Z' }),
  profile('a', 'Ann', '2026-01-01T10:00:00.000Z'),
  recorded('ChatMemberWentOnline', { userId: 'a', at: '2026-01-01T10:01:00.000Z' }),
  profile('b', 'Bea', '2026-01-01T10:00:00.000Z'),
  profile('a', 'Anna', '2026-01-01T10:05:00.000Z'),
  recorded('ChatPreferencesSaved', {
    userId: 'a',
    sexualActivities: ['Massage'],
    kinks: [],
    rolePreferences: ['Top'],
    experienceLevel: 'beginner',
    ageRangeMin: 20,
    ageRangeMax: 40,
    maxDistance: 25,
    lookingForGenders: ['woman'],
    dealBreakers: ['Smoking'],
    mustHaves: ['Honesty'],
    isPrivate: true,
    savedAt: '2026-01-01T10:06:00.000Z',
  }),
  recorded('ChatSessionStarted', {
    roomId: 'r1',
    user1Id: 'a',
    user2Id: 'b',
    mode: 'standard',
    compatibilityScore: 0.8125,
    startedAt: '2026-01-01T11:00:00.000Z',
  }),
  recorded('ChatSessionStarted', {
    roomId: 'r2',
    user1Id: 'b',
    user2Id: 'a',
    mode: 'random',
    compatibilityScore: 0,
    startedAt: '2026-01-01T12:00:00.000Z',
  }),
  recorded('ChatSessionEnded', {
    roomId: 'r2',
    user1Id: 'b',
    user2Id: 'a',
    endedBy: 'b',
    reason: 'left',
    endedAt: '2026-01-01T12:01:00.000Z',
    durationSeconds: 60,
  }),
  // r1 ends after r2 was seen: last_active_at must stay the newest.
  recorded('ChatSessionEnded', {
    roomId: 'r1',
    user1Id: 'a',
    user2Id: 'b',
    endedBy: 'a',
    reason: 'skipped',
    endedAt: '2026-01-01T11:02:00.000Z',
    durationSeconds: 120,
  }),
  recorded('ChatSessionReported', {
    roomId: 'r1',
    reporterId: 'b',
    reportedUserId: 'a',
    reason: 'spam',
    reportedAt: '2026-01-01T11:03:00.000Z',
  }),
  recorded('ChatUserBlocked', {
    blockerId: 'b',
    blockedId: 'a',
    reason: 'spam',
    blockedAt: '2026-01-01T11:03:00.000Z',
  }),
  profile('c', 'Cy', '2026-01-01T09:30:00.000Z'),
  recorded('ChatMemberWentOffline', { userId: 'a', at: '2026-01-01T11:30:00.000Z' }),
];

it.each([userProfilesProjector, userPreferencesProjector, chatSessionsProjector, blocksProjector])(
  '$name replays to the same rows',
  async (projector) => {
    const { once, twice } = await replayTwice(db, projector, events);
    expect(twice).toEqual(once);
  },
);

it('builds the chat read models', async () => {
  await replayTwice(db, userProfilesProjector, events);
  await replayTwice(db, chatSessionsProjector, events);
  const profiles = await db.withSchema('replay_once_user_profiles').table('user_profiles').orderBy('user_id');
  expect(
    profiles.map((p) => [p.user_id, p.display_name, p.is_online, p.last_active_at?.toISOString() ?? null]),
  ).toEqual([
    ['a', 'Anna', false, '2026-01-01T12:01:00.000Z'],
    ['b', 'Bea', false, '2026-01-01T12:01:00.000Z'],
    ['c', 'Cy', true, '2026-01-01T09:00:00.000Z'],
  ]);
  const sessions = await db.withSchema('replay_once_chat_sessions').table('chat_sessions').orderBy('room_id');
  expect(sessions[0]).toMatchObject({
    room_id: 'r1',
    status: 'skipped',
    duration_seconds: 120,
    compatibility_score: '0.813',
    reported_by_user2: true,
    report_reason: 'spam',
  });
  expect(sessions[1]).toMatchObject({ room_id: 'r2', status: 'ended', end_reason: 'left' });
  const matches = await db.withSchema('replay_once_chat_sessions').table('user_matches').orderBy('chat_session_id');
  expect(matches.map((m) => [m.chat_session_id, m.status, m.user1_action, m.user2_action])).toEqual([
    ['r1', 'blocked', 'skip', 'block'],
    ['r2', 'blocked', 'block', null],
  ]);
});
