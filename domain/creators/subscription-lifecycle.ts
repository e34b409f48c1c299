import type { EventStore } from '../event-store/port';
import type { PaymentGateway } from '../payments/gateway';
import { refundCharge, remainingOfCharge } from '../payments/refund-charge';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { balanceReturn, flowOfReference } from '../shared/money-flows';
import { creditBalance } from '../wallet/balance';
import { creatorSubscriptionStream, type RenewalSource } from './events';
import { offeredTier } from './subscribe';
import {
  assertRefundable,
  creatorSubscriptionDecider,
  type CreatorSubscriptionCommand,
  type SubscriptionCharge,
} from './subscription-decider';

/**
 * What a member does with a running creator subscription: cancel (access to the period end),
 * resume (renewals again, no charge), change the tier (from the next period), claim the
 * money-back guarantee. `subscriptionId` must be the stream's current subscription.
 */
export interface SubscriptionRef {
  subscriberId: string;
  creatorId: string;
  subscriptionId: string;
}

async function onCurrent(store: EventStore, ref: SubscriptionRef) {
  const streamId = creatorSubscriptionStream(ref.subscriberId, ref.creatorId);
  const current = await loadState(store, streamId, creatorSubscriptionDecider);
  if (current.state.subscriptionId !== ref.subscriptionId) throw refuse.conflict('This subscription has ended');
  return { streamId, state: current.state };
}

async function decideOnCurrent(
  store: EventStore,
  ref: SubscriptionRef,
  command: CreatorSubscriptionCommand,
  context: CommandContext,
) {
  const { streamId } = await onCurrent(store, ref);
  return handleCommand(store, streamId, creatorSubscriptionDecider, command, context);
}

export const cancelCreatorSubscription = (store: EventStore, ref: SubscriptionRef, context: CommandContext) =>
  decideOnCurrent(store, ref, { type: 'CancelCreatorSubscription', at: context.now }, context);

export const resumeCreatorSubscription = (store: EventStore, ref: SubscriptionRef, context: CommandContext) =>
  decideOnCurrent(store, ref, { type: 'ResumeCreatorSubscription', at: context.now }, context);

/** Another of the creator's tiers from the next period on (its price then). */
export async function changeCreatorSubscriptionTier(
  store: EventStore,
  ref: SubscriptionRef & { tierId: string },
  context: CommandContext,
) {
  const tier = await offeredTier(store, ref.creatorId, ref.tierId);
  return decideOnCurrent(store, ref, { type: 'ChangeCreatorSubscriptionTier', tier, at: context.now }, context);
}

/** How the next renewals are paid: the card on file or the USD balance (a canceled one will not renew). */
export const changeCreatorSubscriptionRenewalSource = (
  store: EventStore,
  ref: SubscriptionRef & { source: RenewalSource },
  context: CommandContext,
) =>
  decideOnCurrent(
    store,
    ref,
    { type: 'ChangeCreatorSubscriptionRenewalSource', source: ref.source, at: context.now },
    context,
  );

export const MONEY_BACK_REASON = 'money-back guarantee';

/**
 * The money-back guarantee: the last tier charge, if less than 7 days old, is refunded through
 * the gateway as a refund of its payment stream (`payment-<chargeId>`), for what remains of it
 * (finance staff may have refunded part already; a retried claim resumes its own refund, never
 * a second one), then recorded: access ends at once and renewal stops.
 */
export async function claimMoneyBack(
  store: EventStore,
  gateway: PaymentGateway,
  ref: SubscriptionRef,
  context: CommandContext,
) {
  const { streamId, state } = await onCurrent(store, ref);
  const charge = assertRefundable(state, context.now);
  if (charge.paidFrom === 'balance') return moneyBackToBalance(store, streamId, charge, ref, context);
  const locator = {
    chargeId: flowOfReference(charge.saleReference)!.id,
    subscription: { subscriberId: ref.subscriberId, creatorId: ref.creatorId },
  };
  const { refundableCents, pending } = await remainingOfCharge(store, locator);
  if (pending && pending.reason !== MONEY_BACK_REASON)
    throw refuse.conflict('A refund of this charge is in progress; try again in a moment');
  if (!pending && refundableCents === 0)
    throw refuse.conflict('This charge was given back in full already: there is nothing left to refund');
  const refund = await refundCharge(
    store,
    gateway,
    { ...locator, amountCents: pending?.amountCents ?? refundableCents, reason: MONEY_BACK_REASON, staffId: null },
    context,
  );
  return handleCommand(
    store,
    streamId,
    creatorSubscriptionDecider,
    {
      type: 'RecordCreatorSubscriptionRefund',
      transactionId: charge.transactionId!,
      gatewayRefundId: refund.gatewayRefundId,
      amountCents: refund.amountCents,
      reason: MONEY_BACK_REASON,
      at: context.now,
    },
    context,
  );
}

/**
 * The money-back guarantee on a period paid from the USD balance: the spend is credited back
 * (`<spend>:returned`, once whatever the retries), then recorded. A claim that died between the
 * two is finished by claiming again: the period is still refundable and the credit is not repeated.
 */
async function moneyBackToBalance(
  store: EventStore,
  streamId: string,
  charge: SubscriptionCharge,
  ref: SubscriptionRef,
  context: CommandContext,
) {
  const { id } = flowOfReference(charge.saleReference)!;
  const credit = balanceReturn('tier_subscription', id, charge.amountCents);
  await creditBalance(store, ref.subscriberId, credit, context);
  return handleCommand(
    store,
    streamId,
    creatorSubscriptionDecider,
    {
      type: 'RecordCreatorSubscriptionRefund',
      transactionId: null,
      gatewayRefundId: null,
      balanceReference: credit.reference,
      amountCents: charge.amountCents,
      reason: MONEY_BACK_REASON,
      at: context.now,
    },
    context,
  );
}
