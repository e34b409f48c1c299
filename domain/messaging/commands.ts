import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext } from '../shared/command-handler';
import { messageDecider } from './decider';
import { messageStream } from './events';

/**
 * The messaging context's way in: sending a message and unlocking a paid one (`unlock.ts`).
 * api/ and realtime/ import this file and events.ts only.
 */
export { unlockMessage } from './unlock';
export { sendMassMessage, type MassMessageInput } from './mass-message';
export type { MessageState } from './decider';

export interface SendMessageInput {
  messageId: string;
  senderId: string;
  /** Only creators may set a price. */
  senderIsCreator: boolean;
  receiverId: string;
  content: string;
  priceCents: number | null;
  /** Uploaded media in order (issue 18); the caller checked ownership and readiness. */
  mediaIds?: string[];
}

export function sendMessage(store: EventStore, input: SendMessageInput, context: CommandContext) {
  return handleCommand(
    store,
    messageStream(input.messageId),
    messageDecider,
    { type: 'SendMessage', ...input, at: context.now },
    context,
  );
}
