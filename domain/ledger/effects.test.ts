import type { RecordedEvent } from '../event-store/port';
import { obligationTracker } from './effects';

let position = 0n;
const event = (
  type: string,
  data: Record<string, unknown>,
  occurredAt = '2026-01-01T00:00:00.000Z',
): RecordedEvent => ({
  eventId: `e${++position}`,
  streamId: `s-${type}`,
  revision: 0n,
  position: { commit: position, prepare: position },
  type,
  data,
  metadata: { occurredAt },
  createdAt: occurredAt,
});
const later = new Date('2026-01-02T00:00:00.000Z');
const open = (events: RecordedEvent[], now = later) => {
  const tracker = obligationTracker();
  events.forEach(tracker.observe);
  return tracker.outstanding(now, 60_000);
};
const keys = (events: RecordedEvent[]) => open(events).stranded.map((o) => o.key);

const debit = (reference: string, amountCents = 1194) =>
  event('WalletDebited', { userId: 'u', amountCents, reason: 'x', reference, balanceCents: 0 });
const captured = (paymentId: string, requestType = 'membership_signup') =>
  event('PaymentCaptured', { paymentId, userId: 'u', requestType, amountCents: 199, at: '2026-01-01T00:00:00.000Z' });

describe('money and its effect', () => {
  it('a membership payment, by card or from the balance, is closed by its membership time or (card) a refund', () => {
    expect(
      keys([debit('membership:p1'), captured('p2'), captured('p3', 'membership_renewal'), captured('p4')]),
    ).toEqual(['membership:p1', 'membership:p2', 'membership:p3', 'membership:p4']);
    expect(
      keys([
        debit('membership:p1'),
        event('MembershipActivated', { paymentId: 'p1' }),
        captured('p2'),
        event('PaymentRefunded', { paymentId: 'p2' }),
        captured('p3', 'membership_renewal'),
        event('MembershipRenewed', { paymentId: 'p3' }),
        captured('p5', 'age_verification'),
        captured('p6', 'creator_tip'),
      ]),
    ).toEqual([]);
  });

  it('an unlock spend needs its unlock, the unlock (a sale) its earnings; a conversion its credit; a tier its earnings', () => {
    const unlocked = event('MessageUnlocked', { messageId: 'm1', senderId: 'c', receiverId: 'u', priceCents: 500 });
    const completed = event('CryptoConversionCompleted', { transactionId: 't1', userId: 'u', netCents: 1940 });
    const tier = event('CreatorSubscriptionStarted', {
      subscriptionId: 's1',
      creatorId: 'c',
      subscriberId: 'u',
      priceCents: 999,
    });
    expect(keys([debit('messageUnlock:m1', 500), completed, tier])).toEqual([
      'messageUnlock:m1',
      'conversion:t1',
      'earnings:creatorSubscription:s1',
    ]);
    expect(keys([debit('messageUnlock:m1', 500), unlocked])).toEqual(['earnings:messageUnlock:m1']);
    const credits = [
      event('EarningsCredited', { reference: 'messageUnlock:m1' }),
      event('WalletCredited', { reference: 'conversion:t1' }),
      event('EarningsCredited', { reference: 'creatorSubscription:s1' }),
    ];
    expect(keys([debit('messageUnlock:m1', 500), unlocked, completed, tier, ...credits])).toEqual([]);
    expect(keys([debit('test-spend:x', 700)])).toEqual([]);
  });

  it('money younger than the grace period is in flight, not stranded', () => {
    const fresh = debit('membership:p9');
    expect(open([fresh], new Date('2026-01-01T00:00:30.000Z'))).toMatchObject({
      stranded: [],
      inFlight: [{ key: 'membership:p9', amountCents: 1194, owed: 'membership time' }],
    });
  });
});
