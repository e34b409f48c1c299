import type { EventStore } from '../event-store/port';
import { handleCommand, loadState } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import { creatorAccountDecider, isPendingVerification } from './decider';
import { creatorAccountStream } from './events';
import type { PayoutGateway } from './gateway';

/** How often pending payment accounts are checked with the payout processor. */
export const VERIFICATION_CHECK_MS = 1_000;

/**
 * Asks the payout processor about payment accounts pending verification and records its
 * answer as `PaymentAccountVerified` or `PaymentAccountVerificationFailed` on the creator's
 * account stream. Run periodically; `pending` lists candidates (from the payment_accounts read
 * model, which may lag: the stream is re-checked, and a decided account writes nothing). The
 * event id derives from the account, so two processes checking at once record it once.
 * Returns how many accounts were decided.
 */
export async function checkPaymentAccountVerifications(
  store: EventStore,
  gateway: PayoutGateway,
  pending: Array<{ creatorId: string; paymentAccountId: string }>,
  now: Date,
): Promise<number> {
  let decided = 0;
  for (const { creatorId, paymentAccountId } of pending) {
    const { state } = await loadState(store, creatorAccountStream(creatorId), creatorAccountDecider);
    const account = state.paymentAccounts[paymentAccountId];
    if (!account || !isPendingVerification(account)) continue;
    const answer = await gateway.verificationStatus(
      {
        idempotencyKey: paymentAccountId,
        destination: {
          type: account.type,
          stripeAccountId: account.stripeAccountId,
          bankAccountLast4: account.bankAccountLast4,
          routingNumber: account.routingNumber,
        },
        registeredAt: new Date(account.addedAt),
      },
      now,
    );
    if (answer.status === 'pending') continue;
    const result = await handleCommand(
      store,
      creatorAccountStream(creatorId),
      creatorAccountDecider,
      { type: 'RecordPaymentAccountVerification', creatorId, paymentAccountId, outcome: answer, now },
      { actorId: 'system:payout-verification', now },
      { eventIds: [deterministicId(paymentAccountId, 'verification')] },
    );
    decided += result.events.length;
  }
  return decided;
}
