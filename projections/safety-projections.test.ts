import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { createTestDatabase, type TestDatabase } from '../ops/testing/test-database';
import { blocksProjector } from './blocks';
import { openReadDatabase } from './engine/database';
import { replayTwice } from './engine/testing/replay-twice';
import { reportsProjector } from './reports';
import { usersProjector } from './users';

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
    eventId: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`,
    streamId: 's',
    revision: seq,
    position: { commit: seq, prepare: seq },
    type,
    data,
    metadata: {},
    createdAt: '2026-01-01T00:00:00Z',
  };
};

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const STAFF = '00000000-0000-4000-8000-0000000000ff';
const R1 = '10000000-0000-4000-8000-000000000001';
const R2 = '10000000-0000-4000-8000-000000000002';
const at = (minute: number) => `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

const events: RecordedEvent[] = [
  recorded('UserRegistered', {
    userId: B,
    email: 'b@example.com',
    firstName: 'Bo',
    lastName: 'Test',
    passwordHash: 'x',
    gatewayCustomerId: 'cus',
    cardLast4: '4242',
    registeredAt: at(0),
  }),
  // Blocks: the chat's older event and the safety context's, then one lifted and made again.
  recorded('ChatUserBlocked', { blockerId: A, blockedId: B, reason: 'old', blockedAt: at(1) }),
  recorded('UserUnblocked', { blockerId: A, blockedId: B, unblockedAt: at(2) }),
  recorded('UserBlocked', { blockerId: B, blockedId: A, reason: null, blockedAt: at(3) }),
  recorded('UserBlocked', { blockerId: A, blockedId: B, reason: 'again', blockedAt: at(4) }),
  // Reports: a chat report from before the safety context, a new one resolved with a suspension.
  recorded('ChatSessionReported', {
    roomId: 'room1',
    reporterId: A,
    reportedUserId: B,
    reason: 'rude',
    reportedAt: at(5),
  }),
  recorded('ReportFiled', {
    reportId: R1,
    reporterId: A,
    targetType: 'post',
    targetId: 'p1',
    targetUserId: B,
    reason: 'spam',
    details: null,
    filedAt: at(6),
  }),
  recorded('ReportFiled', {
    reportId: R2,
    reporterId: A,
    targetType: 'user',
    targetId: B,
    targetUserId: B,
    reason: 'harassment',
    details: 'x',
    filedAt: at(7),
  }),
  recorded('ReportResolved', {
    reportId: R1,
    targetUserId: B,
    action: 'remove_content',
    days: null,
    reason: 'Spam',
    staffId: STAFF,
    resolvedAt: at(8),
  }),
  recorded('ContentRemoved', {
    targetType: 'post',
    targetId: 'p1',
    targetUserId: B,
    reportId: R1,
    staffId: STAFF,
    reason: 'Spam',
    removedAt: at(8),
  }),
  recorded('UserSuspended', {
    userId: B,
    staffId: null,
    reason: 'Reported by 3 members within 24 hours',
    days: null,
    until: null,
    automatic: true,
    reportId: R2,
    at: at(9),
  }),
  recorded('UserBanned', { userId: B, staffId: STAFF, reason: 'Fraud', reportId: null, at: at(10) }),
  recorded('UserReinstated', { userId: B, staffId: STAFF, reason: 'Appeal', at: at(11) }),
  recorded('UserSuspended', {
    userId: B,
    staffId: STAFF,
    reason: 'Rude',
    days: 3,
    until: '2026-01-04T10:12:00.000Z',
    automatic: false,
    reportId: null,
    at: at(12),
  }),
];

it.each([blocksProjector, reportsProjector, usersProjector])('$name replays to the same rows', async (projector) => {
  const { once, twice } = await replayTwice(db, projector, events);
  expect(twice).toEqual(once);
});

it('keeps one block list, the queue and every action, and the account standing', async () => {
  await replayTwice(db, blocksProjector, events);
  await replayTwice(db, reportsProjector, events);
  await replayTwice(db, usersProjector, events);
  const blocks = await db.withSchema('replay_once_user_blocks').table('user_blocks').orderBy('blocker_id');
  expect(blocks.map((b) => [b.blocker_id, b.blocked_id, b.reason])).toEqual([
    [A, B, 'again'],
    [B, A, null],
  ]);
  const reports = await db.withSchema('replay_once_reports').table('reports').orderBy('created_at');
  expect(reports.map((r) => [r.target_type, r.reason, r.details, r.status, r.legacy, r.resolution_action])).toEqual([
    ['chat_session', 'other', 'rude', 'open', true, null],
    ['post', 'spam', null, 'resolved', false, 'remove_content'],
    ['user', 'harassment', 'x', 'open', false, null],
  ]);
  const actions = await db.withSchema('replay_once_reports').table('moderation_actions').orderBy('at');
  expect(actions.map((a) => [a.action, a.staff_id, a.days, a.target_id])).toEqual([
    ['remove_content', STAFF, null, 'p1'],
    ['auto_suspend', null, null, null],
    ['ban', STAFF, null, null],
    ['reinstate', STAFF, null, null],
    ['suspend', STAFF, 3, null],
  ]);
  const user = await db.withSchema('replay_once_users').table('users').where({ id: B }).first();
  expect(user).toMatchObject({ standing: 'suspended', pending_review: false });
  expect(user.suspended_until.toISOString()).toBe('2026-01-04T10:12:00.000Z');
});
