import { creatorDecider } from '../creators/decider';
import { creatorStream } from '../creators/events';
import type { EventStore } from '../event-store/port';
import type { PaymentGateway } from '../payments/gateway';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { DomainError, refuse } from '../shared/errors';
import { balanceMovement } from '../shared/money-flows';
import { spendBalance } from '../wallet/balance';
import { tipDecider } from './decider';
import { tipStream, type TipSource } from './events';

export interface TipInput {
  /** Derived by the caller from the request's idempotency key: a retry is the same tip. */
  tipId: string;
  tipperId: string;
  creatorId: string;
  amountCents: number;
  postId: string | null;
  message: string | null;
  source: TipSource;
  /** The member's card on file at the gateway; null when none is saved. */
  customerId: string | null;
}

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * A member tips a creator: the tip is requested (its terms on its own stream), paid from the
 * card on file (charge keyed by the tip) or the USD balance (movement `tip:<tipId>`), then
 * given. Every step is keyed by the tip, so a retry pays once; a balance spend whose request
 * died is given by the tip process, and a card charge the tip was not given on is refunded.
 * The creator's 90% is credited by the creator-earnings process on TipGiven.
 */
export async function tipCreator(store: EventStore, gateway: PaymentGateway, input: TipInput, context: CommandContext) {
  const { tipId, customerId, ...terms } = input;
  const creator = await loadState(store, creatorStream(terms.creatorId), creatorDecider);
  if (!creator.state.registered) throw refuse.notFound('Creator not found');
  if (terms.source === 'card' && !customerId)
    throw refuse.unprocessable('No card on file. Please add a payment method first.');
  const streamId = tipStream(tipId);
  const requested = await handleCommand(
    store,
    streamId,
    tipDecider,
    { type: 'RequestTip', tipId, ...terms, at: context.now },
    context,
  );
  if (requested.state.given) return requested;
  const amountCents = requested.state.terms!.amountCents;

  if (terms.source === 'balance') {
    const movement = balanceMovement('tip', tipId, amountCents);
    await spendOrDecline(store, terms.tipperId, movement, context);
    return give(store, tipId, { transactionId: null, paymentReference: movement.reference }, context);
  }

  const charge = await gateway.charge({
    customerId: customerId!,
    amountCents,
    currency: 'USD',
    description: `Tip for a creator`,
    idempotencyKey: `tip:${tipId}`,
  });
  if (charge.status !== 'succeeded') throw refuse.declined(charge.failureReason);
  try {
    return await give(store, tipId, { transactionId: charge.transactionId, paymentReference: null }, context);
  } catch (error) {
    const given = await loadState(store, streamId, tipDecider).catch(() => null);
    if (!given?.state.given)
      await gateway.refund({ transactionId: charge.transactionId, amountCents, idempotencyKey: `refund:tip:${tipId}` });
    throw error;
  }
}

const give = (
  store: EventStore,
  tipId: string,
  payment: { transactionId: string | null; paymentReference: string | null },
  context: CommandContext,
) => handleCommand(store, tipStream(tipId), tipDecider, { type: 'GiveTip', ...payment, at: context.now }, context);

async function spendOrDecline(
  store: EventStore,
  userId: string,
  movement: ReturnType<typeof balanceMovement>,
  context: CommandContext,
) {
  try {
    await spendBalance(store, userId, movement, context);
  } catch (error) {
    if (error instanceof DomainError && error.message === 'Insufficient balance') {
      const balanceCents = Number(error.details.balanceCents ?? 0);
      throw refuse.declined(
        `Insufficient balance: this tip is ${usd(movement.amountCents)} and your balance is ${usd(balanceCents)}. Convert crypto in your wallet to add funds.`,
      );
    }
    throw error;
  }
}
