import type { EventStore, RecordedEvent } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import { balanceMovement } from '../shared/money-flows';
import type { ProcessManager } from '../shared/process-manager';
import { creditBalance } from '../wallet/balance';
import { conversionDecider } from './conversion-decider';
import type { CryptoConversionCompletedData, CryptoConversionRequestedData } from './events';
import { cryptoTransactionStream } from './events';
import type { CryptoGateway } from './gateway';

const reactionContext = (event: RecordedEvent, now: Date): CommandContext => ({
  actorId: 'system:crypto-settlement',
  correlationId: (event.metadata.correlationId as string | undefined) ?? event.eventId,
  causationId: event.eventId,
  now,
});

/** pending -> processing: hands a requested conversion to the processor (idempotent on the transaction id). */
export function conversionSubmission(gateway: CryptoGateway): ProcessManager {
  return {
    name: 'crypto-conversion-submission',
    eventTypes: ['CryptoConversionRequested'],
    async handle(event, { store, now }) {
      const request = event.data as CryptoConversionRequestedData;
      const { gatewayTransactionId } = await gateway.submit(
        {
          idempotencyKey: `conversion:${request.transactionId}`,
          cryptoType: request.cryptoType,
          cryptoAmount: request.cryptoAmount,
          walletAddress: request.walletAddress,
        },
        now,
      );
      await handleCommand(
        store,
        cryptoTransactionStream(request.transactionId),
        conversionDecider,
        { type: 'RecordSubmission', gatewayTransactionId, now },
        reactionContext(event, now),
        {
          eventIds: [deterministicId(event.eventId, 'submitted')],
        },
      );
    },
  };
}

/** A completed conversion credits its net USD to the member's balance, once (reference = transaction). */
export const conversionCredit: ProcessManager = {
  name: 'crypto-conversion-credit',
  eventTypes: ['CryptoConversionCompleted'],
  async handle(event, { store, now }) {
    const done = event.data as CryptoConversionCompletedData;
    await creditBalance(
      store,
      done.userId,
      balanceMovement('crypto_conversion', done.transactionId, done.netCents),
      reactionContext(event, now),
      { eventIds: [deterministicId(event.eventId, 'credited')] },
    );
  },
};

/**
 * processing -> completed | failed: asks the processor about conversions still processing.
 * Run periodically; `processing` lists them (from the crypto_transactions read model).
 */
export async function checkSettlements(
  store: EventStore,
  gateway: CryptoGateway,
  processing: Array<{ transactionId: string; gatewayTransactionId: string }>,
  now: Date,
): Promise<number> {
  let settled = 0;
  for (const item of processing) {
    const outcome = await gateway.status(item.gatewayTransactionId, now);
    if (outcome.status === 'pending') continue;
    const result = await handleCommand(
      store,
      cryptoTransactionStream(item.transactionId),
      conversionDecider,
      { type: 'RecordSettlement', outcome, now },
      { actorId: 'system:crypto-settlement', now },
      { eventIds: [deterministicId(item.gatewayTransactionId, 'settled')] },
    );
    settled += result.events.length;
  }
  return settled;
}
