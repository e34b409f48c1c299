import { accountDecider as decider, type AccountCommand } from './decider';
import type { AccountEvent } from './events';

const given = (events: AccountEvent[]) => events.reduce(decider.evolve, decider.initialState);
const t0 = new Date('2026-03-01T12:00:00.000Z');
const later = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
const userId = 'u1';
const registered: AccountEvent = {
  type: 'UserRegistered',
  data: { userId, email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee', passwordHash: 'h1', gatewayCustomerId: 'cus_1', cardLast4: '4242', registeredAt: t0.toISOString() },
};
const attempt = (passwordMatched: boolean, now = t0): AccountCommand => ({ type: 'RecordLoginAttempt', passwordMatched, now });
/** Runs commands one after another, each on the state the previous left. */
function run(history: AccountEvent[], commands: AccountCommand[]): AccountEvent[] {
  const all = [...history];
  for (const command of commands) all.push(...decider.decide(command, given(all)));
  return all.slice(history.length);
}

describe('account decider', () => {
  it('registers a user, age verified by the card', () => {
    const command: AccountCommand = { type: 'RegisterUser', userId, email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee', passwordHash: 'h1', gatewayCustomerId: 'cus_1', cardLast4: '4242', now: t0 };
    expect(decider.decide(command, given([]))).toEqual([registered, { type: 'AgeVerified', data: { userId, method: 'card', cardLast4: '4242', verifiedAt: t0.toISOString() } }]);
    expect(() => decider.decide(command, given([registered]))).toThrow('An account with this email already exists');
  });

  it('records a successful sign-in and clears failed attempts', () => {
    expect(decider.decide(attempt(true), given([registered]))).toEqual([{ type: 'LoginSucceeded', data: { userId, at: t0.toISOString() } }]);
    const afterFailures = given([registered, ...run([registered], [attempt(false), attempt(false)])]);
    expect(afterFailures.failedAttempts).toBe(2);
    expect(decider.evolve(afterFailures, { type: 'LoginSucceeded', data: { userId, at: t0.toISOString() } }).failedAttempts).toBe(0);
  });

  it('refuses an unknown account like a wrong password', () => {
    expect(() => decider.decide(attempt(true), given([]))).toThrow('Invalid email or password');
  });

  it('locks the account for 15 minutes on the 5th failed attempt', () => {
    const events = run([registered], [attempt(false), attempt(false), attempt(false), attempt(false), attempt(false)]);
    expect(events.map((e) => e.type)).toEqual(['LoginFailed', 'LoginFailed', 'LoginFailed', 'LoginFailed', 'LoginFailed', 'AccountLocked']);
    expect(events[4]).toEqual({ type: 'LoginFailed', data: { userId, attempts: 5, at: t0.toISOString() } });
    expect(events[5]).toEqual({ type: 'AccountLocked', data: { userId, lockedUntil: later(15).toISOString(), at: t0.toISOString() } });
    const locked = given([registered, ...events]);
    expect(() => decider.decide(attempt(true, later(14)), locked)).toThrow('Account temporarily locked');
    expect(() => decider.decide(attempt(false, later(14)), locked)).toThrow('Account temporarily locked');
  });

  it('lets the owner in after the lock ran out and counts failures afresh', () => {
    const events = run([registered], Array.from({ length: 5 }, () => attempt(false)));
    const locked = given([registered, ...events]);
    expect(decider.decide(attempt(true, later(16)), locked).map((e) => e.type)).toEqual(['LoginSucceeded']);
    expect(decider.decide(attempt(false, later(16)), locked)).toEqual([{ type: 'LoginFailed', data: { userId, attempts: 1, at: later(16).toISOString() } }]);
  });

  it('locks again after a lock ran out: five more failures in a row lock once more', () => {
    const first = run([registered], Array.from({ length: 5 }, () => attempt(false)));
    const again = run([registered, ...first], Array.from({ length: 5 }, () => attempt(false, later(16))));
    expect(again.map((e) => e.type)).toEqual(['LoginFailed', 'LoginFailed', 'LoginFailed', 'LoginFailed', 'LoginFailed', 'AccountLocked']);
    expect(() => decider.decide(attempt(true, later(17)), given([registered, ...first, ...again]))).toThrow('Account temporarily locked');
  });

  it('counts failures afresh when the previous one is more than 15 minutes old', () => {
    const spread = run([registered], [attempt(false), attempt(false), attempt(false), attempt(false), attempt(false, later(16))]);
    expect(spread.map((e) => e.type)).toEqual(['LoginFailed', 'LoginFailed', 'LoginFailed', 'LoginFailed', 'LoginFailed']);
    expect(spread[4]).toMatchObject({ data: { attempts: 1 } });
  });

  it('lets a trusted client (signed in here before) in during a lock; its misses count and leave the lock', () => {
    const locked = given([registered, ...run([registered], Array.from({ length: 5 }, () => attempt(false)))]);
    const trusted = (passwordMatched: boolean): AccountCommand => ({ type: 'RecordLoginAttempt', passwordMatched, trustedClient: true, now: later(1) });
    expect(decider.decide(trusted(true), locked).map((e) => e.type)).toEqual(['LoginSucceeded']);
    const missed = decider.decide(trusted(false), locked);
    expect(missed).toEqual([{ type: 'LoginFailed', data: { userId, attempts: 6, at: later(1).toISOString() } }]);
    expect(given([registered, ...run([registered], Array.from({ length: 5 }, () => attempt(false))), ...missed]).lockedUntil).toBe(later(15).toISOString());
    expect(() => decider.decide(attempt(true, later(1)), locked)).toThrow('Account temporarily locked');
  });

  it('tells a deactivated account so when its password is right', () => {
    const state = given([registered, { type: 'UserDeactivated', data: { userId, reason: null, at: t0.toISOString() } }]);
    expect(() => decider.decide(attempt(true), state)).toThrow('Account has been deactivated');
    expect(decider.decide(attempt(false), state).map((e) => e.type)).toEqual(['LoginFailed']);
    expect(decider.decide({ type: 'DeactivateUser', reason: null, now: t0 }, state)).toEqual([]);
  });

  it('issues a reset token that expires after an hour and works once', () => {
    const [requested] = decider.decide({ type: 'RequestPasswordReset', tokenHash: 'th', now: t0 }, given([registered]));
    expect(requested).toEqual({ type: 'PasswordResetRequested', data: { userId, tokenHash: 'th', expiresAt: later(60).toISOString(), at: t0.toISOString() } });
    const state = given([registered, requested]);
    const reset = (tokenHash: string, now: Date): AccountCommand => ({ type: 'ResetPassword', tokenHash, passwordHash: 'h2', now });
    expect(() => decider.decide(reset('other', later(1)), state)).toThrow('Invalid or expired reset token');
    expect(() => decider.decide(reset('th', later(61)), state)).toThrow('Invalid or expired reset token');
    const changed = decider.decide(reset('th', later(1)), state);
    expect(changed).toEqual([{ type: 'PasswordChanged', data: { userId, passwordHash: 'h2', via: 'reset', at: later(1).toISOString() } }]);
    expect(() => decider.decide(reset('th', later(2)), given([registered, requested, ...changed]))).toThrow('Invalid or expired reset token');
  });

  it('a newer reset request replaces the older token; a password change also unlocks', () => {
    const history = [registered, ...decider.decide({ type: 'RequestPasswordReset', tokenHash: 'a', now: t0 }, given([registered]))];
    const withB = [...history, ...decider.decide({ type: 'RequestPasswordReset', tokenHash: 'b', now: t0 }, given(history))];
    expect(() => decider.decide({ type: 'ResetPassword', tokenHash: 'a', passwordHash: 'h2', now: t0 }, given(withB))).toThrow('Invalid or expired reset token');
    const locked = [...withB, ...run(withB, Array.from({ length: 5 }, () => attempt(false)))];
    const changed = decider.decide({ type: 'ResetPassword', tokenHash: 'b', passwordHash: 'h2', now: later(1) }, given(locked));
    expect(given([...locked, ...changed])).toMatchObject({ lockedUntil: null, failedAttempts: 0, passwordHash: 'h2' });
  });
});
