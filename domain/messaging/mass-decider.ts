import { checkedMediaIds } from '../posts/decider';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { MassMessageEvent, MassMessageSegment } from './events';

export interface MassMessageState {
  sent: boolean;
  massMessageId: string | null;
  creatorId: string | null;
  recipients: number;
  delivered: boolean;
}

export type MassMessageCommand =
  | {
      type: 'SendMassMessage';
      massMessageId: string;
      creatorId: string;
      senderIsCreator: boolean;
      segment: MassMessageSegment;
      content: string;
      priceCents: number | null;
      mediaIds?: string[];
      /** The segment's members when sent; the caller left out blocked pairs. */
      recipientIds: string[];
      at: Date;
    }
  | { type: 'RecordMassDelivery'; deliveredCount: number; at: Date };

/** One mass message: sent once to a fixed list of recipients, then recorded delivered once. */
export const massMessageDecider: Decider<MassMessageCommand, MassMessageState, MassMessageEvent> = {
  initialState: { sent: false, massMessageId: null, creatorId: null, recipients: 0, delivered: false },
  evolve(state, event) {
    if (event.type === 'MassMessageSent')
      return {
        ...state,
        sent: true,
        massMessageId: event.data.massMessageId,
        creatorId: event.data.creatorId,
        recipients: event.data.recipientIds.length,
      };
    return { ...state, delivered: true };
  },
  decide(command, state) {
    if (command.type === 'RecordMassDelivery') {
      if (!state.sent) throw refuse.notFound('Mass message not found');
      if (state.delivered) return [];
      return [
        {
          type: 'MassMessageDelivered',
          data: {
            massMessageId: state.massMessageId!,
            creatorId: state.creatorId!,
            deliveredCount: command.deliveredCount,
            deliveredAt: command.at.toISOString(),
          },
        },
      ];
    }
    // A retry of a request already sent (same Idempotency-Key): the first one stands.
    if (state.sent) return [];
    if (!command.senderIsCreator) throw refuse.forbidden('Only creators can send mass messages');
    const content = command.content.trim();
    if (!content) throw refuse.validation('Message cannot be empty', { content: 'Message cannot be empty' });
    const recipientIds = [...new Set(command.recipientIds)].filter((id) => id !== command.creatorId);
    if (recipientIds.length === 0)
      throw refuse.unprocessable('No one is in this segment yet', { code: 'EMPTY_SEGMENT' });
    return [
      {
        type: 'MassMessageSent',
        data: {
          massMessageId: command.massMessageId,
          creatorId: command.creatorId,
          segment: command.segment,
          content,
          priceCents: command.priceCents,
          ...checkedMediaIds(command.mediaIds ?? []),
          recipientIds,
          sentAt: command.at.toISOString(),
        },
      },
    ];
  },
};
