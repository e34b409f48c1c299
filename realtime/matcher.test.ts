import fc from 'fast-check';
import { compatibility, compileProfile, type PreferencesInput, type ProfileInput } from './compatibility';
import { compileRequest, Matcher, SKIP_COOLDOWN_MS, type Effect, type JoinFilters, type Member } from './matcher';

let ids = 0;
const newMatcher = (options: Partial<ConstructorParameters<typeof Matcher>[0]> = {}) =>
  new Matcher({ newSessionId: () => `s${++ids}`, skipCooldownMs: 60_000, ...options });

function member(
  userId: string,
  profile: ProfileInput | null = null,
  preferences: PreferencesInput | null = null,
  blocked: string[] = [],
): Member {
  return {
    userId,
    displayName: profile?.displayName ?? userId,
    profile: compileProfile(profile, preferences),
    blocked: new Set(blocked),
  };
}
const join = (m: Matcher, who: Member, now = 0, mode: 'standard' | 'random' = 'standard', filters: JoinFilters = {}) =>
  m.join(who, compileRequest(who, mode, filters), now);
const matched = (effects: Effect[]) =>
  effects.filter((e) => e.type === 'matched').map((e) => (e.type === 'matched' ? e.session : null)!);

const woman = (id: string, extra: ProfileInput = {}, prefs: PreferencesInput = {}) =>
  member(
    id,
    { age: 30, genderIdentity: 'woman', sexualOrientation: 'straight', ...extra },
    { lookingForGenders: ['man'], ...prefs },
  );
const man = (id: string, extra: ProfileInput = {}, prefs: PreferencesInput = {}) =>
  member(
    id,
    { age: 30, genderIdentity: 'man', sexualOrientation: 'straight', ...extra },
    { lookingForGenders: ['woman'], ...prefs },
  );

describe('matcher', () => {
  it('pairs two compatible members, with exactly one initiator: the one who waited', () => {
    const m = newMatcher();
    expect(join(m, woman('w'))).toEqual([{ type: 'waiting', userId: 'w' }]);
    const [session] = matched(join(m, man('m')));
    expect(session.user1.userId).toBe('w');
    expect(session.user2.userId).toBe('m');
    expect(session.initiatorId).toBe('w');
    expect(m.sessionOf('w')).toBe(session);
    expect(m.sessionOf('m')).toBe(session);
    expect(m.stats()).toMatchObject({ waiting: 0, inSessions: 2 });
  });

  it('applies the hard filters both ways: genders, ages, orientation filter', () => {
    const m = newMatcher();
    join(m, woman('w1', {}, { lookingForGenders: ['woman'] }));
    join(m, woman('w2', { age: 50 }));
    join(m, woman('w3', { sexualOrientation: 'bisexual' }));
    expect(
      matched(join(m, man('m1', {}, { ageRangeMin: 18, ageRangeMax: 40 }), 0, 'standard', { orientation: 'straight' })),
    ).toEqual([]);
    // The joiner's filter narrows to bisexual: w3.
    expect(matched(join(m, man('m2'), 0, 'standard', { orientation: 'bisexual' }))[0].user1.userId).toBe('w3');
    // w2 (50) is outside m3's chat age filter.
    expect(matched(join(m, man('m3'), 0, 'standard', { ageRange: [18, 40] }))).toEqual([]);
  });

  it('picks the bucket before scoring: other genders are never even looked at', () => {
    const m = newMatcher({ visitLimit: 5 });
    for (let i = 0; i < 1000; i++)
      join(m, member(`x${i}`, { age: 30, genderIdentity: 'man' }, { lookingForGenders: ['man'] }));
    join(m, woman('w'));
    expect(matched(join(m, man('m')))[0].user1.userId).toBe('w');
  });

  it('scores the eligible candidates and takes the most compatible', () => {
    const m = newMatcher();
    join(m, woman('plain'));
    join(
      m,
      woman(
        'kindred',
        { interests: ['Music', 'Travel'], relationshipType: ['dating'] },
        { rolePreferences: ['Submissive'], experienceLevel: 'expert' },
      ),
    );
    const me = man(
      'm',
      { interests: ['Music', 'Travel'], relationshipType: ['dating'] },
      { rolePreferences: ['Dominant'], experienceLevel: 'expert' },
    );
    const [session] = matched(join(m, me));
    expect(session.user1.userId).toBe('kindred');
    expect(session.score).toBe(compatibility(session.user1.profile, me.profile));
    expect(session.score).toBeGreaterThan(0.8);
  });

  it('random mode pairs anyone waiting in random mode, but never a blocked pair', () => {
    const m = newMatcher();
    join(m, member('a', null, null, ['b']), 0, 'random');
    join(m, woman('s'), 0, 'standard');
    expect(matched(join(m, member('b'), 0, 'random'))).toEqual([]);
    expect(matched(join(m, man('c'), 0, 'random'))[0].user1.userId).toBe('a');
    expect(m.isWaiting('b')).toBe(true);
    expect(m.isWaiting('s')).toBe(true);
  });

  it('never matches a blocked pair in standard mode, whichever side blocked', () => {
    const m = newMatcher();
    join(m, woman('w'));
    expect(matched(join(m, { ...man('m'), blocked: new Set(['w']) }))).toEqual([]);
    const m2 = newMatcher();
    join(m2, { ...woman('w'), blocked: new Set(['m']) });
    expect(matched(join(m2, man('m')))).toEqual([]);
  });

  it('passes over a blocked or cooling candidate that would win for the next best one', () => {
    const m = newMatcher();
    join(m, woman('w1'));
    join(m, woman('w2'));
    // Same profiles: the longer waiting w1 would win; the joiner blocked her.
    expect(matched(join(m, { ...man('m'), blocked: new Set(['w1']) }))[0].user1.userId).toBe('w2');
    expect(m.isWaiting('w1')).toBe(true);
  });

  it('still matches a member whom the first scanLimit candidates all blocked, with one behind them', () => {
    const m = newMatcher({ scanLimit: 2 });
    for (const id of ['w1', 'w2', 'w3']) join(m, { ...woman(id), blocked: new Set(['m']) });
    join(m, woman('w4'));
    expect(matched(join(m, man('m')))[0].user1.userId).toBe('w4');
  });

  it('re-queues the abandoned partner, who is matched with the next arrival', () => {
    const m = newMatcher();
    join(m, woman('w'));
    const [session] = matched(join(m, man('m1')));
    const effects = m.leave('m1', 'disconnected', 10);
    expect(effects).toEqual([
      { type: 'ended', session, endedBy: 'm1', reason: 'disconnected', at: 10 },
      { type: 'waiting', userId: 'w' },
    ]);
    expect(m.sessionOf('w')).toBeUndefined();
    expect(matched(join(m, man('m2'), 11))[0].user1.userId).toBe('w');
  });

  it('does not match a pair that just skipped until the cool-down is over', () => {
    const m = newMatcher({ skipCooldownMs: 60_000 });
    join(m, woman('w'));
    const [session] = matched(join(m, man('m')));
    const effects = m.skip('m', session.id, 1000);
    expect(effects.map((e) => e.type)).toEqual(['ended', 'waiting']);
    expect(effects[0]).toMatchObject({ reason: 'skipped', endedBy: 'm' });
    expect(matched(join(m, man('m'), 2000))).toEqual([]);
    expect(m.stats().waiting).toBe(2);
    // After the cool-down, the next join pairs them again.
    expect(matched(join(m, man('m'), 61_001))).toHaveLength(1);
  });

  it('pairs two people alone in the queue again once their skip cool-down expires, without anyone joining', () => {
    const m = newMatcher({ skipCooldownMs: SKIP_COOLDOWN_MS });
    join(m, woman('w'));
    const [first] = matched(join(m, man('m')));
    // m pressed Next: w is queued again at once, m rejoins a second later (as the page does).
    m.skip('m', first.id, 1000);
    expect(matched(join(m, man('m'), 2000))).toEqual([]);
    // Before expiry: still kept apart, however often the owner sweeps.
    for (let t = 3000; t < 1000 + SKIP_COOLDOWN_MS; t += 1000) expect(m.expireCooldowns(t)).toEqual([]);
    expect(m.stats()).toMatchObject({ waiting: 2, inSessions: 0, cooldowns: 1 });
    // At expiry the sweep matches them: the one who waited longest (w) initiates.
    const [again] = matched(m.expireCooldowns(1000 + SKIP_COOLDOWN_MS));
    expect(again.user1.userId).toBe('w');
    expect(again.user2.userId).toBe('m');
    expect(again.initiatorId).toBe('w');
    expect(m.stats()).toEqual({ waiting: 0, inSessions: 2, cooldowns: 0 });
  });

  it('an expired cool-down of a pair that is not both waiting just goes away', () => {
    const m = newMatcher({ skipCooldownMs: 10 });
    join(m, woman('w'), 0, 'random');
    const [session] = matched(join(m, man('m'), 0, 'random'));
    m.skip('m', session.id, 1);
    m.leave('m', 'left', 2);
    expect(m.expireCooldowns(11)).toEqual([]);
    expect(m.stats()).toEqual({ waiting: 1, inSessions: 0, cooldowns: 0 });
  });

  it('ignores a skip for a stale session id, and removal is idempotent', () => {
    const m = newMatcher();
    join(m, woman('w'));
    const [session] = matched(join(m, man('m')));
    expect(m.skip('m', 'old-session', 0)).toEqual([]);
    expect(m.sessionOf('m')).toBe(session);
    expect(m.leave('m', 'left', 0).map((e) => e.type)).toEqual(['ended', 'waiting']);
    expect(m.leave('m', 'left', 0)).toEqual([]);
    expect(m.leave('nobody', 'disconnected', 0)).toEqual([]);
    expect(m.leave('w', 'left', 0)).toEqual([]);
    expect(m.leave('w', 'left', 0)).toEqual([]);
    expect(m.stats()).toEqual({ waiting: 0, inSessions: 0, cooldowns: 0 });
  });

  it('joining again while in a session ends that session first', () => {
    const m = newMatcher();
    join(m, woman('w'));
    matched(join(m, man('m')));
    const effects = join(m, man('m'), 5);
    expect(effects[0]).toMatchObject({ type: 'ended', reason: 'rejoined', endedBy: 'm' });
    expect(m.sessionOf('w')).toBeDefined();
    expect(m.sessionOf('w')).toBe(m.sessionOf('m'));
  });

  it('keeps every user in at most one place under any sequence of operations', () => {
    const users = ['a', 'b', 'c', 'd', 'e', 'f'];
    const op = fc.record({
      kind: fc.constantFrom('join', 'join', 'skip', 'leave', 'disconnect', 'expire'),
      user: fc.constantFrom(...users),
      random: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const m = newMatcher({ skipCooldownMs: 5 });
        const active = new Map<string, string>(); // user -> session id, from the effects alone
        let now = 0;
        for (const o of ops) {
          now++;
          const who = member(o.user, { age: 30, genderIdentity: 'man' }, null, o.user === 'a' ? ['b'] : []);
          const effects =
            o.kind === 'join'
              ? join(m, who, now, o.random ? 'random' : 'standard')
              : o.kind === 'skip'
                ? m.skip(o.user, undefined, now)
                : o.kind === 'expire'
                  ? m.expireCooldowns(now)
                  : m.leave(o.user, o.kind === 'leave' ? 'left' : 'disconnected', now);
          for (const e of effects) {
            if (e.type === 'ended') {
              expect(active.get(e.session.user1.userId)).toBe(e.session.id);
              active.delete(e.session.user1.userId);
              active.delete(e.session.user2.userId);
            }
            if (e.type === 'matched') {
              const { user1, user2, initiatorId } = e.session;
              expect(active.has(user1.userId) || active.has(user2.userId)).toBe(false);
              expect([user1.userId, user2.userId].sort()).not.toEqual(['a', 'b']);
              expect([user1.userId, user2.userId]).toContain(initiatorId);
              active.set(user1.userId, e.session.id).set(user2.userId, e.session.id);
            }
          }
          for (const u of users) {
            expect(m.isWaiting(u) && m.sessionOf(u) !== undefined).toBe(false);
            expect(m.sessionOf(u)?.id).toBe(active.get(u));
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('compatibility', () => {
  it('is symmetric, in [0, 1], and neutral for empty profiles', () => {
    const a = compileProfile(
      { interests: ['Music', 'Art'], relationshipType: ['casual'] },
      { rolePreferences: ['Top'], mustHaves: ['Honesty'], experienceLevel: 'beginner' },
    );
    const b = compileProfile(
      { interests: ['Art'], relationshipType: ['casual', 'dating'] },
      { rolePreferences: ['Bottom'], dealBreakers: ['Dishonesty'], experienceLevel: 'expert' },
    );
    expect(compatibility(a, b)).toBe(compatibility(b, a));
    // interests 1, relationship 1, roles 1, activities 0.5, experience 0, values 1 (Dishonesty protects Honesty)
    expect(compatibility(a, b)).toBeCloseTo(0.825, 6);
    expect(compatibility(compileProfile(null, null), compileProfile(null, null))).toBe(0.5);
  });
});
