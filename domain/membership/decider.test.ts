import { membershipDecider as decider, type ActivateMembership, type MembershipCommand } from './decider';
import type { MembershipActivated, MembershipEvent } from './events';
import { addMonths } from './period';

const given = (events: MembershipEvent[]) => events.reduce(decider.evolve, decider.initialState);
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
    expect(decider.decide(activate(), given([]))).toEqual([
      {
        type: 'MembershipActivated',
        data: { userId: 'u1', periodStart: '2026-01-31T10:00:00.000Z', periodEnd: '2026-02-28T10:00:00.000Z', source: 'card', paymentId: 'p1', activatedAt: '2026-01-31T10:00:00.000Z' },
      },
    ]);
  });

  it('activates a payment once', () => {
    const state = given(decider.decide(activate(), given([])));
    expect(decider.decide(activate(), state)).toEqual([]);
  });

  it('extends an active period instead of overlapping it', () => {
    const state = given(decider.decide(activate(), given([])));
    const [event] = decider.decide(activate({ paymentId: 'p2', source: 'crypto', months: 7, now: new Date('2026-02-10T00:00:00.000Z') }), state);
    expect(event.data).toMatchObject({ periodStart: '2026-02-28T10:00:00.000Z', periodEnd: '2026-09-28T10:00:00.000Z', source: 'crypto' });
  });

  it('starts from now when the previous period is over', () => {
    const state = given(decider.decide(activate(), given([])));
    const [event] = decider.decide(activate({ paymentId: 'p2', now: new Date('2026-05-01T00:00:00.000Z') }), state);
    expect((event as MembershipActivated).data.periodStart).toBe('2026-05-01T00:00:00.000Z');
  });

  it('refuses a length below one month', () => {
    expect(() => decider.decide(activate({ months: 0 }), given([]))).toThrow('Invalid membership length');
  });
});

describe('addMonths', () => {
  it('clamps to the end of shorter months and crosses years', () => {
    expect(addMonths(new Date('2024-01-31T00:00:00Z'), 1).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(addMonths(new Date('2026-12-15T08:30:00Z'), 1).toISOString()).toBe('2027-01-15T08:30:00.000Z');
    expect(addMonths(new Date('2026-03-31T00:00:00Z'), 6).toISOString()).toBe('2026-09-30T00:00:00.000Z');
  });
});
