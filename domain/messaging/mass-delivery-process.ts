import type { EventStore, RecordedEvent } from '../event-store/port';
import { handleCommand, metadataFor, type CommandContext } from '../shared/command-handler';
import { deterministicId } from '../shared/ids';
import type { ProcessManager } from '../shared/process-manager';
import { messageDecider } from './decider';
import { massMessageStream, messageStream, type MassMessageSent } from './events';
import { massMessageDecider } from './mass-decider';

/** How many recipients' messages go to the event store at once (its group commit writes them in a few statements). */
const DELIVERY_BATCH = 1000;

/** The id of the ordinary message a mass message becomes for one recipient: the same on every redelivery. */
export const massDeliveryMessageId = (massMessageId: string, recipientId: string) =>
  deterministicId('massMessage', massMessageId, recipientId);

/**
 * Delivers a mass message: each recipient gets an ordinary message (`MessageSent`, as the
 * message decider writes it, with `massMessageId`) on its own stream, whose id and event id
 * derive from (mass message, recipient). A redelivery after a crash appends the same events
 * again, which the store answers as already written: nobody gets it twice and nobody is
 * skipped. Then the mass message is recorded delivered, once.
 */
export const massMessageDeliveryProcess: ProcessManager = {
  name: 'mass-message-delivery',
  eventTypes: ['MassMessageSent'],
  async handle(event, { store, now }) {
    const sent = event.data as MassMessageSent['data'];
    await deliverMassMessage(store, sent, {
      actorId: sent.creatorId,
      correlationId: event.metadata.correlationId ?? event.eventId,
      causationId: event.eventId,
      now,
    });
  },
};

export async function deliverMassMessage(
  store: EventStore,
  sent: MassMessageSent['data'],
  context: CommandContext,
): Promise<void> {
  // Each message is sent at the mass message's time, whenever it is delivered.
  const metadata = metadataFor({ ...context, now: new Date(sent.sentAt) });
  const recipients = sent.recipientIds;
  for (let start = 0; start < recipients.length; start += DELIVERY_BATCH) {
    const batch = recipients.slice(start, start + DELIVERY_BATCH);
    await Promise.all(batch.map((recipientId) => deliverTo(store, sent, recipientId, metadata)));
  }
  await handleCommand(
    store,
    massMessageStream(sent.massMessageId),
    massMessageDecider,
    { type: 'RecordMassDelivery', deliveredCount: recipients.length, at: context.now },
    context,
    { eventIds: [deterministicId('mass-message-delivered', sent.massMessageId)] },
  );
}

function deliverTo(
  store: EventStore,
  sent: MassMessageSent['data'],
  receiverId: string,
  metadata: RecordedEvent['metadata'],
) {
  const messageId = massDeliveryMessageId(sent.massMessageId, receiverId);
  const events = messageDecider.decide(
    {
      type: 'SendMessage',
      messageId,
      senderId: sent.creatorId,
      senderIsCreator: true,
      receiverId,
      content: sent.content,
      priceCents: sent.priceCents,
      mediaIds: sent.mediaIds,
      massMessageId: sent.massMessageId,
      at: new Date(sent.sentAt),
    },
    messageDecider.initialState,
  );
  return store.append(
    messageStream(messageId),
    events.map((event) => ({ ...event, eventId: deterministicId('mass-message-delivery', messageId), metadata })),
    { expectedRevision: 'no_stream' },
  );
}
