import { formatCents } from '../contracts/money';
import type { EventStore } from '../event-store/port';
import { loadCardOnFile } from '../membership/card-on-file';
import type { PaymentGateway } from '../payments/gateway';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { accountStanding } from '../safety/commands';
import { DomainError } from '../shared/errors';
import { deterministicId } from '../shared/ids';
import { balanceMovement, balanceReturn, flowReference, returnedReference } from '../shared/money-flows';
import { creditBalance, spendBalance } from '../wallet/balance';
import { walletDecider } from '../wallet/decider';
import { walletStream } from '../wallet/events';
import { creatorDecider, offeredTiers } from './decider';
import { creatorStream, creatorSubscriptionStream } from './events';
import {
  creatorSubscriptionDecider,
  expiryDue,
  renewalDue,
  type CreatorSubscriptionState,
  type RecordCreatorRenewal,
  type TierTerms,
} from './subscription-decider';

/**
 * The creator-subscription renewal process: on each tick (injectable clock), subscriptions
 * whose paid period is over are charged the next period (at the tier's price of the day, the
 * next tier when the member changed it) on the card on file, or from the USD balance where the
 * member chose it; a decline (or a balance too low) makes it past due with retries on a
 * schedule and access through the grace period; canceled or unpaid ones whose access ran out
 * expire. Idempotent on the period: the charge's key, the balance spend's reference and the
 * event ids derive from (subscription, period end, attempt), so a repeated or concurrent tick
 * never takes the money twice; money taken for a renewal that did not take effect is given back.
 */
export const CREATOR_RENEWAL_TICK_MS = 60_000;

export type CreatorRenewalOutcome = 'renewed' | 'declined' | 'expired' | 'nothing';

interface Deps {
  store: EventStore;
  gateway: PaymentGateway;
}

export async function runCreatorRenewal(
  deps: Deps,
  pair: { subscriberId: string; creatorId: string },
  now: Date,
): Promise<CreatorRenewalOutcome> {
  const streamId = creatorSubscriptionStream(pair.subscriberId, pair.creatorId);
  const { state } = await loadState(deps.store, streamId, creatorSubscriptionDecider);
  const context: CommandContext = { actorId: 'system:creator-renewals', now };

  if (expiryDue(state, now)) {
    const result = await handleCommand(
      deps.store,
      streamId,
      creatorSubscriptionDecider,
      { type: 'ExpireCreatorSubscription', at: now },
      context,
      { eventIds: [deterministicId('creatorSubscription-expired', state.subscriptionId!)] },
    );
    return result.events.length ? 'expired' : 'nothing';
  }
  if (!renewalDue(state, now)) return 'nothing';

  const periodEnd = state.periodEnd!;
  const attempt = state.failedAttempts + 1;
  const renewalId = deterministicId('creatorSubscription-renewal', state.subscriptionId!, periodEnd);
  const chargeKey = `creatorRenewal:${state.subscriptionId}:${periodEnd}:${attempt}`;
  const renewalContext: CommandContext = { ...context, correlationId: renewalId };
  const tier = await renewalTier(deps.store, state);
  // A banned creator's subscribers are not charged again: it fails like a decline and runs out.
  const banned = (await accountStanding(deps.store, state.creatorId!, now)).status === 'banned';
  const outcome: RenewalOutcome = banned
    ? { paid: false, failureReason: 'This creator’s account is closed' }
    : await payPeriod(deps, state, { renewalId, tier, chargeKey }, renewalContext);
  const recorded = await handleCommand(
    deps.store,
    streamId,
    creatorSubscriptionDecider,
    { type: 'RecordCreatorRenewal', periodEnd, attempt, renewalId, tier, outcome, at: now },
    renewalContext,
    { eventIds: [deterministicId(renewalId, String(attempt))] },
  );
  if (outcome.paid && recorded.state.lastCharge?.saleReference !== flowReference('tier_subscription', renewalId)) {
    // Paid, but the period changed before it was recorded (canceled or refunded in between): give it back.
    if (outcome.paidFrom === 'card') await giveBack(deps, outcome.transactionId, tier.priceCents, chargeKey);
    else {
      const giveBackToBalance = balanceReturn('tier_subscription', renewalId, tier.priceCents);
      await creditBalance(deps.store, state.subscriberId!, giveBackToBalance, renewalContext);
    }
    return 'nothing';
  }
  if (!recorded.events.length) return 'nothing';
  return outcome.paid ? 'renewed' : 'declined';
}

/** The tier the next period is charged at: the changed-to one, at the creator's price of the day. */
async function renewalTier(store: EventStore, state: CreatorSubscriptionState): Promise<TierTerms> {
  const chosen = state.nextTier ?? state.tier!;
  const creator = await loadState(store, creatorStream(state.creatorId!), creatorDecider);
  const offered = offeredTiers(creator.state).find((tier) => tier.tierId === chosen.tierId);
  return {
    tierId: chosen.tierId,
    name: offered?.name ?? chosen.tierName,
    priceCents: offered?.priceCents ?? chosen.priceCents,
  };
}

type RenewalOutcome = RecordCreatorRenewal['outcome'];

/**
 * Pays the period the member's way. A spend already in the wallet for it pays it, whatever was
 * chosen since (the tick died after spending): the money is never taken twice.
 */
async function payPeriod(
  deps: Deps,
  state: CreatorSubscriptionState,
  period: { renewalId: string; tier: TierTerms; chargeKey: string },
  context: CommandContext,
): Promise<RenewalOutcome> {
  const subscriberId = state.subscriberId!;
  const spent = await periodSpend(deps.store, subscriberId, period.renewalId);
  if (spent === 'spent') return { paid: true, paidFrom: 'balance' };
  if (state.renewFrom === 'card') return payByCard(deps, subscriberId, period.tier, period.chargeKey);
  // Given back already (the period was canceled in between, then resumed): the wallet takes a reference once.
  if (spent === 'returned')
    return {
      paid: false,
      paidFrom: 'balance',
      failureReason: 'This period’s payment from your USD balance was given back',
    };
  const spend = balanceMovement('tier_subscription', period.renewalId, period.tier.priceCents);
  return payFromBalance(deps.store, subscriberId, spend, context);
}

async function payByCard(
  deps: Deps,
  subscriberId: string,
  tier: TierTerms,
  idempotencyKey: string,
): Promise<RenewalOutcome> {
  const { state: card } = await loadCardOnFile(deps.store, subscriberId);
  if (!card.customerId) return { paid: false, failureReason: 'No card on file' };
  const result = await deps.gateway.charge({
    customerId: card.customerId,
    amountCents: tier.priceCents,
    currency: 'USD',
    description: `Creator subscription: ${tier.name} (monthly renewal)`,
    idempotencyKey,
  });
  return result.status === 'succeeded'
    ? { paid: true, paidFrom: 'card', transactionId: result.transactionId }
    : { paid: false, failureReason: result.failureReason };
}

/** The period from the USD balance; a balance too low is a decline the member can read. */
async function payFromBalance(
  store: EventStore,
  subscriberId: string,
  spend: ReturnType<typeof balanceMovement>,
  context: CommandContext,
): Promise<RenewalOutcome> {
  try {
    await spendBalance(store, subscriberId, spend, context);
    return { paid: true, paidFrom: 'balance' };
  } catch (error) {
    if (!(error instanceof DomainError) || error.message !== 'Insufficient balance') throw error;
    const balance = Number(error.details.balanceCents ?? 0);
    return {
      paid: false,
      paidFrom: 'balance',
      failureReason: `Insufficient USD balance: the renewal is $${formatCents(spend.amountCents)} and your balance is $${formatCents(balance)}`,
    };
  }
}

/** What the wallet holds of this period's spend: none, the spend, or the spend given back. */
async function periodSpend(store: EventStore, subscriberId: string, renewalId: string) {
  const { references } = (await loadState(store, walletStream(subscriberId), walletDecider)).state;
  if (references.has(returnedReference('tier_subscription', renewalId))) return 'returned';
  return references.has(flowReference('tier_subscription', renewalId)) ? 'spent' : 'none';
}

async function giveBack(deps: Deps, transactionId: string, amountCents: number, chargeKey: string) {
  const refund = await deps.gateway.refund({ transactionId, amountCents, idempotencyKey: `refund:${chargeKey}` });
  if (refund.status !== 'succeeded')
    throw new Error(`the refund of unused renewal charge ${transactionId} was declined: ${refund.failureReason}`);
}

/** One renewal pass over the subscriptions the read model says are due (each stream re-checks). */
export async function creatorRenewalTick(
  deps: Deps & { due: (now: Date) => Promise<Array<{ subscriberId: string; creatorId: string }>> },
  now: Date,
): Promise<Record<CreatorRenewalOutcome, number>> {
  const counts: Record<CreatorRenewalOutcome, number> = { renewed: 0, declined: 0, expired: 0, nothing: 0 };
  for (const pair of await deps.due(now)) counts[await runCreatorRenewal(deps, pair, now)]++;
  return counts;
}
