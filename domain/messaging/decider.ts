import { checkedMediaIds } from '../posts/decider';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { MessageEvent } from './events';

export interface MessageState {
  sent: boolean;
  senderId: string | null;
  receiverId: string | null;
  priceCents: number | null;
  unlocked: boolean;
  content: string | null;
  sentAt: string | null;
  mediaIds: string[];
  massMessageId: string | null;
}

export type MessageCommand =
  | {
      type: 'SendMessage';
      messageId: string;
      senderId: string;
      senderIsCreator: boolean;
      receiverId: string;
      content: string;
      priceCents: number | null;
      /** Uploaded media in order; the caller checked they are the sender's own, ready items. */
      mediaIds?: string[];
      /** Set when delivered for a mass message (domain/messaging/mass-delivery-process.ts). */
      massMessageId?: string;
      at: Date;
    }
  | { type: 'UnlockMessage'; messageId: string; userId: string; paymentReference: string; at: Date };

export const messageDecider: Decider<MessageCommand, MessageState, MessageEvent> = {
  initialState: {
    sent: false,
    senderId: null,
    receiverId: null,
    priceCents: null,
    unlocked: false,
    content: null,
    sentAt: null,
    mediaIds: [],
    massMessageId: null,
  },
  evolve(state, event) {
    if (event.type === 'MessageSent') {
      return {
        ...state,
        sent: true,
        senderId: event.data.senderId,
        receiverId: event.data.receiverId,
        priceCents: event.data.priceCents,
        content: event.data.content,
        sentAt: event.data.sentAt,
        mediaIds: event.data.mediaIds ?? [],
        massMessageId: event.data.massMessageId ?? null,
      };
    }
    return { ...state, unlocked: true };
  },
  decide(command, state) {
    if (command.type === 'SendMessage') {
      if (state.sent) throw refuse.conflict('This message was already sent');
      if (command.senderId === command.receiverId) throw refuse.unprocessable('You cannot message yourself');
      const content = command.content.trim();
      if (!content) throw refuse.validation('Message cannot be empty', { content: 'Message cannot be empty' });
      if (command.priceCents !== null && !command.senderIsCreator)
        throw refuse.forbidden('Only creators can send paid messages');
      const media = checkedMediaIds(command.mediaIds ?? []);
      return [
        {
          type: 'MessageSent',
          data: {
            messageId: command.messageId,
            senderId: command.senderId,
            receiverId: command.receiverId,
            content,
            mediaUrl: null,
            priceCents: command.priceCents,
            sentAt: command.at.toISOString(),
            ...media,
            ...(command.massMessageId ? { massMessageId: command.massMessageId } : {}),
          },
        },
      ];
    }
    assertCanUnlock(state, command.userId);
    return [
      {
        type: 'MessageUnlocked',
        data: {
          messageId: command.messageId,
          senderId: state.senderId!,
          receiverId: state.receiverId!,
          priceCents: state.priceCents!,
          paymentReference: command.paymentReference,
          unlockedAt: command.at.toISOString(),
          ...(state.massMessageId ? { massMessageId: state.massMessageId } : {}),
        },
      },
    ];
  },
};

/** Only the receiver unlocks, only a paid message, only once. */
export function assertCanUnlock(state: MessageState, userId: string): void {
  if (!state.sent || (state.receiverId !== userId && state.senderId !== userId))
    throw refuse.notFound('Message not found');
  if (state.receiverId !== userId) throw refuse.forbidden('Only the receiver can unlock this message');
  if (state.priceCents === null) throw refuse.conflict('This message is not a paid message');
  if (state.unlocked) throw refuse.conflict('This message is already unlocked');
}
