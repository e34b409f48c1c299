import type { EventStore } from '../event-store/port';
import type { PaymentGateway } from '../payments/gateway';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { creatorSubscriptionStream } from './events';
import { offeredTier } from './subscribe';
import { assertRefundable, creatorSubscriptionDecider, type CreatorSubscriptionCommand } from './subscription-decider';

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

export const MONEY_BACK_REASON = 'money-back guarantee';

/**
 * The money-back guarantee: the last tier charge, if less than 7 days old, is refunded through
 * the gateway (its idempotency key names the charge, so a retried claim refunds once), then the
 * refund is recorded: access ends at once and renewal stops.
 */
export async function claimMoneyBack(
  store: EventStore,
  gateway: PaymentGateway,
  ref: SubscriptionRef,
  context: CommandContext,
) {
  const { streamId, state } = await onCurrent(store, ref);
  const charge = assertRefundable(state, context.now);
  const refund = await gateway.refund({
    transactionId: charge.transactionId,
    amountCents: charge.amountCents,
    idempotencyKey: `moneyBack:${charge.transactionId}`,
  });
  if (refund.status !== 'succeeded') throw refuse.declined(refund.failureReason);
  return handleCommand(
    store,
    streamId,
    creatorSubscriptionDecider,
    {
      type: 'RecordCreatorSubscriptionRefund',
      transactionId: charge.transactionId,
      gatewayRefundId: refund.transactionId,
      reason: MONEY_BACK_REASON,
      at: context.now,
    },
    context,
  );
}
