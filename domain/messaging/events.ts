/** Facts of direct messages. Stream `message-<messageId>`. */

export interface MessageSent {
  type: 'MessageSent';
  data: {
    messageId: string;
    senderId: string;
    receiverId: string;
    content: string;
    mediaUrl: string | null;
    /** Integer cents; null for a free message. */
    priceCents: number | null;
    sentAt: string;
    /** Uploaded media (issue 18), in the order shown; absent when there is none. */
    mediaIds?: string[];
  };
}
export interface MessageUnlocked {
  type: 'MessageUnlocked';
  data: {
    messageId: string;
    senderId: string;
    receiverId: string;
    priceCents: number;
    paymentReference: string;
    unlockedAt: string;
  };
}
export type MessageEvent = MessageSent | MessageUnlocked;

export const messageStream = (messageId: string) => `message-${messageId}`;
