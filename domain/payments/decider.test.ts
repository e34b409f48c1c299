import { deciderSpec } from '../shared/testing/decider-spec';
import { paymentDecider as decider, type RecordCharge } from './decider';

const spec = deciderSpec(decider);
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
    const [event] = spec
      .given([])
      .when(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: { ok: true } })).events;
    expect(event).toEqual({
      type: 'PaymentCaptured',
      data: expect.objectContaining({
        paymentId: 'p1',
        gatewayTransactionId: 'ch_1',
        cardLast4: '4242',
        amountCents: 199,
        at: now.toISOString(),
        gatewayResponse: { ok: true },
      }),
    });
  });

  it('records a declined charge with its reason', () => {
    const [event] = spec.given([]).when(
      record({
        status: 'declined',
        transactionId: 'ch_2',
        cardLast4: '4242',
        failureReason: 'Insufficient funds',
        raw: {},
      }),
    ).events;
    expect(event).toMatchObject({ type: 'PaymentFailed', data: { failureReason: 'Insufficient funds' } });
  });

  it('writes nothing when the same answer is recorded again, refuses another one', () => {
    const state = spec.fold(
      spec.given([]).when(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: {} })).events,
    );
    spec
      .on(state)
      .when(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: {} }))
      .thenNothing();
    spec
      .on(state)
      .when(record({ status: 'succeeded', transactionId: 'ch_9', cardLast4: '4242', raw: {} }))
      .thenThrows('This payment was already recorded');
  });

  it('refunds a captured payment once; a failed one cannot be refunded', () => {
    const captured = spec.fold(
      spec.given([]).when(record({ status: 'succeeded', transactionId: 'ch_1', cardLast4: '4242', raw: {} })).events,
    );
    const refund = { type: 'RecordRefund' as const, gatewayRefundId: 're_1', reason: 'duplicate', now };
    const events = spec.on(captured).when(refund).events;
    expect(events).toEqual([
      {
        type: 'PaymentRefunded',
        data: {
          paymentId: 'p1',
          userId: 'u1',
          gatewayRefundId: 're_1',
          amountCents: 199,
          reason: 'duplicate',
          at: now.toISOString(),
        },
      },
    ]);
    spec.on(events.reduce(decider.evolve, captured)).when(refund).thenNothing();
    const failed = spec.fold(
      spec
        .given([])
        .when(record({ status: 'declined', transactionId: 'ch_2', cardLast4: '4242', failureReason: 'x', raw: {} }))
        .events,
    );
    spec.on(failed).when(refund).thenThrows('Only a captured payment can be refunded');
  });
});
