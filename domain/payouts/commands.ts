import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, type CommandContext, type CommandResult } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { newId } from '../shared/ids';
import { creatorAccountDecider, type CreatorAccountCommand } from './decider';
import { creatorAccountStream, type CreatorAccountEvent, type PaymentAccountType } from './events';
import type { PayoutGateway } from './gateway';

/**
 * The payouts context's way in: the creator-account commands the API runs (payment accounts,
 * payouts, staff decisions) and the port they take. Earnings are credited by the creators'
 * earnings process (credit-earnings.ts). api/ and realtime/ import this file and events.ts only.
 */
export type { PayoutGateway } from './gateway';

type Result = CommandResult<CreatorAccountEvent>;

const run = async (
  creatorId: string,
  store: EventStore,
  command: CreatorAccountCommand,
  context: CommandContext,
): Promise<Result> => {
  const { events, position, revision } = await handleCommand(
    store,
    creatorAccountStream(creatorId),
    creatorAccountDecider,
    command,
    context,
  );
  return { events, position, revision };
};

export async function addPaymentAccount(
  store: EventStore,
  gateway: PayoutGateway,
  creatorId: string,
  input: {
    type: PaymentAccountType;
    accountHolderName: string;
    bankAccountLast4?: string;
    routingNumber?: string;
    isDefault?: boolean;
  },
  context: CommandContext,
): Promise<Result & { paymentAccountId: string }> {
  const paymentAccountId = newId();
  const destination = await gateway.registerDestination({
    creatorId,
    type: input.type,
    accountHolderName: input.accountHolderName,
    bankAccountLast4: input.bankAccountLast4 ?? null,
    routingNumber: input.routingNumber ?? null,
    idempotencyKey: paymentAccountId,
  });
  const result = await run(
    creatorId,
    store,
    {
      type: 'AddPaymentAccount',
      creatorId,
      paymentAccountId,
      accountType: input.type,
      accountHolderName: input.accountHolderName,
      bankAccountLast4: input.bankAccountLast4 ?? null,
      routingNumber: input.routingNumber ?? null,
      stripeAccountId: destination.stripeAccountId,
      makeDefault: input.isDefault ?? false,
      isVerified: destination.verified,
      now: context.now,
    },
    context,
  );
  return { ...result, paymentAccountId };
}

/** The whole available balance to one of the creator's accounts; concurrent requests pay once. */
export async function requestPayout(
  store: EventStore,
  creatorId: string,
  input: { paymentAccountId: string; amountCents: number },
  context: CommandContext,
): Promise<Result & { payoutId: string }> {
  const payoutId = newId();
  const result = await run(
    creatorId,
    store,
    { type: 'RequestPayout', creatorId, payoutId, ...input, now: context.now },
    context,
  );
  return { ...result, payoutId };
}

/**
 * Finance staff start a payout: the transfer goes to the gateway (idempotent by payout id),
 * then the payout is processing; a transfer the processor rejects fails the payout at once.
 */
export async function processPayout(
  store: EventStore,
  gateway: PayoutGateway,
  creatorId: string,
  payoutId: string,
  context: CommandContext,
): Promise<Result> {
  const { state } = await loadState(store, creatorAccountStream(creatorId), creatorAccountDecider);
  const payout = state.payouts[payoutId];
  if (!payout) throw refuse.notFound('Payout not found');
  if (payout.status !== 'pending')
    throw refuse.conflict(`A ${payout.status} payout cannot be processed`, { status: payout.status });
  const account = state.paymentAccounts[payout.paymentAccountId];
  const transfer = await gateway.createTransfer({
    payoutId,
    destination: {
      type: account.type,
      stripeAccountId: account.stripeAccountId,
      bankAccountLast4: account.bankAccountLast4,
      routingNumber: account.routingNumber,
    },
    amountCents: payout.amountCents,
    currency: 'USD',
    idempotencyKey: `payout:${payoutId}`,
  });
  const staffId = context.actorId;
  const started = await run(
    creatorId,
    store,
    {
      type: 'StartPayoutProcessing',
      creatorId,
      payoutId,
      gatewayTransactionId: transfer.transactionId,
      staffId,
      now: context.now,
    },
    context,
  );
  if (transfer.status === 'submitted') return started;
  const failed = await run(
    creatorId,
    store,
    { type: 'FailPayout', creatorId, payoutId, reason: transfer.failureReason, staffId, now: context.now },
    context,
  );
  return { events: [...started.events, ...failed.events], position: failed.position, revision: failed.revision };
}

export type PayoutDecision =
  { action: 'complete' } | { action: 'fail'; reason: string } | { action: 'cancel'; reason: string };

export async function decidePayout(
  store: EventStore,
  creatorId: string,
  payoutId: string,
  decision: PayoutDecision,
  context: CommandContext,
): Promise<Result> {
  const base = { creatorId, payoutId, staffId: context.actorId, now: context.now };
  if (decision.action === 'complete') return run(creatorId, store, { type: 'CompletePayout', ...base }, context);
  if (decision.action === 'fail')
    return run(creatorId, store, { type: 'FailPayout', ...base, reason: decision.reason }, context);
  return run(creatorId, store, { type: 'CancelPayout', ...base, reason: decision.reason }, context);
}
