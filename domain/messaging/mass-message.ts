import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { massMessageStream, type MassMessageSegment } from './events';
import { massMessageDecider } from './mass-decider';

export interface MassMessageInput {
  massMessageId: string;
  creatorId: string;
  senderIsCreator: boolean;
  segment: MassMessageSegment;
  content: string;
  priceCents: number | null;
  /** The creator's own ready media, checked by the caller. */
  mediaIds?: string[];
  /** The segment's members now, blocked pairs left out (a read-model query of the caller). */
  recipientIds: string[];
}

/**
 * A creator sends one message to a segment. Only the mass message is written here; the
 * delivery process (`mass-delivery-process.ts`) gives each recipient an ordinary message.
 */
export function sendMassMessage(store: EventStore, input: MassMessageInput, context: CommandContext) {
  return handleCommand(
    store,
    massMessageStream(input.massMessageId),
    massMessageDecider,
    { type: 'SendMassMessage', ...input, at: context.now },
    context,
  );
}
