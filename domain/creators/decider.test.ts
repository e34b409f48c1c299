import { DomainError } from '../shared/errors';
import { creatorDecider, offeredTiers, type CreatorCommand } from './decider';
import type { CreatorEvent } from './events';
import { creatorSubscriptionDecider, oneMonthAfter, type StartCreatorSubscription } from './subscription-decider';

const at = new Date('2026-01-31T10:00:00.000Z');
const given = (events: CreatorEvent[]) => events.reduce(creatorDecider.evolve, creatorDecider.initialState);
const registered: CreatorEvent = { type: 'CreatorRegistered', data: { userId: 'u1', bio: 'Hi', coverImageUrl: null, registeredAt: at.toISOString() } };
const tier = { creatorId: 'u1', tierId: 't1', name: 'Gold', description: '', priceCents: 1500, features: ['a'], at: at.toISOString() };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as DomainError).kind;
  }
  return 'none';
}

describe('creator decider', () => {
  it('registers once', () => {
    const command: CreatorCommand = { type: 'RegisterCreator', userId: 'u1', bio: 'Hi', coverImageUrl: null, at };
    expect(creatorDecider.decide(command, given([]))).toEqual([registered]);
    expect(refusal(() => creatorDecider.decide(command, given([registered])))).toBe('conflict');
  });

  it('offers the three fallback tiers until the creator defines one', () => {
    expect(offeredTiers(given([registered])).map((t) => [t.name, t.priceCents, t.popular])).toEqual([
      ['Basic', 999, false],
      ['Premium', 1999, true],
      ['VIP', 3999, false],
    ]);
    const state = given([registered, { type: 'TierCreated', data: tier }]);
    expect(offeredTiers(state).map((t) => t.tierId)).toEqual(['t1']);
  });

  it('creates and edits tiers only as a creator, and only known tiers are edited', () => {
    const create: CreatorCommand = { type: 'CreateTier', ...tier, at };
    expect(refusal(() => creatorDecider.decide(create, given([])))).toBe('forbidden');
    expect(creatorDecider.decide(create, given([registered]))[0].type).toBe('TierCreated');
    const update: CreatorCommand = { type: 'UpdateTier', ...tier, priceCents: 2000, at };
    expect(refusal(() => creatorDecider.decide(update, given([registered])))).toBe('not_found');
    expect(creatorDecider.decide(update, given([registered, { type: 'TierCreated', data: tier }]))[0]).toMatchObject({ type: 'TierUpdated', data: { priceCents: 2000 } });
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
    const [started] = creatorSubscriptionDecider.decide(start, creatorSubscriptionDecider.initialState);
    expect(started.data).toMatchObject({ priceCents: 999, startDate: at.toISOString(), endDate: '2026-02-28T10:00:00.000Z' });
    const state = creatorSubscriptionDecider.evolve(creatorSubscriptionDecider.initialState, started);
    expect(refusal(() => creatorSubscriptionDecider.decide(start, state))).toBe('conflict');
    expect(creatorSubscriptionDecider.decide({ ...start, at: new Date('2026-03-01T00:00:00Z') }, state)).toHaveLength(1);
  });

  it('refuses subscribing to oneself', () => {
    expect(refusal(() => creatorSubscriptionDecider.decide({ ...start, creatorId: 'm1' }, creatorSubscriptionDecider.initialState))).toBe('unprocessable');
  });

  it('adds one calendar month', () => {
    expect(oneMonthAfter(new Date('2026-03-15T00:00:00Z')).toISOString()).toBe('2026-04-15T00:00:00.000Z');
    expect(oneMonthAfter(new Date('2026-12-31T00:00:00Z')).toISOString()).toBe('2027-01-31T00:00:00.000Z');
  });
});
