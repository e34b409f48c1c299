import { deterministicId } from '../shared/ids';
import type { PayoutGateway } from './gateway';

/**
 * Sandbox payout processor. Documented test values:
 * - routing number 999999999: the bank account stays pending verification;
 * - routing number 000000000: transfers to it are rejected ('Account closed').
 * Everything else verifies at once and transfers are submitted. Ids derive from the
 * idempotency key, so a retried call answers the same.
 */
export const SANDBOX_UNVERIFIED_ROUTING = '999999999';
export const SANDBOX_REJECTED_ROUTING = '000000000';

export function createSandboxPayoutGateway(): PayoutGateway {
  return {
    async registerDestination(input) {
      const stripeAccountId = input.type === 'stripe' ? `acct_sandbox_${deterministicId('dest', input.idempotencyKey).replace(/-/g, '').slice(0, 16)}` : null;
      return { stripeAccountId, verified: input.routingNumber !== SANDBOX_UNVERIFIED_ROUTING };
    },
    async createTransfer(input) {
      const transactionId = `tr_sandbox_${deterministicId('transfer', input.idempotencyKey).replace(/-/g, '').slice(0, 20)}`;
      if (input.destination.routingNumber === SANDBOX_REJECTED_ROUTING) return { status: 'rejected', transactionId, failureReason: 'Account closed' };
      return { status: 'submitted', transactionId };
    },
  };
}
