import type { RecordedEvent } from '../event-store/port';
import { creatorAccountDecider } from '../payouts/decider';
import type { CardChargeFacts } from '../payments/events';
import { LEDGER_ACCOUNTS as A } from './accounts';
import { isBalanced, ledgerEffect, memoryLedger, type LedgerTransaction } from './postings';

/** Refunds and chargebacks in the ledger: a tier charge of $10.00 partly refunded, then charged back. */

let position = 0;
const recorded = (type: string, data: unknown, streamId = 's'): RecordedEvent =>
  ({
    type,
    data,
    streamId,
    eventId: `e${++position}`,
    metadata: {},
    createdAt: '2026-03-01T00:00:00.000Z',
  }) as unknown as RecordedEvent;

async function replay(events: RecordedEvent[]) {
  const memory = memoryLedger();
  let transactions: LedgerTransaction[] = [];
  for (const event of events) {
    const effect = await ledgerEffect(event, memory);
    memory.apply(effect);
    transactions = transactions.filter((t) => !effect.cancel.includes(t.id)).concat(effect.transactions);
  }
  return transactions;
}

function balance(transactions: LedgerTransaction[], account: string, owner: string | null = null, at = '9999') {
  let sum = 0;
  for (const t of transactions)
    if (t.effectiveAt <= at)
      for (const p of t.postings)
        if (p.account === account && (owner === null || p.owner === owner)) sum += p.creditCents - p.debitCents;
  return sum;
}

const charge: CardChargeFacts = {
  chargeId: 'sub1',
  userId: 'm1',
  flow: 'tier_subscription',
  gatewayTransactionId: 'ch_1',
  amountCents: 1000,
  creatorId: 'c1',
  saleReference: 'creatorSubscription:sub1',
  subscriptionStreamId: 'creatorSubscription-m1_c1',
  chargedAt: '2026-03-01T00:00:00.000Z',
};

/** The creator account's events for a sale and a reversal, as the decider writes them. */
function creatorEvents(reverseGross: number, reversalId: string, now: string) {
  const credit = creatorAccountDecider.decide(
    {
      type: 'CreditEarnings',
      creatorId: 'c1',
      source: 'subscription',
      reference: 'creatorSubscription:sub1',
      payerId: 'm1',
      grossCents: 1000,
      occurredAt: new Date('2026-03-01T00:00:00.000Z'),
    },
    creatorAccountDecider.initialState,
  );
  const state = credit.reduce(creatorAccountDecider.evolve, creatorAccountDecider.initialState);
  const reversal = creatorAccountDecider.decide(
    {
      type: 'ReverseCreatorShare',
      creatorId: 'c1',
      reference: 'creatorSubscription:sub1',
      reversalId,
      cause: 'refund',
      grossCents: reverseGross,
      reason: 'refund',
      now: new Date(now),
    },
    state,
  );
  return { credit, reversal };
}

describe('ledger: refunds and chargebacks', () => {
  it('a partial refund of a tier charge during the hold: card back, share and fee reversed, a smaller release', async () => {
    const { credit, reversal } = creatorEvents(400, 'refund:re_1', '2026-03-02T00:00:00.000Z');
    const events = [
      recorded('CreatorSubscriptionStarted', {
        subscriptionId: 'sub1',
        subscriberId: 'm1',
        creatorId: 'c1',
        tierName: 'Basic',
        priceCents: 1000,
        startDate: '2026-03-01T00:00:00.000Z',
      }),
      ...credit.map((e) => recorded(e.type, e.data, 'creatorAccount-c1')),
      recorded('ChargeRefunded', {
        charge,
        sequence: 1,
        gatewayRefundId: 're_1',
        amountCents: 400,
        refundedTotalCents: 400,
        full: false,
        reason: 'partial',
        at: '2026-03-02T00:00:00.000Z',
      }),
      ...reversal.map((e) => recorded(e.type, e.data, 'creatorAccount-c1')),
    ];
    const t = await replay(events);
    for (const transaction of t) expect(isBalanced(transaction)).toBe(true);
    expect(balance(t, A.gatewayClearing)).toBe(-600); // an asset: $6.00 stays
    expect(balance(t, A.creatorSalesClearing)).toBe(0);
    expect(balance(t, A.platformFees)).toBe(60);
    expect(balance(t, A.creatorPending, 'c1', '2026-03-03')).toBe(540);
    expect(balance(t, A.creatorAvailable, 'c1', '2026-03-09')).toBe(540); // the release is $5.40, not $9.00
    expect(balance(t, A.creatorPending, 'c1')).toBe(0);
    expect(t.filter((x) => x.kind === 'earnings_release')).toHaveLength(1);

    // The money-back guarantee's event for the same gateway refund posts nothing more.
    const again = await replay([
      ...events,
      recorded('CreatorSubscriptionRefunded', {
        subscriptionId: 'sub1',
        subscriberId: 'm1',
        creatorId: 'c1',
        transactionId: 'ch_1',
        gatewayRefundId: 're_1',
        amountCents: 1000,
        reason: 'x',
        at: '2026-03-02T00:00:00.000Z',
        saleReference: 'creatorSubscription:sub1',
      }),
    ]);
    expect(again).toHaveLength(t.length);
  });

  it('a chargeback of a site-plan charge: contra revenue and the fee as an expense', async () => {
    const t = await replay([
      recorded('ChargeDisputed', {
        charge: { ...charge, flow: 'site_plan', creatorId: null, saleReference: null, amountCents: 199 },
        disputeId: 'dp_1',
        amountCents: 199,
        feeCents: 1500,
        reason: 'fraudulent',
        at: '2026-03-02T00:00:00.000Z',
      }),
    ]);
    expect(t).toEqual([expect.objectContaining({ kind: 'chargeback' })]);
    expect(isBalanced(t[0])).toBe(true);
    expect(balance(t, A.refunds)).toBe(-199);
    expect(balance(t, A.chargebackFees)).toBe(-1500);
    expect(balance(t, A.gatewayClearing)).toBe(1699);
  });
});
