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
    /** The mass message it was delivered for (issue 21); absent for a message sent one to one. */
    massMessageId?: string;
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
    /** The mass message it was delivered for (issue 21); absent for a message sent one to one. */
    massMessageId?: string;
  };
}
export type MessageEvent = MessageSent | MessageUnlocked;

/** Who a mass message goes to: all active subscribers, those of one tier, or those who lapsed in the last 90 days. */
export type MassMessageSegment = { kind: 'active' } | { kind: 'tier'; tierId: string } | { kind: 'lapsed' };

/** A creator sent one message to a segment (issue 21). Stream `massMessage-<massMessageId>`. */
export interface MassMessageSent {
  type: 'MassMessageSent';
  data: {
    massMessageId: string;
    creatorId: string;
    segment: MassMessageSegment;
    content: string;
    /** Integer cents; null for a free message. */
    priceCents: number | null;
    mediaIds?: string[];
    /** Resolved when sent (blocked members left out both ways), so delivery is a function of this event. */
    recipientIds: string[];
    sentAt: string;
  };
}

/** Every recipient has the message in their conversation. */
export interface MassMessageDelivered {
  type: 'MassMessageDelivered';
  data: { massMessageId: string; creatorId: string; deliveredCount: number; deliveredAt: string };
}

export type MassMessageEvent = MassMessageSent | MassMessageDelivered;

export const massMessageStream = (massMessageId: string) => `massMessage-${massMessageId}`;

export const messageStream = (messageId: string) => `message-${messageId}`;
