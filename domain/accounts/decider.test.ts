import { deciderSpec } from '../shared/testing/decider-spec';
import { accountDecider as decider, type AccountCommand } from './decider';
import type { AccountEvent } from './events';

const spec = deciderSpec(decider);
const t0 = new Date('2026-03-01T12:00:00.000Z');
const later = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const userId = 'u1';
const registered: AccountEvent = {
  type: 'UserRegistered',
  data: {
    userId,
    email: 'ann@example.com',
    firstName: 'Ann',
    lastName: 'Lee',
    passwordHash: 'h1',
    gatewayCustomerId: 'cus_1',
    cardLast4: '4242',
    registeredAt: t0.toISOString(),
  },
};
const attempt = (passwordMatched: boolean, now = t0): AccountCommand => ({
  type: 'RecordLoginAttempt',
  passwordMatched,
  now,
});
/** Runs commands one after another, each on the state the previous left. */
const run = (history: AccountEvent[], commands: AccountCommand[]): AccountEvent[] =>
  spec.given(history).whenEach(commands).events;

describe('account decider', () => {
  it('registers a user, age verified by the card', () => {
    const command: AccountCommand = {
      type: 'RegisterUser',
      userId,
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      passwordHash: 'h1',
      gatewayCustomerId: 'cus_1',
      cardLast4: '4242',
      now: t0,
    };
    spec
      .given([])
      .when(command)
      .then([
        registered,
        { type: 'AgeVerified', data: { userId, method: 'card', cardLast4: '4242', verifiedAt: t0.toISOString() } },
      ]);
    spec.given([registered]).when(command).thenThrows('An account with this email already exists');
  });

  it('records a successful sign-in and clears failed attempts', () => {
    spec
      .given([registered])
      .when(attempt(true))
      .then([{ type: 'LoginSucceeded', data: { userId, at: t0.toISOString() } }]);
    const afterFailures = spec.fold([registered, ...run([registered], [attempt(false), attempt(false)])]);
    expect(afterFailures.failedAttempts).toBe(2);
    expect(
      decider.evolve(afterFailures, { type: 'LoginSucceeded', data: { userId, at: t0.toISOString() } }).failedAttempts,
    ).toBe(0);
  });

  it('refuses an unknown account like a wrong password', () => {
    spec.given([]).when(attempt(true)).thenThrows('Invalid email or password');
  });

  it('locks the account for 15 minutes on the 5th failed attempt', () => {
    const events = run([registered], [attempt(false), attempt(false), attempt(false), attempt(false), attempt(false)]);
    expect(events.map((e) => e.type)).toEqual([
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'AccountLocked',
    ]);
    expect(events[4]).toEqual({ type: 'LoginFailed', data: { userId, attempts: 5, at: t0.toISOString() } });
    expect(events[5]).toEqual({
      type: 'AccountLocked',
      data: { userId, lockedUntil: later(15).toISOString(), at: t0.toISOString() },
    });
    const locked = spec.fold([registered, ...events]);
    spec
      .on(locked)
      .when(attempt(true, later(14)))
      .thenThrows('Account temporarily locked');
    spec
      .on(locked)
      .when(attempt(false, later(14)))
      .thenThrows('Account temporarily locked');
  });

  it('lets the owner in after the lock ran out and counts failures afresh', () => {
    const events = run(
      [registered],
      Array.from({ length: 5 }, () => attempt(false)),
    );
    const locked = spec.fold([registered, ...events]);
    expect(
      spec
        .on(locked)
        .when(attempt(true, later(16)))
        .events.map((e) => e.type),
    ).toEqual(['LoginSucceeded']);
    spec
      .on(locked)
      .when(attempt(false, later(16)))
      .then([{ type: 'LoginFailed', data: { userId, attempts: 1, at: later(16).toISOString() } }]);
  });

  it('locks again after a lock ran out: five more failures in a row lock once more', () => {
    const first = run(
      [registered],
      Array.from({ length: 5 }, () => attempt(false)),
    );
    const again = run(
      [registered, ...first],
      Array.from({ length: 5 }, () => attempt(false, later(16))),
    );
    expect(again.map((e) => e.type)).toEqual([
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'AccountLocked',
    ]);
    spec
      .given([registered, ...first, ...again])
      .when(attempt(true, later(17)))
      .thenThrows('Account temporarily locked');
  });

  it('counts failures afresh when the previous one is more than 15 minutes old', () => {
    const spread = run(
      [registered],
      [attempt(false), attempt(false), attempt(false), attempt(false), attempt(false, later(16))],
    );
    expect(spread.map((e) => e.type)).toEqual([
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
      'LoginFailed',
    ]);
    expect(spread[4]).toMatchObject({ data: { attempts: 1 } });
  });

  it('lets a trusted client (signed in here before) in during a lock; its misses count and leave the lock', () => {
    const locked = spec.fold([
      registered,
      ...run(
        [registered],
        Array.from({ length: 5 }, () => attempt(false)),
      ),
    ]);
    const trusted = (passwordMatched: boolean): AccountCommand => ({
      type: 'RecordLoginAttempt',
      passwordMatched,
      trustedClient: true,
      now: later(1),
    });
    expect(
      spec
        .on(locked)
        .when(trusted(true))
        .events.map((e) => e.type),
    ).toEqual(['LoginSucceeded']);
    const missed = spec.on(locked).when(trusted(false)).events;
    expect(missed).toEqual([{ type: 'LoginFailed', data: { userId, attempts: 6, at: later(1).toISOString() } }]);
    expect(
      spec.fold([
        registered,
        ...run(
          [registered],
          Array.from({ length: 5 }, () => attempt(false)),
        ),
        ...missed,
      ]).lockedUntil,
    ).toBe(later(15).toISOString());
    spec
      .on(locked)
      .when(attempt(true, later(1)))
      .thenThrows('Account temporarily locked');
  });

  it('tells a deactivated account so when its password is right', () => {
    const state = spec.fold([
      registered,
      { type: 'UserDeactivated', data: { userId, reason: null, at: t0.toISOString() } },
    ]);
    spec.on(state).when(attempt(true)).thenThrows('Account has been deactivated');
    expect(
      spec
        .on(state)
        .when(attempt(false))
        .events.map((e) => e.type),
    ).toEqual(['LoginFailed']);
    spec.on(state).when({ type: 'DeactivateUser', reason: null, now: t0 }).thenNothing();
  });

  it('issues a reset token that expires after an hour and works once', () => {
    const [requested] = spec
      .given([registered])
      .when({ type: 'RequestPasswordReset', tokenHash: 'th', now: t0 }).events;
    expect(requested).toEqual({
      type: 'PasswordResetRequested',
      data: { userId, tokenHash: 'th', expiresAt: later(60).toISOString(), at: t0.toISOString() },
    });
    const state = spec.fold([registered, requested]);
    const reset = (tokenHash: string, now: Date): AccountCommand => ({
      type: 'ResetPassword',
      tokenHash,
      passwordHash: 'h2',
      now,
    });
    spec
      .on(state)
      .when(reset('other', later(1)))
      .thenThrows('Invalid or expired reset token');
    spec
      .on(state)
      .when(reset('th', later(61)))
      .thenThrows('Invalid or expired reset token');
    const changed = spec.on(state).when(reset('th', later(1))).events;
    expect(changed).toEqual([
      { type: 'PasswordChanged', data: { userId, passwordHash: 'h2', via: 'reset', at: later(1).toISOString() } },
    ]);
    spec
      .given([registered, requested, ...changed])
      .when(reset('th', later(2)))
      .thenThrows('Invalid or expired reset token');
  });

  it('a newer reset request replaces the older token; a password change also unlocks', () => {
    const history = [
      registered,
      ...spec.given([registered]).when({ type: 'RequestPasswordReset', tokenHash: 'a', now: t0 }).events,
    ];
    const withB = [
      ...history,
      ...spec.given(history).when({ type: 'RequestPasswordReset', tokenHash: 'b', now: t0 }).events,
    ];
    spec
      .given(withB)
      .when({ type: 'ResetPassword', tokenHash: 'a', passwordHash: 'h2', now: t0 })
      .thenThrows('Invalid or expired reset token');
    const locked = [
      ...withB,
      ...run(
        withB,
        Array.from({ length: 5 }, () => attempt(false)),
      ),
    ];
    const changed = spec
      .given(locked)
      .when({ type: 'ResetPassword', tokenHash: 'b', passwordHash: 'h2', now: later(1) }).events;
    expect(spec.fold([...locked, ...changed])).toMatchObject({
      lockedUntil: null,
      failedAttempts: 0,
      passwordHash: 'h2',
    });
  });
});
