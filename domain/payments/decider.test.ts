import { paymentDecider as decider, type RecordCharge } from './decider';
import type { PaymentEvent } from './events';

const given = (events: PaymentEvent[]) => events.reduce(decider.evolve, decider.initialState);
const now = new Date('2026-01-01T00:00:00.000Z');
const record = (result: RecordCharge['result']): RecordCharge => ({
  type: 'RecordCharge',
  paymentId: 'p1',
  userId: 'u1',
  requestType: 'membership_signup',
  gatewayCustomerId: 'cus_1',
  amountCents: 199,
  currency: 'USD',
  cardHolderName: 'A B',
  email: 'a@b.c',
  correlationId: 'r1',
  result,
  now,
});

describe('payment decider', () => {
  it('records a captured charge with the last 4 only', () => {
    const [event] = decider.decide(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: { ok: true } }), given([]));
    expect(event).toEqual({
      type: 'PaymentCaptured',
      data: expect.objectContaining({ paymentId: 'p1', gatewayTransactionId: 'ch_1', cardLast4: '4242', amountCents: 199, at: now.toISOString(), gatewayResponse: { ok: true } }),
    });
  });

  it('records a declined charge with its reason', () => {
    const [event] = decider.decide(record({ status: 'declined', transactionId: 'ch_2', cardLast4: '4242', failureReason: 'Insufficient funds', raw: {} }), given([]));
    expect(event).toMatchObject({ type: 'PaymentFailed', data: { failureReason: 'Insufficient funds' } });
  });

  it('writes nothing when the same answer is recorded again, refuses another one', () => {
    const state = given(decider.decide(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: {} }), given([])));
    expect(decider.decide(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: {} }), state)).toEqual([]);
    expect(() => decider.decide(record({ status: 'succeeded', transactionId: 'ch_9', cardLast4: '4242', raw: {} }), state)).toThrow('This payment was already recorded');
  });

  it('refunds a captured payment once; a failed one cannot be refunded', () => {
    const captured = given(decider.decide(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: {} }), given([])));
    const refund = { type: 'RecordRefund' as const, gatewayRefundId: 're_1', reason: 'duplicate', now };
    const events = decider.decide(refund, captured);
    expect(events).toEqual([{ type: 'PaymentRefunded', data: { paymentId: 'p1', userId: 'u1', gatewayRefundId: 're_1', amountCents: 199, reason: 'duplicate', at: now.toISOString() } }]);
    expect(decider.decide(refund, events.reduce(decider.evolve, captured))).toEqual([]);
    const failed = given(decider.decide(record({ status: 'declined', transactionId: 'ch_2', cardLast4: '4242', failureReason: 'x', raw: {} }), given([])));
    expect(() => decider.decide(refund, failed)).toThrow('Only a captured payment can be refunded');
  });
});
