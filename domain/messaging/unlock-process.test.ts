import { randomUUID } from 'node:crypto';
import { useTestDatabase } from '../../ops/testing/use-test-database';
import type { EventStore } from '../event-store/port';
import { handleCommand } from '../shared/command-handler';
import { spendBalance, creditBalance } from '../wallet/balance';
import { walletStream } from '../wallet/events';
import { messageDecider } from './decider';
import { messageStream } from './events';
import { unlockReference } from './unlock';
import { messageUnlockProcess } from './unlock-process';

let store: EventStore;
useTestDatabase((handles) => (store = handles.store));
const context = () => ({ actorId: null, now: new Date() });

async function paidMessage(receiverId: string) {
  const messageId = randomUUID();
  await handleCommand(
    store,
    messageStream(messageId),
    messageDecider,
    {
      type: 'SendMessage',
      messageId,
      senderId: randomUUID(),
      senderIsCreator: true,
      receiverId,
      content: 'Locked',
      priceCents: 500,
      at: new Date(),
    },
    context(),
  );
  return messageId;
}

/** A request that died right after paying: the spend is written, the unlock is not. */
async function paidButNotUnlocked(userId: string, messageId: string) {
  await creditBalance(store, userId, { amountCents: 500, reason: 'test', reference: `test:${messageId}` }, context());
  await spendBalance(
    store,
    userId,
    { amountCents: 500, reason: 'message_unlock', reference: unlockReference(messageId) },
    context(),
  );
  return (await store.readStream(walletStream(userId))).find((e) => e.type === 'WalletDebited')!;
}

const unlocks = async (messageId: string) =>
  (await store.readStream(messageStream(messageId))).filter((e) => e.type === 'MessageUnlocked');

describe('message unlock process', () => {
  it('unlocks a paid message whose request died after the spend, once however often it runs', async () => {
    const userId = randomUUID();
    const messageId = await paidMessage(userId);
    const spend = await paidButNotUnlocked(userId, messageId);
    for (let i = 0; i < 3; i++) await messageUnlockProcess.handle(spend, { store, now: new Date() });
    const written = await unlocks(messageId);
    expect(written).toHaveLength(1);
    expect(written[0].data).toMatchObject({
      messageId,
      receiverId: userId,
      paymentReference: unlockReference(messageId),
    });
    expect(written[0].metadata.causationId).toBe(spend.eventId);
  });

  it('leaves alone other spends, and a spend by someone who is not the receiver', async () => {
    const userId = randomUUID();
    const messageId = await paidMessage(randomUUID());
    const spend = await paidButNotUnlocked(userId, messageId);
    await messageUnlockProcess.handle(spend, { store, now: new Date() });
    const other = { ...spend, data: { ...(spend.data as object), reference: `membership:${randomUUID()}` } };
    await messageUnlockProcess.handle(other, { store, now: new Date() });
    expect(await unlocks(messageId)).toEqual([]);
  });
});
