import { deciderSpec } from '../shared/testing/decider-spec';
import { membershipDecider as decider, type ActivateMembership, type MembershipCommand } from './decider';
import type { MembershipActivated } from './events';
import { addMonths } from './period';

const spec = deciderSpec(decider);
const activate = (over: Partial<ActivateMembership> = {}): MembershipCommand => ({
  type: 'ActivateMembership',
  userId: 'u1',
  paymentId: 'p1',
  source: 'card',
  months: 1,
  now: new Date('2026-01-31T10:00:00.000Z'),
  ...over,
});

describe('membership decider', () => {
  it('activates one month from now for a first payment', () => {
    spec
      .given([])
      .when(activate())
      .then([
        {
          type: 'MembershipActivated',
          data: {
            userId: 'u1',
            periodStart: '2026-01-31T10:00:00.000Z',
            periodEnd: '2026-02-28T10:00:00.000Z',
            source: 'card',
            paymentId: 'p1',
            activatedAt: '2026-01-31T10:00:00.000Z',
          },
        },
      ]);
  });

  it('activates a payment once', () => {
    const state = spec.fold(spec.given([]).when(activate()).events);
    spec.on(state).when(activate()).thenNothing();
  });

  it('extends an active period instead of overlapping it', () => {
    const state = spec.fold(spec.given([]).when(activate()).events);
    const [event] = spec
      .on(state)
      .when(
        activate({ paymentId: 'p2', source: 'crypto', months: 7, now: new Date('2026-02-10T00:00:00.000Z') }),
      ).events;
    expect(event.data).toMatchObject({
      periodStart: '2026-02-28T10:00:00.000Z',
      periodEnd: '2026-09-28T10:00:00.000Z',
      source: 'crypto',
    });
  });

  it('starts from now when the previous period is over', () => {
    const state = spec.fold(spec.given([]).when(activate()).events);
    const [event] = spec
      .on(state)
      .when(activate({ paymentId: 'p2', now: new Date('2026-05-01T00:00:00.000Z') })).events;
    expect((event as MembershipActivated).data.periodStart).toBe('2026-05-01T00:00:00.000Z');
  });

  it('refuses a length below one month', () => {
    spec
      .given([])
      .when(activate({ months: 0 }))
      .thenThrows('Invalid membership length');
  });
});

describe('addMonths', () => {
  it('clamps to the end of shorter months and crosses years', () => {
    expect(addMonths(new Date('2024-01-31T00:00:00Z'), 1).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(addMonths(new Date('2026-12-15T08:30:00Z'), 1).toISOString()).toBe('2027-01-15T08:30:00.000Z');
    expect(addMonths(new Date('2026-03-31T00:00:00Z'), 6).toISOString()).toBe('2026-09-30T00:00:00.000Z');
  });
});
