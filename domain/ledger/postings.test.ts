import fc from 'fast-check';
import { LEDGER_ACCOUNTS as A } from './accounts';
import { isBalanced, ledgerEffect, memoryLedger, type LedgerTransaction } from './postings';
import { sampleMoneyHistory } from './testing/sample-history';

async function replay(events = sampleMoneyHistory()) {
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
  for (const t of transactions) {
    if (t.effectiveAt > at) continue;
    for (const p of t.postings)
      if (p.account === account && (owner === null || p.owner === owner)) sum += p.creditCents - p.debitCents;
  }
  return sum;
}

describe('ledger postings', () => {
  it('every transaction balances', async () => {
    const transactions = await replay();
    expect(transactions.length).toBeGreaterThan(10);
    for (const t of transactions) expect(isBalanced(t)).toBe(true);
  });

  it('the accounts say what happened', async () => {
    const t = await replay();
    expect(balance(t, A.memberBalance, 'm1')).toBe(1440);
    expect(balance(t, A.conversionFees)).toBe(60);
    expect(balance(t, A.cryptoCustody)).toBe(-2000); // an asset: debit balance
    expect(balance(t, A.conversionClearing)).toBe(0);
    expect(balance(t, A.sitePlanRevenue)).toBe(199);
    expect(balance(t, A.refunds)).toBe(-199); // contra revenue: a debit balance
    expect(balance(t, A.platformFees)).toBe(100); // the reversed unlock's fee went back
    expect(balance(t, A.creatorPending, 'c1', '2026-01-05')).toBe(899); // the reversed one left during the hold
    expect(balance(t, A.creatorAvailable, 'c1', '2026-01-08T00:00:00.000Z')).toBe(899);
    expect(balance(t, A.creatorPending, 'c1')).toBe(0);
    expect(balance(t, A.creatorAvailable, 'c1')).toBe(0); // paid out
    expect(balance(t, A.payoutsInTransit, 'c1')).toBe(0);
    expect(balance(t, A.payoutFees)).toBe(9);
    // The reversed unlock is owed back to the member: the sales clearing holds it.
    expect(balance(t, A.creatorSalesClearing)).toBe(500);
    expect(t.some((x) => x.kind === 'earnings_release' && x.reference === 'messageUnlock:msg1')).toBe(false);
  });

  it('any earnings split and payout fee still balance', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100_000_00 }),
        fc.integer({ min: 0, max: 100 }),
        async (gross, fee) => {
          const share = gross - Math.floor(gross / 10);
          const events = sampleMoneyHistory().slice(0, 0);
          const base = {
            eventId: '00000000-0000-4000-8000-000000000001',
            streamId: 'creatorAccount-c',
            revision: 0n,
            position: { commit: 1n, prepare: 1n },
            metadata: {},
            createdAt: '2026-01-01T00:00:00.000Z',
          };
          events.push({
            ...base,
            type: 'EarningsCredited',
            data: {
              creatorId: 'c',
              source: 'subscription',
              reference: 'r',
              payerId: null,
              grossCents: gross,
              creatorShareCents: share,
              platformFeeCents: gross - share,
              occurredAt: '2026-01-01T00:00:00.000Z',
              availableAt: '2026-01-08T00:00:00.000Z',
            },
          });
          events.push({
            ...base,
            eventId: '00000000-0000-4000-8000-000000000002',
            type: 'PayoutRequested',
            data: {
              creatorId: 'c',
              payoutId: 'p',
              paymentAccountId: 'a',
              amountCents: share,
              processingFeeCents: Math.min(fee, share),
              netAmountCents: share - Math.min(fee, share),
              currency: 'USD',
              requestedAt: '2026-01-09T00:00:00.000Z',
            },
          });
          events.push({
            ...base,
            eventId: '00000000-0000-4000-8000-000000000003',
            type: 'PayoutCompleted',
            data: {
              creatorId: 'c',
              payoutId: 'p',
              gatewayTransactionId: 't',
              staffId: null,
              processedAt: '2026-01-10T00:00:00.000Z',
            },
          });
          const transactions = await replay(events);
          return transactions.every(isBalanced) && balance(transactions, A.creatorAvailable, 'c') === 0;
        },
      ),
      { numRuns: 50 },
    );
  });
});
