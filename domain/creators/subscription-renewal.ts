import type { EventStore } from '../event-store/port';
import { loadCardOnFile } from '../membership/card-on-file';
import type { ChargeResult, PaymentGateway } from '../payments/gateway';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { accountStanding } from '../safety/commands';
import { deterministicId } from '../shared/ids';
import { creatorDecider, offeredTiers } from './decider';
import { creatorStream, creatorSubscriptionStream } from './events';
import {
  creatorSubscriptionDecider,
  expiryDue,
  renewalDue,
  type CreatorSubscriptionState,
  type TierTerms,
} from './subscription-decider';

/**
 * The creator-subscription renewal process: on each tick (injectable clock), subscriptions
 * whose paid period is over are charged the next period on the card on file (at the tier's
 * price of the day, the next tier when the member changed it); a decline makes it past due
 * with retries on a schedule and access through the grace period; canceled or unpaid ones
 * whose access ran out expire. Idempotent on the period: the charge's key and the event ids
 * derive from (subscription, period end, attempt), so a repeated or concurrent tick never
 * charges twice.
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
  const result = banned
    ? notCharged('This creator’s account is closed')
    : await chargeCard(deps, state.subscriberId!, tier, chargeKey);
  const outcome =
    result.status === 'succeeded'
      ? ({ paid: true, transactionId: result.transactionId } as const)
      : ({ paid: false, failureReason: result.failureReason } as const);
  const recorded = await handleCommand(
    deps.store,
    streamId,
    creatorSubscriptionDecider,
    { type: 'RecordCreatorRenewal', periodEnd, attempt, renewalId, tier, outcome, at: now },
    renewalContext,
    { eventIds: [deterministicId(renewalId, String(attempt))] },
  );
  if (outcome.paid && !chargeTookEffect(recorded.state, outcome.transactionId)) {
    // Paid, but the period changed before it was recorded (canceled or refunded in between): give it back.
    await giveBack(deps, result.transactionId, tier.priceCents, chargeKey);
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

async function chargeCard(
  deps: Deps,
  subscriberId: string,
  tier: TierTerms,
  idempotencyKey: string,
): Promise<ChargeResult> {
  const { state: card } = await loadCardOnFile(deps.store, subscriberId);
  if (!card.customerId) return notCharged('No card on file');
  return deps.gateway.charge({
    customerId: card.customerId,
    amountCents: tier.priceCents,
    currency: 'USD',
    description: `Creator subscription: ${tier.name} (monthly renewal)`,
    idempotencyKey,
  });
}

const notCharged = (failureReason: string): ChargeResult => ({
  status: 'declined',
  transactionId: '',
  cardLast4: '0000',
  failureReason,
  raw: {},
});

const chargeTookEffect = (state: CreatorSubscriptionState, transactionId: string) =>
  state.lastCharge?.transactionId === transactionId;

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
