import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { projectionContext } from './engine/projector';
import { replayTwice } from './engine/testing/replay-twice';
import { findPromotion, promotionsOfCreator, promotionsProjector, unsettledPromotionClaims } from './promotions';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

const creator = '22222222-2222-4222-8222-222222222222';
const trialId = '33333333-3333-4333-8333-333333333333';
const discountId = '44444444-4444-4444-8444-444444444444';
let seq = 0n;
const revisions = new Map<string, bigint>();

function recorded(promotionId: string, type: string, data: Record<string, unknown>): RecordedEvent {
  seq++;
  const revision = revisions.get(promotionId) ?? 0n;
  revisions.set(promotionId, revision + 1n);
  return {
    eventId: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`,
    streamId: `promotion-${promotionId}`,
    revision,
    position: { commit: seq, prepare: seq },
    type,
    data,
    metadata: { occurredAt: '2026-11-01T10:00:00.000Z' },
    createdAt: '2026-11-01T10:00:00.000Z',
  };
}

const created = (promotionId: string, kind: 'trial' | 'discount', at: string) =>
  recorded(promotionId, 'PromotionCreated', {
    promotionId,
    creatorId: creator,
    tierId: 't1',
    tierName: 'Gold',
    kind,
    trialDays: kind === 'trial' ? 7 : null,
    percentOff: kind === 'discount' ? 50 : null,
    maxRedemptions: 2,
    endsAt: '2026-11-10T00:00:00.000Z',
    at,
  });
const redemption = (promotionId: string, type: string, subscriberId: string) =>
  recorded(promotionId, type, {
    promotionId,
    creatorId: creator,
    tierId: 't1',
    subscriberId,
    subscriptionId: `${promotionId}:${subscriberId}`,
    kind: 'trial',
    chargeCents: 0,
    at: '2026-11-02T00:00:00.000Z',
  });

const events = [
  created(trialId, 'trial', '2026-11-01T10:00:00.000Z'),
  created(discountId, 'discount', '2026-11-01T11:00:00.000Z'),
  redemption(trialId, 'PromotionRedeemed', 'm1'),
  redemption(trialId, 'PromotionRedeemed', 'm2'),
  redemption(trialId, 'PromotionRedemptionReleased', 'm1'),
  redemption(discountId, 'PromotionRedeemed', 'm1'),
  redemption(discountId, 'PromotionRedeemed', 'm2'),
  recorded(discountId, 'PromotionEnded', {
    promotionId: discountId,
    creatorId: creator,
    at: '2026-11-03T00:00:00.000Z',
  }),
  // m2's trial and m1's discount started their subscriptions; m2's discount did not (yet).
  {
    ...recorded('x', 'CreatorSubscriptionStarted', { subscriptionId: `${trialId}:m2`, promotionId: trialId }),
    streamId: 'sub-m2',
  },
  {
    ...recorded('y', 'CreatorSubscriptionStarted', { subscriptionId: `${discountId}:m1`, promotionId: discountId }),
    streamId: 'sub-m1',
  },
];

describe('promotions read model', () => {
  it('rebuilds the same rows when every event is applied twice', async () => {
    const { once, twice } = await replayTwice(db, promotionsProjector, events);
    expect(twice).toEqual(once);
    expect(once.promotions).toHaveLength(2);
  });

  it('counts redemptions that hold and tells the status at a time', async () => {
    await promotionsProjector.createTables(db, 'public');
    await db.transaction(async (trx) => {
      const context = projectionContext(trx, 'public');
      for (const event of events) await promotionsProjector.apply(context, event);
    });
    const now = new Date('2026-11-05T00:00:00.000Z');
    const list = await promotionsOfCreator(db, creator, now);
    expect(list.map((p) => [p.id, p.kind, p.redemptions, p.remaining, p.status])).toEqual([
      [discountId, 'discount', 2, 0, 'ended'],
      [trialId, 'trial', 1, 1, 'active'],
    ]);
    const later = await findPromotion(db, trialId, new Date('2026-11-10T00:00:00.000Z'));
    expect(later).toMatchObject({
      status: 'expired',
      trialDays: 7,
      percentOff: null,
      endsAt: '2026-11-10T00:00:00.000Z',
    });
    expect(await findPromotion(db, '55555555-5555-4555-8555-555555555555', now)).toBeNull();
    // Unsettled: reserved, neither started nor given back (m1's trial was given back).
    expect(await unsettledPromotionClaims(db, now)).toEqual([
      { promotionId: discountId, creatorId: creator, subscriberId: 'm2', subscriptionId: `${discountId}:m2` },
    ]);
    expect(await unsettledPromotionClaims(db, new Date('2026-11-02T00:00:00.000Z'))).toEqual([]);
  });
});
