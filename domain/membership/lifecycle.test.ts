import { deciderSpec } from '../shared/testing/decider-spec';
import { membershipDecider as decider, hasAccessAt, type MembershipCommand } from './decider';
import type { MembershipEvent } from './events';

const spec = deciderSpec(decider);
const { fold } = spec;
const at = (iso: string) => new Date(iso);
const run = (events: MembershipEvent[], command: MembershipCommand) => [
  ...events,
  ...spec.given(events).when(command).events,
];

const activated = run([], {
  type: 'ActivateMembership',
  userId: 'u1',
  paymentId: 'p1',
  source: 'card',
  months: 1,
  now: at('2026-01-10T00:00:00Z'),
});

describe('membership lifecycle', () => {
  it('cancel keeps access to the period end, then expires', () => {
    const canceled = run(activated, { type: 'CancelMembership', userId: 'u1', now: at('2026-01-20T00:00:00Z') });
    expect(canceled[1]).toEqual({
      type: 'MembershipCanceled',
      data: { userId: 'u1', accessUntil: '2026-02-10T00:00:00.000Z', canceledAt: '2026-01-20T00:00:00.000Z' },
    });
    const state = fold(canceled);
    expect(state.status).toBe('canceled');
    expect(hasAccessAt(state, at('2026-02-09T00:00:00Z'))).toBe(true);
    spec
      .on(state)
      .when({ type: 'ExpireMembership', userId: 'u1', now: at('2026-02-09T00:00:00Z') })
      .thenNothing();
    spec
      .on(state)
      .when({
        type: 'RecordRenewal',
        userId: 'u1',
        periodEnd: '2026-02-10T00:00:00.000Z',
        paymentId: 'r1',
        outcome: { paid: true },
        now: at('2026-02-10T00:00:00Z'),
      })
      .thenNothing();
    const expired = run(canceled, { type: 'ExpireMembership', userId: 'u1', now: at('2026-02-10T00:00:01Z') });
    expect(expired[2]).toMatchObject({ type: 'MembershipExpired', data: { reason: 'canceled' } });
    expect(hasAccessAt(fold(expired), at('2026-02-10T00:00:01Z'))).toBe(false);
  });

  it('refuses to cancel twice or without a subscription', () => {
    const canceled = run(activated, { type: 'CancelMembership', userId: 'u1', now: at('2026-01-20T00:00:00Z') });
    spec
      .given(canceled)
      .when({ type: 'CancelMembership', userId: 'u1', now: at('2026-01-21T00:00:00Z') })
      .thenThrows('already canceled');
    spec
      .given([])
      .when({ type: 'CancelMembership', userId: 'u1', now: at('2026-01-21T00:00:00Z') })
      .thenThrows('No active subscription to cancel');
  });

  it('renews the period that ended, once, continuing without a gap', () => {
    const renew = {
      type: 'RecordRenewal',
      userId: 'u1',
      periodEnd: '2026-02-10T00:00:00.000Z',
      paymentId: 'r1',
      outcome: { paid: true },
      now: at('2026-02-10T00:05:00Z'),
    } as const;
    spec
      .given(activated)
      .when({ ...renew, now: at('2026-02-09T00:00:00Z') })
      .thenNothing(); // not due yet
    const renewed = run(activated, renew);
    expect(renewed[1]).toMatchObject({
      type: 'MembershipRenewed',
      data: { periodStart: '2026-02-10T00:00:00.000Z', periodEnd: '2026-03-10T00:00:00.000Z' },
    });
    spec.given(renewed).when(renew).thenNothing();
  });

  it('a declined renewal is past due with a grace period, then expires unless paid', () => {
    const declined = run(activated, {
      type: 'RecordRenewal',
      userId: 'u1',
      periodEnd: '2026-02-10T00:00:00.000Z',
      paymentId: 'r1',
      outcome: { paid: false, failureReason: 'Insufficient funds' },
      now: at('2026-02-10T00:00:00Z'),
    });
    expect(declined[1]).toMatchObject({
      type: 'MembershipPastDue',
      data: { failureReason: 'Insufficient funds', graceEndsAt: '2026-02-13T00:00:00.000Z' },
    });
    const state = fold(declined);
    expect(state.status).toBe('past_due');
    expect(hasAccessAt(state, at('2026-02-12T00:00:00Z'))).toBe(true);
    spec
      .on(state)
      .when({ type: 'ExpireMembership', userId: 'u1', now: at('2026-02-12T00:00:00Z') })
      .thenNothing();
    const expired = run(declined, { type: 'ExpireMembership', userId: 'u1', now: at('2026-02-13T00:00:00Z') });
    expect(expired[2]).toMatchObject({ type: 'MembershipExpired', data: { reason: 'unpaid' } });
    // paying again after expiry starts a fresh period from now
    const again = run(expired, {
      type: 'ActivateMembership',
      userId: 'u1',
      paymentId: 'p2',
      source: 'card',
      months: 1,
      now: at('2026-03-01T00:00:00Z'),
    });
    expect(again[3]).toMatchObject({ type: 'MembershipActivated', data: { periodStart: '2026-03-01T00:00:00.000Z' } });
  });

  it('resumes a canceled membership inside the paid period', () => {
    const canceled = run(activated, { type: 'CancelMembership', userId: 'u1', now: at('2026-01-20T00:00:00Z') });
    const resumed = run(canceled, { type: 'ResumeMembership', userId: 'u1', now: at('2026-01-25T00:00:00Z') });
    expect(fold(resumed)).toMatchObject({ status: 'active', autoRenew: true, periodEnd: '2026-02-10T00:00:00.000Z' });
    spec
      .given(canceled)
      .when({ type: 'ResumeMembership', userId: 'u1', now: at('2026-03-01T00:00:00Z') })
      .thenThrows();
  });

  it('the 7-month crypto plan bought while active extends the paid period', () => {
    const extended = run(activated, {
      type: 'ActivateMembership',
      userId: 'u1',
      paymentId: 'c1',
      source: 'crypto',
      months: 7,
      now: at('2026-01-15T00:00:00Z'),
    });
    expect(extended[1].data).toMatchObject({
      periodStart: '2026-02-10T00:00:00.000Z',
      periodEnd: '2026-09-10T00:00:00.000Z',
    });
  });
});

describe('declined subscribe charges', () => {
  it('are recorded once and never activate', () => {
    const declined = run([], {
      type: 'RecordDeclinedCharge',
      userId: 'u1',
      paymentId: 'p9',
      failureReason: 'Insufficient funds',
      now: at('2026-01-01T00:00:00Z'),
    });
    expect(declined).toHaveLength(1);
    spec
      .given(declined)
      .when({
        type: 'RecordDeclinedCharge',
        userId: 'u1',
        paymentId: 'p9',
        failureReason: 'x',
        now: at('2026-01-01T00:00:00Z'),
      })
      .thenNothing();
    spec
      .given(declined)
      .when({
        type: 'ActivateMembership',
        userId: 'u1',
        paymentId: 'p9',
        source: 'card',
        months: 1,
        now: at('2026-01-01T00:00:00Z'),
      })
      .thenNothing();
    expect(fold(declined).status).toBe('none');
  });
});
