import { deciderSpec } from '../shared/testing/decider-spec';
import { creatorDecider, offeredTiers, type CreatorCommand } from './decider';
import type { CreatorEvent } from './events';
import { creatorSubscriptionDecider, oneMonthAfter, type StartCreatorSubscription } from './subscription-decider';

const at = new Date('2026-01-31T10:00:00.000Z');
const creator = deciderSpec(creatorDecider);
const subscription = deciderSpec(creatorSubscriptionDecider);
const registered: CreatorEvent = {
  type: 'CreatorRegistered',
  data: { userId: 'u1', bio: 'Hi', coverImageUrl: null, registeredAt: at.toISOString() },
};
const tier = {
  creatorId: 'u1',
  tierId: 't1',
  name: 'Gold',
  description: '',
  priceCents: 1500,
  features: ['a'],
  at: at.toISOString(),
};

describe('creator decider', () => {
  it('registers once', () => {
    const command: CreatorCommand = { type: 'RegisterCreator', userId: 'u1', bio: 'Hi', coverImageUrl: null, at };
    creator.given([]).when(command).then([registered]);
    creator.given([registered]).when(command).thenThrows({ kind: 'conflict' });
  });

  it('offers the three fallback tiers until the creator defines one', () => {
    expect(offeredTiers(creator.fold([registered])).map((t) => [t.name, t.priceCents, t.popular])).toEqual([
      ['Basic', 999, false],
      ['Premium', 1999, true],
      ['VIP', 3999, false],
    ]);
    const state = creator.fold([registered, { type: 'TierCreated', data: tier }]);
    expect(offeredTiers(state).map((t) => t.tierId)).toEqual(['t1']);
  });

  it('turns the watermark on and off for creators only, and a repeated setting changes nothing', () => {
    const on: CreatorCommand = { type: 'SetWatermark', creatorId: 'u1', enabled: true, at };
    const set: CreatorEvent = {
      type: 'CreatorWatermarkSet',
      data: { creatorId: 'u1', enabled: true, at: at.toISOString() },
    };
    creator.given([]).when(on).thenThrows({ kind: 'forbidden' });
    creator.given([registered]).when(on).then([set]);
    creator.given([registered, set]).when(on).then([]);
    expect(creator.given([registered, set]).when({ ...on, enabled: false }).events[0]).toMatchObject({
      type: 'CreatorWatermarkSet',
      data: { enabled: false },
    });
    creator
      .given([registered])
      .when({ ...on, enabled: false })
      .then([]);
  });

  it('creates and edits tiers only as a creator, and only known tiers are edited', () => {
    const create: CreatorCommand = { type: 'CreateTier', ...tier, at };
    creator.given([]).when(create).thenThrows({ kind: 'forbidden' });
    expect(creator.given([registered]).when(create).events[0].type).toBe('TierCreated');
    const update: CreatorCommand = { type: 'UpdateTier', ...tier, priceCents: 2000, at };
    creator.given([registered]).when(update).thenThrows({ kind: 'not_found' });
    expect(creator.given([registered, { type: 'TierCreated', data: tier }]).when(update).events[0]).toMatchObject({
      type: 'TierUpdated',
      data: { priceCents: 2000 },
    });
  });
});

describe('creator subscription decider', () => {
  const start: StartCreatorSubscription = {
    type: 'StartCreatorSubscription',
    subscriptionId: 's1',
    subscriberId: 'm1',
    creatorId: 'c1',
    tier: { tierId: 'default-basic', name: 'Basic', priceCents: 999 },
    transactionId: 'tx',
    at,
  };

  it('starts a month, refuses a second while it runs, allows one after it ended', () => {
    const [started] = subscription.given().when(start).events;
    expect(started.data).toMatchObject({
      priceCents: 999,
      startDate: at.toISOString(),
      endDate: '2026-02-28T10:00:00.000Z',
    });
    const state = subscription.fold([started]);
    subscription.on(state).when(start).thenThrows({ kind: 'conflict' });
    expect(subscription.on(state).when({ ...start, at: new Date('2026-03-01T00:00:00Z') }).events).toHaveLength(1);
  });

  it('refuses subscribing to oneself', () => {
    subscription
      .given()
      .when({ ...start, creatorId: 'm1' })
      .thenThrows({ kind: 'unprocessable' });
  });

  it('adds one calendar month', () => {
    expect(oneMonthAfter(new Date('2026-03-15T00:00:00Z')).toISOString()).toBe('2026-04-15T00:00:00.000Z');
    expect(oneMonthAfter(new Date('2026-12-31T00:00:00Z')).toISOString()).toBe('2027-01-31T00:00:00.000Z');
  });
});
