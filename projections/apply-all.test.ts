import type { Knex } from 'knex';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { messageDecider } from '../domain/messaging/decider';
import { messageStream } from '../domain/messaging/events';
import { handleCommand } from '../domain/shared/command-handler';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { messagesProjector } from './messages';
import { projectionContext, type Projector } from './projector';
import { dumpTables, replayTwice } from './replay-twice';

let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

beforeAll(async () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const context = { actorId: 't', now: at };
  const [a, b] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
  for (let i = 0; i < 5; i++) {
    const id = `msg-${i}`;
    await handleCommand(store, messageStream(id), messageDecider, { type: 'SendMessage', messageId: id, senderId: a, senderIsCreator: true, receiverId: b, content: `m${i}`, priceCents: i % 2 ? 299 : null, at }, context);
    if (i === 1) await handleCommand(store, messageStream(id), messageDecider, { type: 'UnlockMessage', messageId: id, userId: b, paymentReference: 'r', at }, context);
  }
});

/** The read model built with applyAll over the whole log, given twice (a replayed batch). */
async function buildWithApplyAll(projector: Projector, schema: string) {
  await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await projector.createTables(db, schema);
  const events = (await readWholeLog(store)).filter((e) => projector.eventTypes.includes(e.type));
  await db.transaction(async (trx) => {
    for (let i = 0; i < 2; i++) await projector.applyAll!(projectionContext(trx, schema), events);
  });
  return dumpTables(db, projector, schema);
}

it.each([messagesProjector])('$name: applyAll leaves the rows apply leaves, one event at a time', async (projector) => {
  const { once } = await replayTwice(db, projector, await readWholeLog(store));
  expect(await buildWithApplyAll(projector, `apply_all_${projector.name}`)).toEqual(once);
  expect(once.messages).toHaveLength(5);
});
