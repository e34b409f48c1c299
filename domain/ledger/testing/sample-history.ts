import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../../event-store/port';

/** A money history touching every mapped event type: for ledger tests and the reconcile test. */
export function sampleMoneyHistory(): RecordedEvent[] {
  const events: Array<[string, string, unknown]> = [
    [
      'payment-p1',
      'PaymentCaptured',
      {
        paymentId: 'p1',
        userId: 'm1',
        requestType: 'membership_signup',
        gatewayTransactionId: 'ch_1',
        gatewayCustomerId: 'cus',
        amountCents: 199,
        currency: 'USD',
        cardLast4: '4242',
        cardHolderName: null,
        email: null,
        gatewayResponse: {},
        correlationId: null,
        at: '2026-01-01T00:00:00.000Z',
      },
    ],
    [
      'payment-p1',
      'PaymentRefunded',
      {
        paymentId: 'p1',
        userId: 'm1',
        gatewayRefundId: 're_1',
        amountCents: 199,
        reason: 'money-back',
        at: '2026-01-02T00:00:00.000Z',
      },
    ],
    [
      'cryptoTransaction-t1',
      'CryptoConversionRequested',
      {
        transactionId: 't1',
        conversionId: 'cv1',
        userId: 'm1',
        walletId: null,
        walletAddress: '0xabc',
        cryptoType: 'USDC',
        cryptoAmount: '20.00000000',
        exchangeRate: '1.0000',
        grossCents: 2000,
        feeCents: 60,
        feeBasisPoints: 300,
        netCents: 1940,
        requestedAt: '2026-01-01T00:00:00.000Z',
      },
    ],
    [
      'cryptoTransaction-t1',
      'CryptoConversionCompleted',
      {
        transactionId: 't1',
        conversionId: 'cv1',
        userId: 'm1',
        walletId: null,
        cryptoAmount: '20.00000000',
        netCents: 1940,
        transactionHash: '0x1',
        completedAt: '2026-01-01T00:01:00.000Z',
      },
    ],
    [
      'wallet-m1',
      'WalletCredited',
      { userId: 'm1', amountCents: 1940, reason: 'crypto conversion', reference: 'conversion:t1', balanceCents: 1940 },
    ],
    [
      'wallet-m1',
      'WalletDebited',
      { userId: 'm1', amountCents: 500, reason: 'message_unlock', reference: 'messageUnlock:msg1', balanceCents: 1440 },
    ],
    [
      'creatorSubscription-m1_c1',
      'CreatorSubscriptionStarted',
      {
        subscriptionId: 's1',
        subscriberId: 'm1',
        creatorId: 'c1',
        tierId: 'basic',
        tierName: 'Basic',
        priceCents: 999,
        transactionId: 'ch_2',
        startDate: '2026-01-01T00:00:00.000Z',
        endDate: '2026-02-01T00:00:00.000Z',
      },
    ],
    [
      'creatorAccount-c1',
      'EarningsCredited',
      {
        creatorId: 'c1',
        source: 'subscription',
        reference: 'creatorSubscription:s1',
        payerId: 'm1',
        grossCents: 999,
        creatorShareCents: 899,
        platformFeeCents: 100,
        occurredAt: '2026-01-01T00:00:00.000Z',
        availableAt: '2026-01-08T00:00:00.000Z',
      },
    ],
    [
      'creatorAccount-c1',
      'EarningsCredited',
      {
        creatorId: 'c1',
        source: 'message_unlock',
        reference: 'messageUnlock:msg1',
        payerId: 'm1',
        grossCents: 500,
        creatorShareCents: 450,
        platformFeeCents: 50,
        occurredAt: '2026-01-01T00:00:00.000Z',
        availableAt: '2026-01-08T00:00:00.000Z',
      },
    ],
    [
      'creatorAccount-c1',
      'EarningsReversed',
      {
        creatorId: 'c1',
        reference: 'messageUnlock:msg1',
        creatorShareCents: 450,
        platformFeeCents: 50,
        reason: 'chargeback',
        occurredAt: '2026-01-03T00:00:00.000Z',
      },
    ],
    [
      'creatorAccount-c1',
      'PayoutRequested',
      {
        creatorId: 'c1',
        payoutId: 'po1',
        paymentAccountId: 'pa1',
        amountCents: 899,
        processingFeeCents: 9,
        netAmountCents: 890,
        currency: 'USD',
        requestedAt: '2026-01-09T00:00:00.000Z',
      },
    ],
    [
      'creatorAccount-c1',
      'PayoutCancelled',
      {
        creatorId: 'c1',
        payoutId: 'po1',
        reason: 'wrong account',
        staffId: 'a1',
        cancelledAt: '2026-01-09T01:00:00.000Z',
      },
    ],
    [
      'creatorAccount-c1',
      'PayoutRequested',
      {
        creatorId: 'c1',
        payoutId: 'po2',
        paymentAccountId: 'pa1',
        amountCents: 899,
        processingFeeCents: 9,
        netAmountCents: 890,
        currency: 'USD',
        requestedAt: '2026-01-10T00:00:00.000Z',
      },
    ],
    [
      'creatorAccount-c1',
      'PayoutCompleted',
      {
        creatorId: 'c1',
        payoutId: 'po2',
        gatewayTransactionId: 'tr_1',
        staffId: 'a1',
        processedAt: '2026-01-11T00:00:00.000Z',
      },
    ],
  ];
  const revisions = new Map<string, bigint>();
  return events.map(([streamId, type, data], index) => {
    const revision = revisions.get(streamId) ?? 0n;
    revisions.set(streamId, revision + 1n);
    return {
      eventId: randomUUID(),
      streamId,
      revision,
      position: { commit: 1n, prepare: BigInt(index) },
      type,
      data,
      metadata: {},
      createdAt: '2026-01-01T00:00:00.000Z',
    };
  });
}
