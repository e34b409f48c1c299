import { formatCents } from '../contracts/money';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { ChargeResult } from './gateway';
import type { CardChargeFacts, ChargeAdjustmentEvent, PaymentRefundedData } from './events';

/**
 * What has been given back of one card charge (stream `payment-<chargeId>`): staff refunds,
 * in full or in part, and chargebacks. A refund first reserves its sequence and amount
 * (RefundRequested), so the gateway call that follows has a key of its own
 * (`refund:<chargeId>:<sequence>`): a call that timed out is retried with the same key and
 * can never refund twice, and two staff members cannot both refund the last dollar.
 */

export interface PendingRefund {
  sequence: number;
  amountCents: number;
  reason: string;
  staffId: string | null;
}

export interface ChargeRefundState {
  /** Refunded (or taken back by a chargeback) so far, in cents. */
  givenBackCents: number;
  /** The last sequence used by a staff refund. */
  sequence: number;
  pending: PendingRefund | null;
  disputes: string[];
  /** The gateway refund ids recorded here. */
  refundIds: string[];
}

/** A refund of the charge recorded elsewhere (the money-back guarantee, on the subscription's stream). */
export interface RefundElsewhere {
  gatewayRefundId: string;
  amountCents: number;
}

export const refundKey = (chargeId: string, sequence: number) => `refund:${chargeId}:${sequence}`;

export type ChargeRefundCommand =
  | {
      type: 'RequestRefund';
      charge: CardChargeFacts;
      refundedElsewhere: RefundElsewhere[];
      /** null: everything that is left. */
      amountCents: number | null;
      reason: string;
      staffId: string | null;
      now: Date;
    }
  | { type: 'RecordRefundResult'; charge: CardChargeFacts; sequence: number; result: ChargeResult; now: Date }
  | {
      type: 'RecordDispute';
      charge: CardChargeFacts;
      refundedElsewhere: RefundElsewhere[];
      disputeId: string;
      amountCents: number;
      feeCents: number;
      reason: string;
      now: Date;
    };

/** Given back here, and elsewhere by refunds this stream did not record itself. */
const givenBack = (state: ChargeRefundState, elsewhere: RefundElsewhere[]) =>
  elsewhere
    .filter((refund) => !state.refundIds.includes(refund.gatewayRefundId))
    .reduce((sum, refund) => sum + refund.amountCents, state.givenBackCents);

/** What may still be refunded: the charge less what was given back and what a refund in flight holds. */
export const refundableCents = (
  charge: CardChargeFacts,
  state: ChargeRefundState,
  elsewhere: RefundElsewhere[] = [],
): number => Math.max(0, charge.amountCents - givenBack(state, elsewhere) - (state.pending?.amountCents ?? 0));

type Event = ChargeAdjustmentEvent | { type: 'PaymentRefunded'; data: PaymentRefundedData };

function evolve(state: ChargeRefundState, event: Event): ChargeRefundState {
  switch (event.type) {
    case 'PaymentRefunded': // the product gave the whole charge back (e.g. a sign-up that did not complete)
      return { ...state, givenBackCents: state.givenBackCents + event.data.amountCents };
    case 'RefundRequested': {
      const { sequence, amountCents, reason, staffId } = event.data;
      return { ...state, sequence, pending: { sequence, amountCents, reason, staffId } };
    }
    case 'ChargeRefunded':
      return {
        ...state,
        pending: null,
        givenBackCents: state.givenBackCents + event.data.amountCents,
        refundIds: [...state.refundIds, event.data.gatewayRefundId],
      };
    case 'RefundDeclined':
      return { ...state, pending: null };
    case 'ChargeDisputed':
      return {
        ...state,
        givenBackCents: state.givenBackCents + event.data.amountCents,
        disputes: [...state.disputes, event.data.disputeId],
      };
    default:
      return state;
  }
}

function requestRefund(
  command: Extract<ChargeRefundCommand, { type: 'RequestRefund' }>,
  state: ChargeRefundState,
): Event[] {
  if (state.pending) {
    // A refund whose gateway answer never came: the same request resumes it, another one waits.
    if (command.amountCents === null || command.amountCents === state.pending.amountCents) return [];
    throw refuse.conflict(
      `A refund of $${formatCents(state.pending.amountCents)} on this payment is still in progress; retry it first`,
    );
  }
  const left = refundableCents(command.charge, state, command.refundedElsewhere);
  if (left === 0) throw refuse.conflict('Nothing is left to refund on this payment');
  const amountCents = command.amountCents ?? left;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw refuse.validation('The refund must be a positive amount', { amountCents: 'Must be a positive amount' });
  if (amountCents > left)
    throw refuse.unprocessable(`The refund exceeds what remains refundable ($${formatCents(left)})`, {
      refundableCents: left,
    });
  return [
    {
      type: 'RefundRequested',
      data: {
        charge: command.charge,
        sequence: state.sequence + 1,
        amountCents,
        reason: command.reason,
        staffId: command.staffId,
        at: command.now.toISOString(),
      },
    },
  ];
}

function decide(command: ChargeRefundCommand, state: ChargeRefundState): Event[] {
  const at = command.now.toISOString();
  switch (command.type) {
    case 'RequestRefund':
      return requestRefund(command, state);
    case 'RecordRefundResult': {
      const pending = state.pending;
      if (!pending || pending.sequence !== command.sequence) return []; // recorded already
      const { result, charge } = command;
      if (result.status === 'declined')
        return [
          {
            type: 'RefundDeclined',
            data: { chargeId: charge.chargeId, sequence: pending.sequence, failureReason: result.failureReason, at },
          },
        ];
      const refundedTotalCents = state.givenBackCents + pending.amountCents;
      return [
        {
          type: 'ChargeRefunded',
          data: {
            charge,
            sequence: pending.sequence,
            gatewayRefundId: result.transactionId,
            amountCents: pending.amountCents,
            refundedTotalCents,
            full: refundedTotalCents >= charge.amountCents,
            reason: pending.reason,
            staffId: pending.staffId,
            at,
          },
        },
      ];
    }
    case 'RecordDispute': {
      if (state.disputes.includes(command.disputeId)) return [];
      // The bank takes back what is left of the charge (a refund in flight is given back by the dispute).
      const amountCents = Math.min(
        command.amountCents,
        command.charge.amountCents - givenBack(state, command.refundedElsewhere),
      );
      return [
        {
          type: 'ChargeDisputed',
          data: {
            charge: command.charge,
            disputeId: command.disputeId,
            amountCents: Math.max(0, amountCents),
            feeCents: command.feeCents,
            reason: command.reason,
            at,
          },
        },
      ];
    }
  }
}

export const chargeRefundDecider: Decider<ChargeRefundCommand, ChargeRefundState, Event> = {
  initialState: { givenBackCents: 0, sequence: 0, pending: null, disputes: [], refundIds: [] },
  evolve,
  decide,
};
