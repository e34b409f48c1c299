import { SITE_PLAN_PRICE_CENTS } from '../contracts/money';
import type { EventStore } from '../event-store/port';
import type { PaymentGateway } from '../payments/gateway';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import { loadCardOnFile } from './card-on-file';
import { expiryDue, membershipDecider, renewalDue } from './decider';
import { membershipStream } from './events';
import { paymentDecider } from '../payments/decider';
import { paymentStream } from '../payments/events';
import { recordCharge } from './purchase';

/**
 * The billing process: on each tick (injectable clock), memberships whose paid period is
 * over are renewed ($1.99 on the card on file), and canceled or unpaid ones whose access ran
 * out expire. Idempotent on the period: the charge's key, the payment id and the event ids
 * all derive from (user, period end), so a repeated or concurrent tick never charges twice.
 */
export const BILLING_TICK_MS = 60_000;

export type BillingOutcome = 'renewed' | 'past_due' | 'expired' | 'nothing';

export async function runBilling(
  deps: { store: EventStore; gateway: PaymentGateway },
  userId: string,
  now: Date,
): Promise<BillingOutcome> {
  const { store, gateway } = deps;
  const { state } = await loadState(store, membershipStream(userId), membershipDecider);
  const context: CommandContext = { actorId: 'system:billing', now };

  if (expiryDue(state, now)) {
    const key = `${userId}:${state.status}:${state.status === 'past_due' ? state.graceEndsAt : state.periodEnd}`;
    const result = await handleCommand(
      store,
      membershipStream(userId),
      membershipDecider,
      { type: 'ExpireMembership', userId, now },
      context,
      {
        eventIds: [deterministicId('membership-expired', key)],
      },
    );
    return result.events.length ? 'expired' : 'nothing';
  }
  if (!renewalDue(state, now)) return 'nothing';

  const periodEnd = state.periodEnd!;
  const paymentId = deterministicId('membership-renewal', userId, periodEnd);
  const renewalContext: CommandContext = { ...context, correlationId: paymentId };
  const { state: account } = await loadCardOnFile(store, userId);
  const result = account.customerId
    ? await gateway.charge({
        customerId: account.customerId,
        amountCents: SITE_PLAN_PRICE_CENTS,
        currency: 'USD',
        description: 'Lively official membership subscription (monthly renewal)',
        idempotencyKey: `renewal:${userId}:${periodEnd}`,
      })
    : ({
        status: 'declined',
        transactionId: `none:${paymentId}`,
        cardLast4: '0000',
        failureReason: 'No card on file',
        raw: {},
      } as const);
  await recordCharge(
    store,
    {
      paymentId,
      userId,
      requestType: 'membership_renewal',
      customerId: account.customerId ?? '',
      amountCents: SITE_PLAN_PRICE_CENTS,
      cardHolderName: account.name,
      email: account.email,
      result,
    },
    renewalContext,
    [deterministicId(paymentId, 'payment')],
  );
  const outcome =
    result.status === 'succeeded'
      ? ({ paid: true } as const)
      : ({ paid: false, failureReason: result.failureReason } as const);
  const recorded = await handleCommand(
    store,
    membershipStream(userId),
    membershipDecider,
    { type: 'RecordRenewal', userId, periodEnd, paymentId, outcome, now },
    renewalContext,
    {
      eventIds: [deterministicId(paymentId, 'membership')],
    },
  );
  if (result.status === 'succeeded' && !recorded.state.paymentIds.includes(paymentId)) {
    await refundUnusedRenewal(deps, paymentId, result.transactionId, renewalContext);
    return 'nothing';
  }
  if (!recorded.events.length) return 'nothing';
  return outcome.paid ? 'renewed' : 'past_due';
}

/**
 * The renewal was paid but the period changed before it could be recorded (the member canceled
 * in between): the money bought nothing, so it goes back (refund recorded for finance).
 */
async function refundUnusedRenewal(
  deps: { store: EventStore; gateway: PaymentGateway },
  paymentId: string,
  transactionId: string,
  context: CommandContext,
) {
  const refund = await deps.gateway.refund({
    transactionId,
    amountCents: SITE_PLAN_PRICE_CENTS,
    idempotencyKey: `refund:${paymentId}`,
  });
  if (refund.status !== 'succeeded')
    throw new Error(`the refund of unused renewal ${paymentId} was declined: ${refund.failureReason}`);
  await handleCommand(
    deps.store,
    paymentStream(paymentId),
    paymentDecider,
    {
      type: 'RecordRefund',
      gatewayRefundId: refund.transactionId,
      reason: 'renewal not needed: the period changed',
      now: context.now,
    },
    context,
    {
      eventIds: [deterministicId(paymentId, 'refund')],
    },
  );
}

/** One billing pass over the members the read model says are due (the stream re-checks each). */
export async function billingTick(
  deps: { store: EventStore; gateway: PaymentGateway; due: (now: Date) => Promise<string[]> },
  now: Date,
): Promise<Record<BillingOutcome, number>> {
  const counts: Record<BillingOutcome, number> = { renewed: 0, past_due: 0, expired: 0, nothing: 0 };
  for (const userId of await deps.due(now)) counts[await runBilling(deps, userId, now)]++;
  return counts;
}
