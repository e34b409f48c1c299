import type { Knex } from 'knex';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { messageDecider } from '../domain/messaging/decider';
import { messageStream } from '../domain/messaging/events';
import { postDecider } from '../domain/posts/decider';
import { postStream } from '../domain/posts/events';
import { handleCommand } from '../domain/shared/command-handler';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { projectionContext, type Projector } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';
import { messagesProjector } from './messages';
import { postsProjector } from './posts';

/** The ordered media ids of posts and messages (issue 18): replayed, batched or not, the same rows. */
let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

const [creator, member] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
const at = new Date('2026-01-01T00:00:00Z');

beforeAll(async () => {
  const context = { actorId: creator, now: at };
  const post = (postId: string, mediaIds?: string[]) =>
    handleCommand(
      store,
      postStream(postId),
      postDecider,
      {
        type: 'PublishPost',
        postId,
        creatorId: creator,
        title: 'T',
        content: 'C',
        mediaUrl: null,
        isPublic: false,
        mediaIds,
        at,
      },
      context,
    );
  const message = (messageId: string, mediaIds?: string[]) =>
    handleCommand(
      store,
      messageStream(messageId),
      messageDecider,
      {
        type: 'SendMessage',
        messageId,
        senderId: creator,
        senderIsCreator: true,
        receiverId: member,
        content: 'hi',
        priceCents: 300,
        mediaIds,
        at,
      },
      context,
    );
  await post('post-with-media', ['m-3', 'm-1', 'm-2']);
  await post('post-without');
  await message('message-with-media', ['m-2', 'm-9']);
  await message('message-without');
});

async function buildWithApplyAll(projector: Projector, schema: string) {
  await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await projector.createTables(db, schema);
  const events = (await readWholeLog(store)).filter((e) => projector.eventTypes.includes(e.type));
  await db.transaction(async (trx) => {
    await projector.applyAll!(projectionContext(trx, schema), events);
    await projector.applyAll!(projectionContext(trx, schema), events); // a replayed batch
  });
  return dumpTables(db, projector, schema);
}

it.each([
  ['posts', postsProjector, 'post-with-media', ['m-3', 'm-1', 'm-2']],
  ['messages', messagesProjector, 'message-with-media', ['m-2', 'm-9']],
] as const)(
  '%s keeps the media ids in order, the same by one-by-one, twice, and batched application',
  async (table, projector, id, ids) => {
    const { once, twice } = await replayTwice(db, projector, await readWholeLog(store));
    expect(twice).toEqual(once);
    expect(await buildWithApplyAll(projector, `media_ids_${projector.name}`)).toEqual(once);
    const rows = await db
      .withSchema(`replay_once_${projector.name}`)
      .table(table)
      .orderBy('id')
      .select('id', 'media_ids');
    expect(rows).toEqual([
      { id, media_ids: ids },
      { id: id.replace('with-media', 'without'), media_ids: null },
    ]);
  },
);
