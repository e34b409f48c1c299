import type { EventStore } from '../event-store/port';
import type { PaymentGateway } from '../payments/gateway';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { deterministicId } from '../shared/ids';
import { creatorDecider, offeredTiers } from './decider';
import { creatorStream, creatorSubscriptionStream } from './events';
import { assertCanSubscribe, creatorSubscriptionDecider } from './subscription-decider';

export interface SubscribeInput {
  subscriberId: string;
  creatorId: string;
  tierId: string;
  /** The member's card on file at the gateway; null when none is saved. */
  customerId: string | null;
}

/**
 * Subscribes a member to a creator's tier: checks the tier and that no month is running,
 * charges the tier price to the card on file, then starts the month. The charge's
 * idempotency key is tied to the stream revision that was read, so a retried request never
 * charges twice; if the month did not start on this charge, it is refunded (any failure).
 */
export async function subscribeToCreator(
  store: EventStore,
  gateway: PaymentGateway,
  input: SubscribeInput,
  context: CommandContext,
) {
  const { subscriberId, creatorId, tierId } = input;
  const creator = await loadState(store, creatorStream(creatorId), creatorDecider);
  if (!creator.state.registered) throw refuse.notFound('Creator not found');
  const tier = offeredTiers(creator.state).find((candidate) => candidate.tierId === tierId);
  if (!tier) throw refuse.notFound('Tier not found');

  const streamId = creatorSubscriptionStream(subscriberId, creatorId);
  const current = await loadState(store, streamId, creatorSubscriptionDecider);
  assertCanSubscribe(current.state, subscriberId, creatorId, context.now);
  if (!input.customerId) throw refuse.unprocessable('No card on file. Please add a payment method first.');

  const attempt = `${subscriberId}:${creatorId}:${current.revision ?? 'new'}`;
  const charge = await gateway.charge({
    customerId: input.customerId,
    amountCents: tier.priceCents,
    currency: 'USD',
    description: `Creator subscription: ${tier.name}`,
    idempotencyKey: `creatorSubscription:${attempt}`,
  });
  if (charge.status !== 'succeeded') throw refuse.declined(charge.failureReason);

  try {
    return await handleCommand(
      store,
      streamId,
      creatorSubscriptionDecider,
      {
        type: 'StartCreatorSubscription',
        subscriptionId: deterministicId('creatorSubscription', attempt),
        subscriberId,
        creatorId,
        tier: { tierId: tier.tierId, name: tier.name, priceCents: tier.priceCents },
        transactionId: charge.transactionId,
        at: context.now,
      },
      context,
    );
  } catch (error) {
    // The month did not start on this charge: give the money back. But a concurrent identical
    // request shares the attempt, hence the charge; if its month started on this very charge
    // (or our append was written after all), the charge paid for it and stands.
    const paidFor = await chargeStartedAMonth(store, streamId, charge.transactionId).catch(() => false);
    if (!paidFor)
      await gateway.refund({
        transactionId: charge.transactionId,
        amountCents: tier.priceCents,
        idempotencyKey: `refund:creatorSubscription:${attempt}`,
      });
    throw error;
  }
}

async function chargeStartedAMonth(store: EventStore, streamId: string, transactionId: string): Promise<boolean> {
  const events = await store.readStream(streamId);
  return events.some(
    (event) =>
      event.type === 'CreatorSubscriptionStarted' &&
      (event.data as { transactionId: string }).transactionId === transactionId,
  );
}
