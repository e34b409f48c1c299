import { discountedCents } from '../contracts/promotions';
import { deciderSpec } from '../shared/testing/decider-spec';
import {
  promotionDecider,
  promotionTrialDecider,
  type CreatePromotion,
  type RedeemPromotion,
} from './promotions-decider';
import type { PromotionEvent, PromotionTrialEvent } from './promotions-events';

const at = new Date('2026-11-01T10:00:00.000Z');
const endsAt = new Date('2026-11-08T10:00:00.000Z');
const promotion = deciderSpec(promotionDecider);
const trials = deciderSpec(promotionTrialDecider);

const create: CreatePromotion = {
  type: 'CreatePromotion',
  promotionId: 'p1',
  creatorId: 'c1',
  tierId: 't1',
  tierName: 'Gold',
  kind: 'trial',
  trialDays: 7,
  percentOff: null,
  maxRedemptions: 2,
  endsAt,
  at,
};
const created: PromotionEvent = {
  type: 'PromotionCreated',
  data: {
    promotionId: 'p1',
    creatorId: 'c1',
    tierId: 't1',
    tierName: 'Gold',
    kind: 'trial',
    trialDays: 7,
    percentOff: null,
    maxRedemptions: 2,
    endsAt: endsAt.toISOString(),
    at: at.toISOString(),
  },
};
const redeem = (subscriberId: string, overrides: Partial<RedeemPromotion> = {}): RedeemPromotion => ({
  type: 'RedeemPromotion',
  promotionId: 'p1',
  creatorId: 'c1',
  tierId: 't1',
  subscriberId,
  subscriptionId: `s-${subscriberId}`,
  chargeCents: 0,
  at,
  ...overrides,
});
const redeemed = (subscriberId: string): PromotionEvent => ({
  type: 'PromotionRedeemed',
  data: {
    promotionId: 'p1',
    creatorId: 'c1',
    tierId: 't1',
    subscriberId,
    subscriptionId: `s-${subscriberId}`,
    kind: 'trial',
    chargeCents: 0,
    at: at.toISOString(),
  },
});

describe('promotion decider', () => {
  it('creates a trial or a discount within its limits, once', () => {
    promotion.given([]).when(create).then([created]);
    promotion.given([created]).when(create).thenThrows({ kind: 'conflict' });
    const discount = promotion.given([]).when({ ...create, kind: 'discount', trialDays: 7, percentOff: 50 }).events;
    expect(discount[0].data).toMatchObject({ kind: 'discount', trialDays: null, percentOff: 50 });
    promotion
      .given([])
      .when({ ...create, trialDays: 0 })
      .thenThrows('Trial days must be between 1 and 90');
    promotion
      .given([])
      .when({ ...create, trialDays: 91 })
      .thenThrows('Trial days must be between 1 and 90');
    promotion
      .given([])
      .when({ ...create, kind: 'discount', percentOff: 4 })
      .thenThrows('Percent off must be between 5 and 90');
    promotion
      .given([])
      .when({ ...create, kind: 'discount', percentOff: 91 })
      .thenThrows('Percent off must be between 5 and 90');
    promotion
      .given([])
      .when({ ...create, maxRedemptions: 0 })
      .thenThrows({ kind: 'validation' });
    promotion
      .given([])
      .when({ ...create, endsAt: at })
      .thenThrows('End date must be in the future');
    promotion
      .given([])
      .when({ ...create, endsAt: new Date('2027-12-01T00:00:00.000Z') })
      .thenThrows('A promotion can run for at most a year');
  });

  it('counts redemptions up to the limit, one per member, and a retry for the same subscription redeems nothing', () => {
    promotion
      .given([created])
      .when(redeem('m1'))
      .then([redeemed('m1')]);
    promotion
      .given([created, redeemed('m1')])
      .when(redeem('m1'))
      .thenNothing();
    promotion
      .given([created, redeemed('m1')])
      .when(redeem('m1', { subscriptionId: 'other' }))
      .thenThrows({ kind: 'conflict', details: { code: 'PROMOTION_ALREADY_USED' } });
    promotion
      .given([created, redeemed('m1'), redeemed('m2')])
      .when(redeem('m3'))
      .thenThrows({ message: 'This offer has been fully redeemed', details: { code: 'PROMOTION_USED_UP' } });
  });

  it('refuses after its end date, once ended, for another tier or creator, and when unknown', () => {
    promotion
      .given([created])
      .when(redeem('m1', { at: endsAt }))
      .thenThrows({ message: 'This offer has expired', details: { code: 'PROMOTION_EXPIRED' } });
    promotion
      .given([created])
      .when(redeem('m1', { tierId: 't2' }))
      .thenThrows({ details: { code: 'PROMOTION_WRONG_TIER' } });
    promotion
      .given([created])
      .when(redeem('m1', { creatorId: 'c2' }))
      .thenThrows({ details: { code: 'PROMOTION_WRONG_CREATOR' } });
    promotion.given([]).when(redeem('m1')).thenThrows({ kind: 'not_found' });

    const end = { type: 'EndPromotion' as const, promotionId: 'p1', creatorId: 'c1', at };
    const ended = promotion
      .given([created])
      .when(end)
      .then([{ type: 'PromotionEnded', data: { promotionId: 'p1', creatorId: 'c1', at: at.toISOString() } }]);
    promotion
      .given([created, ...ended])
      .when(end)
      .thenNothing();
    promotion
      .given([created])
      .when({ ...end, creatorId: 'c2' })
      .thenThrows('Promotion not found');
    promotion
      .given([created, ...ended])
      .when(redeem('m1'))
      .thenThrows({ message: 'This offer has ended', details: { code: 'PROMOTION_ENDED' } });
  });

  it('a released redemption frees its place, and releasing twice changes nothing', () => {
    const release = { type: 'ReleasePromotionRedemption' as const, promotionId: 'p1', subscriptionId: 's-m1', at };
    const [released] = promotion.given([created, redeemed('m1'), redeemed('m2')]).when(release).events;
    expect(released).toMatchObject({ type: 'PromotionRedemptionReleased', data: { subscriberId: 'm1' } });
    promotion
      .given([created, redeemed('m1'), redeemed('m2'), released])
      .when(redeem('m3'))
      .thenMatch([{ type: 'PromotionRedeemed', data: { subscriberId: 'm3' } }]);
    promotion
      .given([created, redeemed('m1'), released])
      .when(release)
      .thenNothing();
  });

  it('the last redemption goes to one of two members deciding on the same revision', () => {
    const state = promotion.fold([created, redeemed('m1')]);
    // Both decide on the same state; the store takes the first append, the second re-reads.
    const [first] = promotion.on(state).when(redeem('m2')).events;
    promotion
      .on(state)
      .when(redeem('m3'))
      .thenMatch([{ type: 'PromotionRedeemed' }]);
    promotion
      .on(promotionDecider.evolve(state, first))
      .when(redeem('m3'))
      .thenThrows({ details: { code: 'PROMOTION_USED_UP' } });
  });
});

describe('promotion trial decider', () => {
  const take = {
    type: 'TakeTrial' as const,
    subscriberId: 'm1',
    creatorId: 'c1',
    promotionId: 'p1',
    subscriptionId: 's1',
    at,
  };
  const taken: PromotionTrialEvent = {
    type: 'PromotionTrialTaken',
    data: { subscriberId: 'm1', creatorId: 'c1', promotionId: 'p1', subscriptionId: 's1', at: at.toISOString() },
  };

  it('gives a member one trial per creator, ever, whatever the promotion', () => {
    trials.given([]).when(take).then([taken]);
    trials.given([taken]).when(take).thenNothing();
    trials
      .given([taken])
      .when({ ...take, promotionId: 'p2', subscriptionId: 's2' })
      .thenThrows({ message: 'You have already had a free trial with this creator', kind: 'conflict' });
  });

  it('gives the trial back when its subscription did not start', () => {
    const [released] = trials.given([taken]).when({ type: 'ReleaseTrial', subscriptionId: 's1', at }).events;
    expect(released.type).toBe('PromotionTrialReleased');
    trials.given([taken]).when({ type: 'ReleaseTrial', subscriptionId: 'other', at }).thenNothing();
    trials
      .given([taken, released])
      .when({ ...take, subscriptionId: 's2' })
      .thenMatch([{ type: 'PromotionTrialTaken' }]);
  });
});

describe('discountedCents', () => {
  it('takes the percentage off in whole cents, rounding half up', () => {
    expect(discountedCents(999, 50)).toBe(500);
    expect(discountedCents(1999, 25)).toBe(1499);
    expect(discountedCents(1000, 90)).toBe(100);
    expect(discountedCents(101, 5)).toBe(96);
  });
});
