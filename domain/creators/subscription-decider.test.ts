import type { CreatorSubscriptionEvent } from './events';
import {
  creatorSubscriptionDecider as decider,
  type CreatorSubscriptionCommand,
  type CreatorSubscriptionState,
  type RecordCreatorRenewal,
  type StartCreatorSubscription,
} from './subscription-decider';

const MEMBER = 'member-1';
const CREATOR = 'creator-1';
const BASIC = { tierId: 'basic', name: 'Basic', priceCents: 499 };
const PREMIUM = { tierId: 'premium', name: 'Premium', priceCents: 1999 };
const T0 = new Date('2026-01-31T10:00:00.000Z');
const day = (n: number, from: Date | string = T0) => new Date(new Date(from).getTime() + n * 86_400_000);

/** Folds the events of commands applied in order; a refused command throws. */
function run(commands: CreatorSubscriptionCommand[], state: CreatorSubscriptionState = decider.initialState) {
  const events: CreatorSubscriptionEvent[] = [];
  for (const command of commands) {
    const decided = decider.decide(command, state);
    for (const event of decided) state = decider.evolve(state, event);
    events.push(...decided);
  }
  return { state, events };
}

const start = (overrides: Partial<StartCreatorSubscription> = {}): StartCreatorSubscription => ({
  type: 'StartCreatorSubscription',
  subscriptionId: 'sub-1',
  subscriberId: MEMBER,
  creatorId: CREATOR,
  tier: BASIC,
  transactionId: 'txn-1',
  at: T0,
  ...overrides,
});

const renewal = (periodEnd: string, attempt: number, at: Date, paid: boolean, tier = BASIC): RecordCreatorRenewal => ({
  type: 'RecordCreatorRenewal',
  periodEnd,
  attempt,
  renewalId: `renewal-${periodEnd}`,
  tier,
  outcome: paid
    ? { paid: true, paidFrom: 'card', transactionId: `txn-${attempt}-${periodEnd}` }
    : { paid: false, failureReason: 'declined' },
  at,
});

describe('creator subscription decider', () => {
  it('starts a month at the tier price, the month clamped to the next month end', () => {
    const { state, events } = run([start()]);
    expect(events[0].data).toMatchObject({
      priceCents: 499,
      startDate: T0.toISOString(),
      endDate: '2026-02-28T10:00:00.000Z',
    });
    expect(state).toMatchObject({ status: 'active', activeUntil: new Date('2026-02-28T10:00:00.000Z') });
  });

  it('starts a trial with first-period terms: nothing charged, the promotion named, renewals at the tier price', () => {
    const terms = { chargeCents: 0, periodEnd: day(7), promotionId: 'promo-1' };
    const { state, events } = run([start({ terms, transactionId: null })]);
    expect(events[0].data).toMatchObject({
      priceCents: 0,
      tierPriceCents: 499,
      promotionId: 'promo-1',
      endDate: day(7).toISOString(),
    });
    expect(state.lastCharge).toBeNull();
    const renewed = run([renewal(day(7).toISOString(), 1, day(7), true)], state);
    expect(renewed.events[0]).toMatchObject({ type: 'CreatorSubscriptionRenewed', data: { priceCents: 499 } });
  });

  it('starts a discounted first month (periodEnd null: one month)', () => {
    const terms = { chargeCents: 250, periodEnd: null, promotionId: 'promo-2' };
    const { events } = run([start({ terms })]);
    expect(events[0].data).toMatchObject({ priceCents: 250, tierPriceCents: 499, endDate: '2026-02-28T10:00:00.000Z' });
  });

  it('refuses a second subscription while one runs, and terms that make no sense', () => {
    const { state } = run([start()]);
    expect(() => run([start({ subscriptionId: 'sub-2', at: day(3) })], state)).toThrow('already subscribed');
    expect(() => run([start({ terms: { chargeCents: -1, periodEnd: null, promotionId: 'p' } })])).toThrow(
      'Invalid first-period charge',
    );
  });

  it('renews once per period: the next period follows without a gap, a replayed answer changes nothing', () => {
    const { state } = run([start()]);
    const end = state.periodEnd!;
    const first = run([renewal(end, 1, new Date(end), true)], state);
    expect(first.events).toHaveLength(1);
    expect(first.events[0].data).toMatchObject({ periodStart: end, periodEnd: '2026-03-28T10:00:00.000Z' });
    expect(run([renewal(end, 1, new Date(end), true)], first.state).events).toEqual([]);
    expect(first.state.lastCharge?.saleReference).toBe(`creatorSubscription:renewal-${end}`);
  });

  it('is not due before the period ends, nor after its grace period (never charged late: it expires)', () => {
    const { state } = run([start()]);
    expect(run([renewal(state.periodEnd!, 1, day(10), true)], state).events).toEqual([]);
    const late = day(7, state.periodEnd!);
    expect(run([renewal(state.periodEnd!, 1, late, true)], state).events).toEqual([]);
    expect(run([{ type: 'ExpireCreatorSubscription', at: late }], state).events[0].data).toMatchObject({
      reason: 'unpaid',
    });
  });

  it('retries a declined renewal on schedule, keeps access through the grace period, then expires', () => {
    const { state } = run([start()]);
    const end = state.periodEnd!;
    const declined = run([renewal(end, 1, new Date(end), false)], state);
    expect(declined.events[0]).toMatchObject({
      type: 'CreatorSubscriptionRenewalDeclined',
      data: { attempt: 1, nextAttemptAt: day(1, end).toISOString(), graceEndsAt: day(7, end).toISOString() },
    });
    expect(declined.state).toMatchObject({ status: 'past_due', activeUntil: day(7, end) });
    // The retry is not due before its time, then tries 2, 3 and 4 decline; no try is left.
    expect(run([renewal(end, 2, day(0.5, end), false)], declined.state).events).toEqual([]);
    const exhausted = run(
      [renewal(end, 2, day(1, end), false), renewal(end, 3, day(3, end), false), renewal(end, 4, day(5, end), false)],
      declined.state,
    );
    expect(exhausted.events.map((e) => (e.data as { nextAttemptAt: string | null }).nextAttemptAt)).toEqual([
      day(3, end).toISOString(),
      day(5, end).toISOString(),
      null,
    ]);
    expect(run([{ type: 'ExpireCreatorSubscription', at: day(6, end) }], exhausted.state).events).toEqual([]);
    const expired = run([{ type: 'ExpireCreatorSubscription', at: day(7, end) }], exhausted.state);
    expect(expired.events[0]).toMatchObject({ type: 'CreatorSubscriptionExpired', data: { reason: 'unpaid' } });
    expect(expired.state.status).toBe('expired');
  });

  it('a retry that pays makes it active again from the old period end', () => {
    const { state } = run([start()]);
    const end = state.periodEnd!;
    const paid = run([renewal(end, 1, new Date(end), false), renewal(end, 2, day(1, end), true)], state);
    expect(paid.state).toMatchObject({ status: 'active', periodStart: end, failedAttempts: 0, nextAttemptAt: null });
  });

  it('cancel keeps access until the period ends, then expires; no renewal is due', () => {
    const { state } = run([start(), { type: 'CancelCreatorSubscription', at: day(3) }]);
    expect(state).toMatchObject({ status: 'canceled', activeUntil: new Date(state.periodEnd!) });
    expect(run([renewal(state.periodEnd!, 1, new Date(state.periodEnd!), true)], state).events).toEqual([]);
    expect(() => run([{ type: 'CancelCreatorSubscription', at: day(4) }], state)).toThrow('already canceled');
    const expired = run([{ type: 'ExpireCreatorSubscription', at: new Date(state.periodEnd!) }], state);
    expect(expired.events[0].data).toMatchObject({ reason: 'canceled' });
  });

  it('resubscribing restores renewal without a charge while the period runs, not after it ended', () => {
    const canceled = run([start(), { type: 'CancelCreatorSubscription', at: day(3) }]).state;
    const resumed = run([{ type: 'ResumeCreatorSubscription', at: day(4) }], canceled);
    expect(resumed.events[0].type).toBe('CreatorSubscriptionResumed');
    expect(resumed.state.status).toBe('active');
    expect(() => run([{ type: 'ResumeCreatorSubscription', at: day(40) }], canceled)).toThrow('has ended');
  });

  it('a tier change applies from the next period: the renewal charges the new tier, the paid period keeps the old', () => {
    const { state } = run([start(), { type: 'ChangeCreatorSubscriptionTier', tier: PREMIUM, at: day(2) }]);
    expect(state.tier?.tierId).toBe('basic');
    expect(state.nextTier).toEqual({ tierId: 'premium', tierName: 'Premium', priceCents: 1999 });
    expect(() => run([{ type: 'ChangeCreatorSubscriptionTier', tier: PREMIUM, at: day(3) }], state)).toThrow(
      'already the one',
    );
    // Changing back before the period ends cancels the change.
    expect(run([{ type: 'ChangeCreatorSubscriptionTier', tier: BASIC, at: day(3) }], state).state.nextTier).toBeNull();
  });

  it('refunds the latest charge within 7 days: access ends at once; after 7 days it refuses', () => {
    const { state } = run([start()]);
    const refund = (at: Date) =>
      ({
        type: 'RecordCreatorSubscriptionRefund',
        transactionId: 'txn-1',
        gatewayRefundId: 'rf-1',
        amountCents: 499,
        reason: 'money-back guarantee',
        at,
      }) as const;
    const refunded = run([refund(day(6))], state);
    expect(refunded.events[0]).toMatchObject({
      type: 'CreatorSubscriptionRefunded',
      data: {
        transactionId: 'txn-1',
        amountCents: 499,
        saleReference: 'creatorSubscription:sub-1',
        at: day(6).toISOString(),
      },
    });
    expect(refunded.state).toMatchObject({ status: 'refunded', activeUntil: day(6) });
    // The same refund recorded again changes nothing; another one is refused.
    expect(run([refund(day(6.5))], refunded.state).events).toEqual([]);
    expect(() => run([{ ...refund(day(6.5)), gatewayRefundId: 'rf-2' }], refunded.state)).toThrow('no running period');
    expect(() => run([refund(day(7))], state)).toThrow('money-back guarantee lasts 7 days');
  });

  it('records what remained of the charge when staff refunded part of it first; once per refund', () => {
    const { state } = run([start()]);
    const claim = {
      type: 'RecordCreatorSubscriptionRefund',
      transactionId: 'txn-1',
      gatewayRefundId: 'rf-rest',
      amountCents: 299,
      reason: 'money-back guarantee',
      at: day(2),
    } as const;
    const refunded = run([claim], state);
    expect(refunded.events[0].data).toMatchObject({ amountCents: 299, gatewayRefundId: 'rf-rest' });
    // Its payment stream's process ended it with the same refund first: the claim records nothing more.
    const ended = run(
      [
        {
          type: 'EndCreatorSubscriptionGivenBack',
          transactionId: 'txn-1',
          givenBackId: 'refund:rf-rest',
          cause: 'refund',
          at: day(2),
        },
      ],
      state,
    );
    expect(run([claim], ended.state).events).toEqual([]);
  });

  it('the charge of the running period given back outside the guarantee ends access at once, whatever its age; once', () => {
    const { state } = run([start()]);
    const end = state.periodEnd!;
    const renewed = run([renewal(end, 1, new Date(end), true)], state).state;
    const renewalCharge = `txn-1-${end}`;
    const givenBack = (transactionId: string, givenBackId: string, at: Date) =>
      ({ type: 'EndCreatorSubscriptionGivenBack', transactionId, givenBackId, cause: 'chargeback', at }) as const;
    // The first period's charge, charged back 40 days on: that period is over, the renewed one runs on
    // (its money comes back through the share reversal, not by ending what was paid since).
    expect(run([givenBack('txn-1', 'dispute:dp-1', day(40))], renewed).events).toEqual([]);
    // The running period's charge, charged back (the guarantee long over): access ends now.
    const ended = run([givenBack(renewalCharge, 'dispute:dp-2', day(40))], renewed);
    expect(ended.events).toEqual([
      {
        type: 'CreatorSubscriptionChargeGivenBack',
        data: {
          subscriptionId: 'sub-1',
          subscriberId: MEMBER,
          creatorId: CREATOR,
          transactionId: renewalCharge,
          givenBackId: 'dispute:dp-2',
          cause: 'chargeback',
          at: day(40).toISOString(),
        },
      },
    ]);
    expect(ended.state).toMatchObject({ status: 'refunded', activeUntil: day(40), nextAttemptAt: null });
    // No renewal is charged afterwards, and the same or another refund ends nothing more.
    expect(run([renewal(ended.state.periodEnd!, 1, day(70), true)], ended.state).events).toEqual([]);
    expect(run([givenBack(renewalCharge, 'dispute:dp-2', day(41))], ended.state).events).toEqual([]);
    // A charge this subscription never made (another subscription's) ends nothing.
    expect(run([givenBack('txn-other', 'refund:r', day(40))], renewed).events).toEqual([]);
    // A later subscription is not ended by its predecessor's charge.
    const again = run([start({ subscriptionId: 'sub-2', transactionId: 'txn-2', at: day(41) })], ended.state).state;
    expect(run([givenBack(renewalCharge, 'dispute:dp-3', day(42))], again).events).toEqual([]);
  });

  it('renews from the USD balance where the member chose it; a canceled one cannot choose', () => {
    const { state } = run([start()]);
    const choose = (source: 'card' | 'balance', at = day(2)) =>
      ({ type: 'ChangeCreatorSubscriptionRenewalSource', source, at }) as const;
    const chosen = run([choose('balance')], state);
    expect(chosen.events).toEqual([
      {
        type: 'CreatorSubscriptionRenewalSourceChanged',
        data: {
          subscriptionId: 'sub-1',
          subscriberId: MEMBER,
          creatorId: CREATOR,
          source: 'balance',
          at: day(2).toISOString(),
        },
      },
    ]);
    expect(chosen.state.renewFrom).toBe('balance');
    expect(run([choose('balance', day(3))], chosen.state).events).toEqual([]); // already so
    const end = chosen.state.periodEnd!;
    const paid = run(
      [{ ...renewal(end, 1, new Date(end), true), outcome: { paid: true, paidFrom: 'balance' } }],
      chosen.state,
    );
    expect(paid.events[0].data).toMatchObject({
      transactionId: null,
      paidFrom: 'balance',
      renewalId: `renewal-${end}`,
    });
    expect(paid.state.lastCharge).toMatchObject({ transactionId: null, paidFrom: 'balance', amountCents: 499 });
    const declined = run(
      [
        {
          ...renewal(end, 1, new Date(end), false),
          outcome: { paid: false, paidFrom: 'balance', failureReason: 'low' },
        },
      ],
      chosen.state,
    );
    expect(declined.events[0]).toMatchObject({
      type: 'CreatorSubscriptionRenewalDeclined',
      data: { paidFrom: 'balance', failureReason: 'low' },
    });
    const canceled = run([{ type: 'CancelCreatorSubscription', at: day(3) }], state).state;
    expect(() => run([choose('balance', day(4))], canceled)).toThrow(
      'This subscription is canceled: it will not renew',
    );
  });

  it('gives a period paid from the balance back to the balance under the guarantee, once', () => {
    const chosen = run([start(), { type: 'ChangeCreatorSubscriptionRenewalSource', source: 'balance', at: day(2) }]);
    const end = chosen.state.periodEnd!;
    const renewedAt = new Date(end);
    const paid = run(
      [{ ...renewal(end, 1, renewedAt, true), outcome: { paid: true, paidFrom: 'balance' } }],
      chosen.state,
    ).state;
    const refund = {
      type: 'RecordCreatorSubscriptionRefund',
      transactionId: null,
      gatewayRefundId: null,
      balanceReference: `creatorSubscription:renewal-${end}:returned`,
      amountCents: 499,
      reason: 'money-back guarantee',
      at: new Date(renewedAt.getTime() + 86_400_000),
    } as const;
    const refunded = run([refund], paid);
    expect(refunded.events[0]).toMatchObject({
      type: 'CreatorSubscriptionRefunded',
      data: {
        transactionId: null,
        gatewayRefundId: null,
        paidFrom: 'balance',
        balanceReference: `creatorSubscription:renewal-${end}:returned`,
        amountCents: 499,
        saleReference: `creatorSubscription:renewal-${end}`,
      },
    });
    expect(refunded.state).toMatchObject({
      status: 'refunded',
      endedBy: `balance:creatorSubscription:renewal-${end}:returned`,
    });
    expect(run([refund], refunded.state).events).toEqual([]);
  });

  it('a trial has nothing to refund', () => {
    const { state } = run([
      start({ transactionId: null, terms: { chargeCents: 0, periodEnd: day(7), promotionId: 'p' } }),
    ]);
    expect(() =>
      run(
        [
          {
            type: 'RecordCreatorSubscriptionRefund',
            transactionId: 'x',
            gatewayRefundId: 'r',
            amountCents: 499,
            reason: 'r',
            at: day(1),
          },
        ],
        state,
      ),
    ).toThrow('nothing to refund');
  });

  it('canceling while past due ends access at once (the unpaid renewal bought no time)', () => {
    const { state } = run([start()]);
    const end = state.periodEnd!;
    const canceled = run(
      [renewal(end, 1, new Date(end), false), { type: 'CancelCreatorSubscription', at: day(2, end) }],
      state,
    );
    expect(canceled.state).toMatchObject({ status: 'canceled', activeUntil: day(2, end) });
    expect(run([renewal(end, 2, day(2, end), true)], canceled.state).events).toEqual([]);
  });

  it('a member who was refunded may subscribe again, as a new subscription', () => {
    const refunded = run([
      start(),
      {
        type: 'RecordCreatorSubscriptionRefund',
        transactionId: 'txn-1',
        gatewayRefundId: 'r',
        amountCents: 499,
        reason: 'r',
        at: day(1),
      },
    ]).state;
    const again = run([start({ subscriptionId: 'sub-2', transactionId: 'txn-2', at: day(2) })], refunded);
    expect(again.events.map((e) => e.type)).toEqual(['CreatorSubscriptionStarted']);
    expect(again.state).toMatchObject({ status: 'active', subscriptionId: 'sub-2' });
  });

  it('a new subscription after a lapsed one closes the old one first', () => {
    const canceled = run([start(), { type: 'CancelCreatorSubscription', at: day(3) }]).state;
    const again = run([start({ subscriptionId: 'sub-2', at: day(40) })], canceled);
    expect(again.events.map((e) => e.type)).toEqual(['CreatorSubscriptionExpired', 'CreatorSubscriptionStarted']);
    expect(again.state).toMatchObject({ status: 'active', subscriptionId: 'sub-2' });
  });
});
