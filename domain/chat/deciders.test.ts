import { deciderSpec } from '../shared/testing/decider-spec';
import { memberDecider, type MemberCommand } from './member-decider';
import { presenceDecider, type PresenceCommand } from './presence-decider';
import { sessionDecider, type SessionCommand } from './session-decider';
import type { ProfileData } from './events';

const now = new Date('2026-01-01T10:00:00Z');
const member = deciderSpec(memberDecider);
const presence = deciderSpec(presenceDecider);
const session = deciderSpec(sessionDecider);

const profile: ProfileData = {
  displayName: 'Alex',
  age: 30,
  location: 'Austin, TX',
  genderIdentity: 'man',
  sexualOrientation: 'straight',
  relationshipType: ['dating'],
  bio: '',
  interests: ['Music'],
};

describe('chat member decider', () => {
  const save: MemberCommand = { type: 'SaveProfile', userId: 'u1', profile, now };

  it('records a saved profile, and nothing when the same profile is saved again', () => {
    const events = member.given().when(save).events;
    expect(events).toEqual([
      { type: 'ChatProfileSaved', data: { userId: 'u1', ...profile, savedAt: now.toISOString() } },
    ]);
    member.given(events).when(save).thenNothing();
    expect(member.given(events).when({ ...save, profile: { ...profile, age: 31 } }).events).toHaveLength(1);
  });

  it('blocks another user once, and refuses blocking oneself', () => {
    const block: MemberCommand = { type: 'BlockUser', userId: 'u1', blockedId: 'u2', reason: 'rude', now };
    const events = member.given().when(block).events;
    expect(events[0]).toMatchObject({
      type: 'ChatUserBlocked',
      data: { blockerId: 'u1', blockedId: 'u2', reason: 'rude' },
    });
    member.given(events).when(block).thenNothing();
    member
      .given()
      .when({ ...block, blockedId: 'u1' })
      .thenThrows();
  });
});

describe('chat presence', () => {
  it('records going online and offline only when it changes something', () => {
    const online: PresenceCommand = { type: 'GoOnline', userId: 'u1', now };
    const wentOnline = presence.given().when(online).events;
    expect(wentOnline).toEqual([{ type: 'ChatMemberWentOnline', data: { userId: 'u1', at: now.toISOString() } }]);
    presence.given(wentOnline).when(online).thenNothing();
    presence.given().when({ type: 'GoOffline', userId: 'u1', now }).thenNothing();
    const wentOffline = presence.given(wentOnline).when({ type: 'GoOffline', userId: 'u1', now }).events;
    expect(wentOffline).toEqual([{ type: 'ChatMemberWentOffline', data: { userId: 'u1', at: now.toISOString() } }]);
    expect(presence.fold([...wentOnline, ...wentOffline]).online).toBe(false);
  });
});

describe('chat session decider', () => {
  const start: SessionCommand = {
    type: 'StartSession',
    roomId: 'r1',
    user1Id: 'a',
    user2Id: 'b',
    mode: 'standard',
    compatibilityScore: 0.7,
    now,
  };
  const started = session.given().when(start).events;

  it('ends a session once with its duration and reason', () => {
    const end: SessionCommand = {
      type: 'EndSession',
      roomId: 'r1',
      endedBy: 'a',
      reason: 'skipped',
      now: new Date(now.getTime() + 95_400),
    };
    const ended = session.given(started).when(end).events;
    expect(ended).toEqual([
      {
        type: 'ChatSessionEnded',
        data: {
          roomId: 'r1',
          user1Id: 'a',
          user2Id: 'b',
          endedBy: 'a',
          reason: 'skipped',
          endedAt: end.now.toISOString(),
          durationSeconds: 95,
        },
      },
    ]);
    session
      .given([...started, ...ended])
      .when(end)
      .thenNothing();
  });

  it('takes a report from a participant only, once', () => {
    const report: SessionCommand = { type: 'ReportSession', roomId: 'r1', reporterId: 'b', reason: 'spam', now };
    const reported = session.given(started).when(report).events;
    expect(reported[0]).toMatchObject({
      type: 'ChatSessionReported',
      data: { reporterId: 'b', reportedUserId: 'a', reason: 'spam' },
    });
    session
      .given([...started, ...reported])
      .when(report)
      .thenNothing();
    session
      .given(started)
      .when({ ...report, reporterId: 'c' })
      .thenThrows('Chat session not found');
    session.given().when(report).thenThrows('Chat session not found');
  });
});
