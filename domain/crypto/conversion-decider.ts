import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { isConversionNumber } from './conversion-numbers';
import type { CryptoConversionRequestedData, CryptoTransactionEvent } from './events';

/**
 * One conversion: pending (requested) -> processing (submitted to the processor) ->
 * completed or failed. A completed conversion may later be marked as used for a site plan.
 */
export type ConversionStatus = 'new' | 'pending' | 'processing' | 'completed' | 'failed';

export interface ConversionState {
  status: ConversionStatus;
  request: CryptoConversionRequestedData | null;
  gatewayTransactionId: string | null;
  usedBy: string | null;
}

export type ConversionCommand =
  | ({ type: 'RequestConversion' } & CryptoConversionRequestedData & { conversionNumber: number })
  | { type: 'RecordSubmission'; gatewayTransactionId: string; now: Date }
  | {
      type: 'RecordSettlement';
      outcome: { status: 'confirmed'; transactionHash: string } | { status: 'failed'; failureReason: string };
      now: Date;
    }
  | { type: 'MarkUsedForSubscription'; purchaseId: string; subscriptionMonths: number; now: Date };

export const conversionDecider: Decider<ConversionCommand, ConversionState, CryptoTransactionEvent> = {
  initialState: { status: 'new', request: null, gatewayTransactionId: null, usedBy: null },
  evolve(state, event) {
    switch (event.type) {
      case 'CryptoConversionRequested':
        return { ...state, status: 'pending', request: event.data };
      case 'CryptoConversionSubmitted':
        return { ...state, status: 'processing', gatewayTransactionId: event.data.gatewayTransactionId };
      case 'CryptoConversionCompleted':
        return { ...state, status: 'completed' };
      case 'CryptoConversionFailed':
        return { ...state, status: 'failed' };
      case 'CryptoConversionUsedForSubscription':
        return { ...state, usedBy: event.data.purchaseId };
      default:
        return state;
    }
  },
  decide(command, state) {
    const request = state.request;
    switch (command.type) {
      case 'RequestConversion': {
        if (state.status !== 'new') return []; // a retried request writes nothing new
        if (!isConversionNumber(command.conversionNumber)) throw refuse.validation('Invalid conversion ID');
        const { type: _type, ...data } = command;
        return [{ type: 'CryptoConversionRequested', data }];
      }
      case 'RecordSubmission': {
        if (!request) throw refuse.notFound('Conversion not found');
        if (state.status !== 'pending') return [];
        return [
          {
            type: 'CryptoConversionSubmitted',
            data: {
              transactionId: request.transactionId,
              userId: request.userId,
              gatewayTransactionId: command.gatewayTransactionId,
              submittedAt: command.now.toISOString(),
            },
          },
        ];
      }
      case 'RecordSettlement': {
        if (!request) throw refuse.notFound('Conversion not found');
        if (state.status !== 'processing') return [];
        if (command.outcome.status === 'failed') {
          return [
            {
              type: 'CryptoConversionFailed',
              data: {
                transactionId: request.transactionId,
                userId: request.userId,
                failureReason: command.outcome.failureReason,
                failedAt: command.now.toISOString(),
              },
            },
          ];
        }
        return [
          {
            type: 'CryptoConversionCompleted',
            data: {
              transactionId: request.transactionId,
              conversionId: request.conversionId,
              userId: request.userId,
              walletId: request.walletId,
              cryptoAmount: request.cryptoAmount,
              netCents: request.netCents,
              transactionHash: command.outcome.transactionHash,
              completedAt: command.now.toISOString(),
            },
          },
        ];
      }
      case 'MarkUsedForSubscription': {
        if (!request) throw refuse.notFound('Conversion not found');
        if (state.usedBy === command.purchaseId) return [];
        if (state.usedBy) throw refuse.conflict('This conversion was already used for a subscription');
        if (state.status !== 'completed') throw refuse.conflict('This conversion has not completed');
        return [
          {
            type: 'CryptoConversionUsedForSubscription',
            data: {
              transactionId: request.transactionId,
              conversionId: request.conversionId,
              userId: request.userId,
              subscriptionMonths: command.subscriptionMonths,
              purchaseId: command.purchaseId,
              usedAt: command.now.toISOString(),
            },
          },
        ];
      }
    }
  },
};
