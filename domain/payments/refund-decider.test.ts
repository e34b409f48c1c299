import { deciderSpec } from '../shared/testing/decider-spec';
import type { CardChargeFacts } from './events';
import { chargeRefundDecider as decider, type ChargeRefundCommand } from './refund-decider';

const spec = deciderSpec(decider);
const now = new Date('2026-03-01T10:00:00.000Z');
const charge: CardChargeFacts = {
  chargeId: 'p1',
  userId: 'u1',
  flow: 'site_plan',
  gatewayTransactionId: 'ch_1',
  amountCents: 199,
  creatorId: null,
  saleReference: null,
  subscriptionStreamId: null,
  chargedAt: '2026-02-20T10:00:00.000Z',
};
const request = (amountCents: number | null, reason = 'goodwill'): ChargeRefundCommand => ({
  type: 'RequestRefund',
  charge,
  refundedElsewhere: [],
  amountCents,
  reason,
  staffId: 's1',
  now,
});
const answer = (sequence: number, ok = true): ChargeRefundCommand => ({
  type: 'RecordRefundResult',
  charge,
  sequence,
  result: ok
    ? { status: 'succeeded', transactionId: `re_${sequence}`, cardLast4: '0000', raw: {} }
    : { status: 'declined', transactionId: `re_${sequence}`, cardLast4: '0000', failureReason: 'No', raw: {} },
  now,
});
const after = (...commands: ChargeRefundCommand[]) =>
  commands.reduce(
    (state, command) => spec.on(state).when(command).events.reduce(decider.evolve, state),
    decider.initialState,
  );

describe('charge refunds', () => {
  it('reserves a refund with the next sequence, then records the processor’s answer', () => {
    const [requested] = spec.given([]).when(request(50)).events;
    expect(requested).toMatchObject({ type: 'RefundRequested', data: { sequence: 1, amountCents: 50 } });
    const [refunded] = spec.on(after(request(50))).when(answer(1)).events;
    expect(refunded).toMatchObject({
      type: 'ChargeRefunded',
      data: { sequence: 1, amountCents: 50, refundedTotalCents: 50, full: false, gatewayRefundId: 're_1' },
    });
    spec
      .on(after(request(50), answer(1)))
      .when(answer(1))
      .thenNothing();
  });

  it('refunds what is left when no amount is given, and nothing more', () => {
    const state = after(request(50), answer(1));
    const [requested] = spec.on(state).when(request(null)).events;
    expect(requested.data).toMatchObject({ sequence: 2, amountCents: 149 });
    const [refunded] = spec.on(after(request(50), answer(1), request(null))).when(answer(2)).events;
    expect(refunded.data).toMatchObject({ refundedTotalCents: 199, full: true });
    spec
      .on(after(request(50), answer(1), request(null), answer(2)))
      .when(request(1))
      .thenThrows('Nothing is left to refund on this payment');
    spec.on(state).when(request(150)).thenThrows('The refund exceeds what remains refundable ($1.49)');
  });

  it('resumes a pending refund with the same request and refuses another amount meanwhile', () => {
    const pending = after(request(40));
    spec.on(pending).when(request(40)).thenNothing();
    spec.on(pending).when(request(null)).thenNothing();
    spec.on(pending).when(request(10)).thenThrows('A refund of $0.40 on this payment is still in progress');
  });

  it('gives a declined refund’s amount back to what is refundable', () => {
    const [declined] = spec.on(after(request(199))).when(answer(1, false)).events;
    expect(declined).toMatchObject({ type: 'RefundDeclined', data: { sequence: 1, failureReason: 'No' } });
    const [again] = spec.on(after(request(199), answer(1, false))).when(request(null)).events;
    expect(again.data).toMatchObject({ sequence: 2, amountCents: 199 });
  });

  it('counts a refund recorded elsewhere (the money-back guarantee) unless it is one of its own', () => {
    const moneyBack = { gatewayRefundId: 're_mb', amountCents: 199 };
    spec
      .given([])
      .when({ ...request(1), refundedElsewhere: [moneyBack] } as ChargeRefundCommand)
      .thenThrows('Nothing is left to refund on this payment');
    const own = { gatewayRefundId: 're_1', amountCents: 50 };
    const [requested] = spec
      .on(after(request(50), answer(1)))
      .when({ ...request(null), refundedElsewhere: [own] } as ChargeRefundCommand).events;
    expect(requested.data).toMatchObject({ amountCents: 149 });
  });

  it('records a chargeback once, for what is left of the charge, and nothing is refundable after it', () => {
    const dispute: ChargeRefundCommand = {
      type: 'RecordDispute',
      charge,
      refundedElsewhere: [],
      disputeId: 'dp_1',
      amountCents: 199,
      feeCents: 1500,
      reason: 'fraudulent',
      now,
    };
    const state = after(request(50), answer(1));
    const [disputed] = spec.on(state).when(dispute).events;
    expect(disputed).toMatchObject({ type: 'ChargeDisputed', data: { amountCents: 149, feeCents: 1500 } });
    const afterDispute = decider.evolve(state, disputed);
    spec.on(afterDispute).when(dispute).thenNothing();
    spec.on(afterDispute).when(request(null)).thenThrows('Nothing is left to refund');
  });
});
