import { deterministicId } from '../shared/ids';
import type { PayoutGateway } from './gateway';

/**
 * Sandbox payout processor. Like a real one, it verifies a new bank account after a while
 * (`verifyAfterMs`, default 5 s, counted from registration); a periodic check asks it.
 * Documented test values:
 * - stripe accounts (sandbox connected accounts come onboarded): verified at once;
 * - routing number 110000000 (the usual test routing number): verified at once;
 * - routing number 000000000: verified at once, but transfers to it are rejected ('Account closed');
 * - routing number 999999998: pending, then verification fails ('Bank account could not be verified');
 * - any other routing number (e.g. 999999999): pending verification, verified after the delay.
 * Stateless (answers derive from the request), so it survives restarts; ids derive from the
 * idempotency key, so a retried call answers the same.
 */
export const SANDBOX_INSTANT_ROUTING = '110000000';
export const SANDBOX_REJECTED_ROUTING = '000000000';
export const SANDBOX_VERIFICATION_FAILS_ROUTING = '999999998';
export const SANDBOX_VERIFICATION_FAILURE = 'Bank account could not be verified';
export const SANDBOX_VERIFY_AFTER_MS = 5_000;

const verifiedAtOnce = (type: string, routingNumber: string | null) =>
  type === 'stripe' || routingNumber === SANDBOX_INSTANT_ROUTING || routingNumber === SANDBOX_REJECTED_ROUTING;

export function createSandboxPayoutGateway(options: { verifyAfterMs?: number } = {}): PayoutGateway {
  const verifyAfterMs = options.verifyAfterMs ?? SANDBOX_VERIFY_AFTER_MS;
  return {
    async registerDestination(input) {
      const stripeAccountId =
        input.type === 'stripe'
          ? `acct_sandbox_${deterministicId('dest', input.idempotencyKey).replace(/-/g, '').slice(0, 16)}`
          : null;
      return { stripeAccountId, verified: verifiedAtOnce(input.type, input.routingNumber) };
    },
    async verificationStatus({ destination, registeredAt }, now) {
      if (verifiedAtOnce(destination.type, destination.routingNumber)) return { status: 'verified' };
      if (now.getTime() < registeredAt.getTime() + verifyAfterMs) return { status: 'pending' };
      if (destination.routingNumber === SANDBOX_VERIFICATION_FAILS_ROUTING)
        return { status: 'failed', failureReason: SANDBOX_VERIFICATION_FAILURE };
      return { status: 'verified' };
    },
    async createTransfer(input) {
      const transactionId = `tr_sandbox_${deterministicId('transfer', input.idempotencyKey).replace(/-/g, '').slice(0, 20)}`;
      if (input.destination.routingNumber === SANDBOX_REJECTED_ROUTING)
        return { status: 'rejected', transactionId, failureReason: 'Account closed' };
      return { status: 'submitted', transactionId };
    },
  };
}
