import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { ChargeResult } from './gateway';
import type { PaymentAttemptData, PaymentEvent } from './events';

/**
 * One card payment: the gateway's answer is recorded as PaymentCaptured or PaymentFailed;
 * a captured payment can be refunded once. The gateway call happens before, in the command
 * layer; the decider only records its result.
 */

export interface PaymentState {
  status: 'new' | 'captured' | 'failed' | 'refunded';
  paymentId: string | null;
  userId: string | null;
  amountCents: number;
  gatewayTransactionId: string | null;
}

export type RecordCharge = {
  type: 'RecordCharge';
  result: ChargeResult;
  now: Date;
} & Omit<PaymentAttemptData, 'gatewayTransactionId' | 'cardLast4' | 'gatewayResponse' | 'at'>;

export interface RecordRefund {
  type: 'RecordRefund';
  gatewayRefundId: string;
  reason: string;
  now: Date;
}

export type PaymentCommand = RecordCharge | RecordRefund;

export const paymentDecider: Decider<PaymentCommand, PaymentState, PaymentEvent> = {
  initialState: { status: 'new', paymentId: null, userId: null, amountCents: 0, gatewayTransactionId: null },

  evolve(state, event) {
    switch (event.type) {
      case 'PaymentCaptured':
        return {
          status: 'captured',
          paymentId: event.data.paymentId,
          userId: event.data.userId,
          amountCents: event.data.amountCents,
          gatewayTransactionId: event.data.gatewayTransactionId,
        };
      case 'PaymentFailed':
        return {
          status: 'failed',
          paymentId: event.data.paymentId,
          userId: event.data.userId,
          amountCents: event.data.amountCents,
          gatewayTransactionId: event.data.gatewayTransactionId,
        };
      case 'PaymentRefunded':
        return { ...state, status: 'refunded' };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RecordCharge': {
        // A retried recording of the same gateway answer writes nothing new.
        if (state.status !== 'new') {
          if (state.gatewayTransactionId === command.result.transactionId) return [];
          throw refuse.conflict('This payment was already recorded');
        }
        const { type: _type, result, now, ...rest } = command;
        const data: PaymentAttemptData = {
          ...rest,
          gatewayTransactionId: result.transactionId,
          cardLast4: result.cardLast4,
          gatewayResponse: result.raw,
          at: now.toISOString(),
        };
        return result.status === 'succeeded'
          ? [{ type: 'PaymentCaptured', data }]
          : [{ type: 'PaymentFailed', data: { ...data, failureReason: result.failureReason } }];
      }
      case 'RecordRefund': {
        if (state.status === 'refunded') return [];
        if (state.status !== 'captured') throw refuse.conflict('Only a captured payment can be refunded');
        return [
          {
            type: 'PaymentRefunded',
            data: {
              paymentId: state.paymentId!,
              userId: state.userId!,
              gatewayRefundId: command.gatewayRefundId,
              amountCents: state.amountCents,
              reason: command.reason,
              at: command.now.toISOString(),
            },
          },
        ];
      }
    }
  },
};
