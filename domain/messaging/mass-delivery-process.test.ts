import { randomUUID } from 'node:crypto';
import { useTestDatabase } from '../../ops/testing/use-test-database';
import type { EventStore } from '../event-store/port';
import { messageStream, massMessageStream, type MassMessageSent } from './events';
import { massDeliveryMessageId, massMessageDeliveryProcess } from './mass-delivery-process';
import { sendMassMessage } from './mass-message';

let store: EventStore;
useTestDatabase((handles) => (store = handles.store));

async function massMessage(recipientIds: string[]) {
  const creatorId = randomUUID();
  const result = await sendMassMessage(
    store,
    {
      massMessageId: randomUUID(),
      creatorId,
      senderIsCreator: true,
      segment: { kind: 'active' },
      content: 'Hello all',
      priceCents: 300,
      recipientIds,
    },
    { actorId: creatorId, now: new Date('2026-11-01T10:00:00Z') },
  );
  const [recorded] = await store.readStream(massMessageStream(result.state.massMessageId!));
  return recorded as typeof recorded & { data: MassMessageSent['data'] };
}

const inbox = async (sent: MassMessageSent['data'], recipientId: string) =>
  store.readStream(messageStream(massDeliveryMessageId(sent.massMessageId, recipientId)));

describe('mass message delivery', () => {
  it('gives every recipient one ordinary message, however often it is delivered', async () => {
    const recipients = Array.from({ length: 1200 }, () => randomUUID());
    const event = await massMessage(recipients);
    for (let i = 0; i < 2; i++) await massMessageDeliveryProcess.handle(event, { store, now: new Date() });
    for (const recipientId of [recipients[0], recipients[700], recipients[1199]]) {
      const messages = await inbox(event.data, recipientId);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        type: 'MessageSent',
        data: {
          receiverId: recipientId,
          senderId: event.data.creatorId,
          priceCents: 300,
          massMessageId: event.data.massMessageId,
        },
      });
    }
    const stream = await store.readStream(massMessageStream(event.data.massMessageId));
    expect(stream.map((e) => e.type)).toEqual(['MassMessageSent', 'MassMessageDelivered']);
    expect(stream[1].data).toMatchObject({ deliveredCount: 1200 });
  });

  it('after a crash halfway, a redelivery writes the missing messages and doubles none', async () => {
    const recipients = Array.from({ length: 10 }, () => randomUUID());
    const event = await massMessage(recipients);
    // The crashed run delivered the first half only, then died before recording the delivery.
    const half = { ...event, data: { ...event.data, recipientIds: recipients.slice(0, 5) } };
    const crashing = new Proxy(store, {
      get(target, property) {
        if (property === 'append')
          return (streamId: string, ...rest: [never, never]) =>
            streamId.startsWith('massMessage-') ? Promise.reject(new Error('crash')) : target.append(streamId, ...rest);
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(massMessageDeliveryProcess.handle(half, { store: crashing, now: new Date() })).rejects.toThrow(
      'crash',
    );
    await massMessageDeliveryProcess.handle(event, { store, now: new Date() });
    for (const recipientId of recipients) expect(await inbox(event.data, recipientId)).toHaveLength(1);
    const stream = await store.readStream(massMessageStream(event.data.massMessageId));
    expect(stream.map((e) => e.type)).toEqual(['MassMessageSent', 'MassMessageDelivered']);
  });
});
