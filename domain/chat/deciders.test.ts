import { DomainError } from '../shared/errors';
import type { Decider, DomainEvent } from '../shared/command-handler';
import { memberDecider, type MemberCommand } from './member-decider';
import { presenceDecider, type PresenceCommand } from './presence-decider';
import { sessionDecider, type SessionCommand } from './session-decider';
import type { ProfileData } from './events';

const now = new Date('2026-01-01T10:00:00Z');
const given = <C, S, E extends DomainEvent>(decider: Decider<C, S, E>, events: E[]) => events.reduce(decider.evolve, decider.initialState);

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
    const events = memberDecider.decide(save, memberDecider.initialState);
    expect(events).toEqual([{ type: 'ChatProfileSaved', data: { userId: 'u1', ...profile, savedAt: now.toISOString() } }]);
    expect(memberDecider.decide(save, given(memberDecider, events))).toEqual([]);
    expect(memberDecider.decide({ ...save, profile: { ...profile, age: 31 } }, given(memberDecider, events))).toHaveLength(1);
  });

  it('blocks another user once, and refuses blocking oneself', () => {
    const block: MemberCommand = { type: 'BlockUser', userId: 'u1', blockedId: 'u2', reason: 'rude', now };
    const events = memberDecider.decide(block, memberDecider.initialState);
    expect(events[0]).toMatchObject({ type: 'ChatUserBlocked', data: { blockerId: 'u1', blockedId: 'u2', reason: 'rude' } });
    expect(memberDecider.decide(block, given(memberDecider, events))).toEqual([]);
    expect(() => memberDecider.decide({ ...block, blockedId: 'u1' }, memberDecider.initialState)).toThrow(DomainError);
  });
});

describe('chat presence', () => {
  it('records going online and offline only when it changes something', () => {
    const online: PresenceCommand = { type: 'GoOnline', userId: 'u1', now };
    const wentOnline = presenceDecider.decide(online, presenceDecider.initialState);
    expect(wentOnline).toEqual([{ type: 'ChatMemberWentOnline', data: { userId: 'u1', at: now.toISOString() } }]);
    expect(presenceDecider.decide(online, given(presenceDecider, wentOnline))).toEqual([]);
    expect(presenceDecider.decide({ type: 'GoOffline', userId: 'u1', now }, presenceDecider.initialState)).toEqual([]);
    const wentOffline = presenceDecider.decide({ type: 'GoOffline', userId: 'u1', now }, given(presenceDecider, wentOnline));
    expect(wentOffline).toEqual([{ type: 'ChatMemberWentOffline', data: { userId: 'u1', at: now.toISOString() } }]);
    expect(given(presenceDecider, [...wentOnline, ...wentOffline]).online).toBe(false);
  });
});

describe('chat session decider', () => {
  const start: SessionCommand = { type: 'StartSession', roomId: 'r1', user1Id: 'a', user2Id: 'b', mode: 'standard', compatibilityScore: 0.7, now };
  const started = sessionDecider.decide(start, sessionDecider.initialState);

  it('ends a session once with its duration and reason', () => {
    const end: SessionCommand = { type: 'EndSession', roomId: 'r1', endedBy: 'a', reason: 'skipped', now: new Date(now.getTime() + 95_400) };
    const ended = sessionDecider.decide(end, given(sessionDecider, started));
    expect(ended).toEqual([{ type: 'ChatSessionEnded', data: { roomId: 'r1', user1Id: 'a', user2Id: 'b', endedBy: 'a', reason: 'skipped', endedAt: end.now.toISOString(), durationSeconds: 95 } }]);
    expect(sessionDecider.decide(end, given(sessionDecider, [...started, ...ended]))).toEqual([]);
  });

  it('takes a report from a participant only, once', () => {
    const report: SessionCommand = { type: 'ReportSession', roomId: 'r1', reporterId: 'b', reason: 'spam', now };
    const reported = sessionDecider.decide(report, given(sessionDecider, started));
    expect(reported[0]).toMatchObject({ type: 'ChatSessionReported', data: { reporterId: 'b', reportedUserId: 'a', reason: 'spam' } });
    expect(sessionDecider.decide(report, given(sessionDecider, [...started, ...reported]))).toEqual([]);
    expect(() => sessionDecider.decide({ ...report, reporterId: 'c' }, given(sessionDecider, started))).toThrow('Chat session not found');
    expect(() => sessionDecider.decide(report, sessionDecider.initialState)).toThrow('Chat session not found');
  });
});
