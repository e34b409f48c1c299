import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { paymentsProjector } from './payments';
import { replayTwice } from './engine/testing/replay-twice';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

let seq = 0n;
function recorded(type: string, data: Record<string, unknown>): RecordedEvent {
  seq++;
  const at = `2026-01-0${seq}T00:00:00.000Z`;
  return {
    eventId: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`,
    streamId: 'payment-x',
    revision: seq,
    position: { commit: seq, prepare: seq },
    type,
    data,
    metadata: { occurredAt: at },
    createdAt: at,
  };
}

const attempt = (paymentId: string, transactionId: string) => ({
  paymentId,
  userId: '11111111-1111-4111-8111-111111111111',
  requestType: 'membership_signup',
  gatewayTransactionId: transactionId,
  gatewayCustomerId: 'cus_1',
  amountCents: 199,
  currency: 'USD',
  cardLast4: '4242',
  cardHolderName: 'Ann Lee',
  email: 'ann@example.com',
  gatewayResponse: { sandbox: true },
  correlationId: 'req-1',
  at: '2026-01-01T00:00:00.000Z',
});
const p1 = '22222222-2222-4222-8222-222222222222';
const p2 = '33333333-3333-4333-8333-333333333333';
const events = [
  recorded('PaymentCaptured', attempt(p1, 'ch_1')),
  recorded('PaymentFailed', { ...attempt(p2, 'ch_2'), failureReason: 'Insufficient funds' }),
  recorded('PaymentRefunded', {
    paymentId: p1,
    userId: attempt(p1, '').userId,
    gatewayRefundId: 're_1',
    amountCents: 199,
    reason: 'duplicate',
    at: '2026-01-03T00:00:00.000Z',
  }),
];

describe('payments projector', () => {
  it('builds the same rows when every event is applied twice', async () => {
    const { once, twice } = await replayTwice(db, paymentsProjector, events);
    expect(twice).toEqual(once);
    expect(once.payments).toHaveLength(2);
  });

  it('keeps amounts in cents, the last 4 only, statuses and failure reasons', async () => {
    await replayTwice(db, paymentsProjector, events);
    const rows = await db.withSchema('replay_once_payments').table('payments').orderBy('created_at');
    expect(rows.find((r) => r.id === p1)).toMatchObject({
      status: 'refunded',
      amount_cents: 199,
      card_last4: '4242',
      refund_transaction_id: 're_1',
      failure_reason: null,
    });
    expect(rows.find((r) => r.id === p2)).toMatchObject({
      status: 'failed',
      failure_reason: 'Insufficient funds',
      gateway_response: { sandbox: true },
    });
  });
});
