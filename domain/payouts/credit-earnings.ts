import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext, type CommandResult } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import { deterministicId } from '../shared/ids';
import { creatorAccountDecider } from './decider';
import { creatorAccountStream, type CreatorAccountEvent, type EarningsSource, type ShareReversalCause } from './events';

export interface EarningsInput {
  grossCents: number;
  source: EarningsSource;
  /** The sale's id (e.g. the charge or unlock event id): the same reference is credited once. */
  reference: string;
  occurredAt: Date | string;
  payerId?: string | null;
}

/** The event id of a credit: derived from creator and reference, so a replayed credit writes nothing. */
export const earningsEventId = (creatorId: string, reference: string): string =>
  deterministicId('EarningsCredited', creatorId, reference);

/**
 * Credits a sale to the creator: 90% to the creator, 10% platform fee, pending for the
 * 7-day chargeback hold. Idempotent by `reference`. Called by the creators context
 * (tier subscriptions, message unlocks).
 */
export async function creditEarnings(
  store: EventStore,
  creatorId: string,
  input: EarningsInput,
  context: CommandContext,
): Promise<CommandResult<CreatorAccountEvent>> {
  const occurredAt = typeof input.occurredAt === 'string' ? new Date(input.occurredAt) : input.occurredAt;
  if (Number.isNaN(occurredAt.getTime())) throw refuse.validation('occurredAt must be a date');
  if (!input.reference) throw refuse.validation('A reference is required');
  const result = await handleCommand(
    store,
    creatorAccountStream(creatorId),
    creatorAccountDecider,
    {
      type: 'CreditEarnings',
      creatorId,
      source: input.source,
      reference: input.reference,
      payerId: input.payerId ?? null,
      grossCents: input.grossCents,
      occurredAt,
    },
    context,
    { eventIds: [earningsEventId(creatorId, input.reference)] },
  );
  return { events: result.events, position: result.position, revision: result.revision };
}

/** Takes back a sale's earnings (refund or chargeback); idempotent by `reference`. */
export async function reverseEarnings(
  store: EventStore,
  creatorId: string,
  input: { reference: string; reason: string },
  context: CommandContext,
): Promise<CommandResult<CreatorAccountEvent>> {
  const result = await handleCommand(
    store,
    creatorAccountStream(creatorId),
    creatorAccountDecider,
    { type: 'ReverseEarnings', creatorId, reference: input.reference, reason: input.reason, now: context.now },
    context,
    { eventIds: [deterministicId('EarningsReversed', creatorId, input.reference)] },
  );
  return { events: result.events, position: result.position, revision: result.revision };
}

/**
 * Takes back the creator's share of part of a sale (a refund, a chargeback, the money-back
 * guarantee): once per `reversalId`, whose event id it derives. Pending first, then available,
 * the rest carried as a negative balance (see share-reversal.ts).
 */
export async function reverseCreatorShare(
  store: EventStore,
  creatorId: string,
  input: { reference: string; reversalId: string; cause: ShareReversalCause; grossCents: number; reason: string },
  context: CommandContext,
): Promise<CommandResult<CreatorAccountEvent>> {
  const result = await handleCommand(
    store,
    creatorAccountStream(creatorId),
    creatorAccountDecider,
    { type: 'ReverseCreatorShare', creatorId, ...input, now: context.now },
    context,
    { eventIds: [deterministicId('CreatorShareReversed', creatorId, input.reversalId)] },
  );
  return { events: result.events, position: result.position, revision: result.revision };
}
