import { deciderSpec } from '../shared/testing/decider-spec';
import { balancesAt, creatorAccountDecider as decider, type CreatorAccountCommand } from './decider';
import type { CreatorAccountEvent } from './events';
import { shareOfGivenBack } from './share-reversal';

const spec = deciderSpec(decider);
const DAY = 86_400_000;
const now = new Date('2026-03-20T12:00:00.000Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * DAY);

const credit = (reference: string, grossCents: number, days: number): CreatorAccountCommand => ({
  type: 'CreditEarnings',
  creatorId: 'c1',
  source: 'subscription',
  reference,
  payerId: 'm1',
  grossCents,
  occurredAt: daysAgo(days),
});
const reverse = (reference: string, grossCents: number, reversalId: string, at = now): CreatorAccountCommand => ({
  type: 'ReverseCreatorShare',
  creatorId: 'c1',
  reference,
  reversalId,
  cause: 'refund',
  grossCents,
  reason: 'refund',
  now: at,
});
const run = (...commands: CreatorAccountCommand[]) => {
  let state = decider.initialState;
  const events: CreatorAccountEvent[] = [];
  for (const command of commands) {
    const written = spec.on(state).when(command).events;
    events.push(...written);
    state = written.reduce(decider.evolve, state);
  }
  return { state, events };
};

describe('creator share reversal', () => {
  it('takes the share from the sale’s own pending earning first', () => {
    const { state, events } = run(credit('old', 1000, 10), credit('sale', 1000, 1), reverse('sale', 400, 'r1'));
    expect(events.at(-1)).toMatchObject({
      type: 'CreatorShareReversed',
      data: {
        grossCents: 400,
        creatorShareCents: 360,
        platformFeeCents: 40,
        fromPending: [{ reference: 'sale', cents: 360 }],
        fromAvailableCents: 0,
        carriedCents: 0,
      },
    });
    expect(balancesAt(state, now)).toMatchObject({ availableCents: 900, pendingCents: 540, totalEarningsCents: 1440 });
    // Released later, the cut earning makes available what is left of it.
    expect(balancesAt(state, new Date(now.getTime() + 7 * DAY))).toMatchObject({ availableCents: 1440 });
  });

  it('then other pending earnings, then the available balance, and carries the rest below zero', () => {
    const { state, events } = run(
      credit('sale', 10_000, 20), // released: 9000 available
      credit('recent', 1000, 2), // pending 900
      {
        type: 'AddPaymentAccount',
        creatorId: 'c1',
        paymentAccountId: 'a1',
        accountType: 'stripe',
        accountHolderName: 'C',
        bankAccountLast4: null,
        routingNumber: null,
        stripeAccountId: 'acct_1',
        makeDefault: true,
        isVerified: true,
        now: daysAgo(1),
      },
      { type: 'RequestPayout', creatorId: 'c1', payoutId: 'p1', paymentAccountId: 'a1', amountCents: 9000, now },
      reverse('sale', 10_000, 'r1'),
    );
    expect(events.at(-1)!.data).toMatchObject({
      creatorShareCents: 9000,
      fromPending: [{ reference: 'recent', cents: 900 }],
      fromAvailableCents: 0,
      carriedCents: 8100,
    });
    expect(balancesAt(state, now)).toMatchObject({ availableCents: -8100, pendingCents: 0 });
    // Future earnings pay the negative balance off first; a payout sees the lower amount.
    const later = [credit('next', 10_000, 0)].reduce(
      (s, command) => spec.on(s).when(command).events.reduce(decider.evolve, s),
      state,
    );
    expect(balancesAt(later, new Date(now.getTime() + 8 * DAY)).availableCents).toBe(900);
    spec
      .on(state)
      .when({ type: 'RequestPayout', creatorId: 'c1', payoutId: 'p2', paymentAccountId: 'a1', amountCents: 1, now })
      .thenThrows('No available balance to withdraw');
  });

  it('reverses each refund once and never more than the sale, exact to the cent', () => {
    const { state, events } = run(
      credit('sale', 999, 1),
      reverse('sale', 333, 'r1'),
      reverse('sale', 333, 'r1'),
      reverse('sale', 333, 'r2'),
      reverse('sale', 500, 'r3'),
      reverse('sale', 1, 'r4'),
    );
    const reversals = events.filter((e) => e.type === 'CreatorShareReversed').map((e) => e.data);
    expect(reversals.map((r) => ('grossCents' in r ? r.grossCents : 0))).toEqual([333, 333, 333]);
    const share = reversals.reduce((sum, r) => sum + ('creatorShareCents' in r ? r.creatorShareCents : 0), 0);
    expect(share).toBe(899); // the whole creator share of $9.99 (fee $1.00)
    expect(balancesAt(state, now)).toMatchObject({ pendingCents: 0, totalEarningsCents: 0, availableCents: 0 });
  });

  it('splits a share in proportion to what was given back', () => {
    const sale = { grossCents: 999, creatorShareCents: 899 };
    expect(shareOfGivenBack(sale, 0, 100)).toBe(89);
    expect(shareOfGivenBack(sale, 100, 899)).toBe(810);
  });

  it('refuses a reversal of a sale that was never credited', () => {
    spec
      .given([])
      .when(reverse('nope', 100, 'r1'))
      .thenThrows('Earnings not found');
  });
});
