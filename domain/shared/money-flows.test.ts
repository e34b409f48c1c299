import { CREATOR_SALE_EVENT_TYPES, creatorSaleOf } from '../creators/sales';
import { EFFECT_EVENT_TYPES } from '../ledger/effects';
import { FLOW_POSTINGS, LEDGER_EVENT_TYPES, ledgerEffect, memoryLedger } from '../ledger/postings';
import type { RecordedEvent } from '../event-store/port';
import { balanceMovement, flowOfCardPayment, flowOfMovement, flowReference, MONEY_FLOW_NAMES } from './money-flows';

const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  eventId: 'e1',
  streamId: 's',
  revision: 0n,
  position: { commit: 1n, prepare: 1n },
  type,
  data,
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
});
const kindOf = async (type: 'WalletDebited' | 'WalletCredited', reason: string, reference: string) =>
  (
    await ledgerEffect(
      recorded(type, { userId: 'u', amountCents: 100, reason, reference, balanceCents: 0 }),
      memoryLedger(),
    )
  ).transactions[0].kind;

describe('money flows', () => {
  it('store the strings the product has always written', () => {
    expect(balanceMovement('site_plan', 'p1', 1194)).toEqual({
      amountCents: 1194,
      reason: 'site plan: 6 months + 1 free',
      reference: 'membership:p1',
    });
    expect(balanceMovement('message_unlock', 'm1', 500)).toEqual({
      amountCents: 500,
      reason: 'message_unlock',
      reference: 'messageUnlock:m1',
    });
    expect(balanceMovement('crypto_conversion', 't1', 1940)).toEqual({
      amountCents: 1940,
      reason: 'crypto conversion',
      reference: 'conversion:t1',
    });
    expect(flowReference('tier_subscription', 's1')).toBe('creatorSubscription:s1');
  });

  it('are read back from stored movements and payments', () => {
    expect(flowOfMovement({ reason: 'anything', reference: 'messageUnlock:m1' })).toEqual({
      flow: 'message_unlock',
      id: 'm1',
    });
    expect(flowOfMovement({ reason: 'site plan: 6 months + 1 free', reference: 'membership:p1' })).toEqual({
      flow: 'site_plan',
      id: 'p1',
    });
    // Without a flow's reference, by reason as the ledger always did, and then with no id.
    expect(flowOfMovement({ reason: 'message_unlock', reference: 'u1' })).toEqual({ flow: 'message_unlock', id: null });
    expect(flowOfMovement({ reason: 'plan', reference: 'plan-1' })).toEqual({ flow: 'site_plan', id: null });
    expect(flowOfMovement({ reason: 'crypto conversion', reference: 'c0' })).toBeNull();
    expect(flowOfMovement({ reason: 'test spend', reference: 'test-spend:x' })).toBeNull();
    expect(
      ['membership_signup', 'membership_renewal', 'membership_subscribe', 'age_verification', 'creator_tip'].map(
        flowOfCardPayment,
      ),
    ).toEqual(['site_plan', 'site_plan', 'site_plan', null, null]);
  });

  it('post balance movements as the ledger always did', async () => {
    const cases: Array<['WalletDebited' | 'WalletCredited', string, string, string]> = [
      ['WalletDebited', 'site plan: 6 months + 1 free', 'membership:p1', 'site_plan_charge'],
      ['WalletDebited', 'message_unlock', 'messageUnlock:m1', 'message_unlock'],
      ['WalletDebited', 'message_unlock', 'u1', 'message_unlock'],
      ['WalletDebited', 'plan', 'plan-1', 'site_plan_charge'],
      ['WalletDebited', 'site plan', 'p1', 'site_plan_charge'],
      ['WalletDebited', 'unlock', 'spend-1', 'balance_spend'],
      ['WalletDebited', 'test spend', 'test-spend:x', 'balance_spend'],
      ['WalletCredited', 'crypto conversion', 'conversion:t1', 'conversion_credit'],
      ['WalletCredited', 'crypto conversion', 'c0', 'balance_credit'],
      ['WalletCredited', 'test credit', 'test:x', 'balance_credit'],
      ['WalletCredited', 'plan', 'membership:p1', 'balance_credit'],
    ];
    for (const [type, reason, reference, kind] of cases)
      expect([type, reason, reference, await kindOf(type, reason, reference)]).toEqual([type, reason, reference, kind]);
  });

  it('every flow has its postings, and every creator sale is followed by the effects check', () => {
    expect(Object.keys(FLOW_POSTINGS).sort()).toEqual([...MONEY_FLOW_NAMES].sort());
    expect([...CREATOR_SALE_EVENT_TYPES].sort()).toEqual([
      'CreatorSubscriptionRenewed',
      'CreatorSubscriptionStarted',
      'MessageUnlocked',
      'TipGiven',
    ]);
    for (const type of CREATOR_SALE_EVENT_TYPES) expect(EFFECT_EVENT_TYPES).toContain(type);
    expect(LEDGER_EVENT_TYPES).toContain('CreatorSubscriptionStarted');
    expect(
      creatorSaleOf(
        recorded('MessageUnlocked', {
          messageId: 'm1',
          senderId: 'c',
          receiverId: 'u',
          priceCents: 500,
          paymentReference: 'messageUnlock:m1',
          unlockedAt: 'T',
        }),
      ),
    ).toEqual({
      flow: 'message_unlock',
      source: 'message_unlock',
      reference: 'messageUnlock:m1',
      creatorId: 'c',
      payerId: 'u',
      grossCents: 500,
      occurredAt: 'T',
    });
    expect(creatorSaleOf(recorded('WalletDebited', {}))).toBeNull();
  });
});
