import { randomUUID } from 'node:crypto';
import { useTestDatabase } from '../../ops/testing/use-test-database';
import type { EventStore } from '../event-store/port';
import { handleCommand } from '../shared/command-handler';
import { balanceMovement } from '../shared/money-flows';
import { creditBalance, spendBalance } from '../wallet/balance';
import { walletStream } from '../wallet/events';
import { tipDecider } from './decider';
import { tipStream } from './events';
import { tipProcess } from './tip-process';

let store: EventStore;
useTestDatabase((handles) => (store = handles.store));
const context = () => ({ actorId: null, now: new Date() });

/** A request that died right after paying: the tip is requested and paid, not given. */
async function paidButNotGiven(tipperId: string) {
  const tipId = randomUUID();
  await handleCommand(
    store,
    tipStream(tipId),
    tipDecider,
    {
      type: 'RequestTip',
      tipId,
      tipperId,
      creatorId: randomUUID(),
      amountCents: 300,
      postId: null,
      message: null,
      source: 'balance',
      at: new Date(),
    },
    context(),
  );
  await creditBalance(store, tipperId, { amountCents: 300, reason: 'test', reference: `test:${tipId}` }, context());
  await spendBalance(store, tipperId, balanceMovement('tip', tipId, 300), context());
  const spend = (await store.readStream(walletStream(tipperId))).find((e) => e.type === 'WalletDebited')!;
  return { tipId, spend };
}

const given = async (tipId: string) => (await store.readStream(tipStream(tipId))).filter((e) => e.type === 'TipGiven');

describe('tip process', () => {
  it('gives a paid tip whose request died, once however often it runs', async () => {
    const tipperId = randomUUID();
    const { tipId, spend } = await paidButNotGiven(tipperId);
    for (let i = 0; i < 3; i++) await tipProcess.handle(spend, { store, now: new Date() });
    const written = await given(tipId);
    expect(written).toHaveLength(1);
    expect(written[0].data).toMatchObject({ tipId, tipperId, paymentReference: `tip:${tipId}` });
    expect(written[0].metadata.causationId).toBe(spend.eventId);
  });

  it('leaves alone a spend by someone else than the tipper', async () => {
    const { tipId, spend } = await paidButNotGiven(randomUUID());
    const other = { ...spend, data: { ...(spend.data as object), userId: randomUUID() } };
    await tipProcess.handle(other, { store, now: new Date() });
    expect(await given(tipId)).toEqual([]);
  });
});
