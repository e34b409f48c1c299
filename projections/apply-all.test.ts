import type { Knex } from 'knex';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { messageDecider } from '../domain/messaging/decider';
import { messageStream } from '../domain/messaging/events';
import { creatorSubscriptionStream } from '../domain/creators/events';
import { creatorSubscriptionDecider } from '../domain/creators/subscription-decider';
import { creditEarnings, reverseCreatorShare, reverseEarnings } from '../domain/payouts/credit-earnings';
import { postDecider } from '../domain/posts/decider';
import { creditBalance, spendBalance } from '../domain/wallet/balance';
import { postStream } from '../domain/posts/events';
import { handleCommand } from '../domain/shared/command-handler';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { messagesProjector } from './messages';
import { postsProjector } from './posts';
import { creatorBalancesProjector } from './creator-balances';
import { walletBalancesProjector } from './wallet-balances';
import { ledgerProjector } from './ledger';
import { sampleMoneyHistory } from '../domain/ledger/testing/sample-history';
import { creatorSubscriptionsProjector } from './creator-subscriptions';
import { projectionContext, type Projector } from './engine/projector';
import { registerPerson, setAvatar } from './engine/testing/people';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';

let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

beforeAll(async () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const context = { actorId: 't', now: at };
  const [a, b] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
  const c = '33333333-3333-4333-8333-333333333333';
  for (let i = 0; i < 5; i++) {
    const id = `msg-${i}`;
    await handleCommand(
      store,
      messageStream(id),
      messageDecider,
      {
        type: 'SendMessage',
        messageId: id,
        senderId: a,
        senderIsCreator: true,
        receiverId: b,
        content: `m${i}`,
        priceCents: i % 2 ? 299 : null,
        at,
      },
      context,
    );
    if (i === 1)
      await handleCommand(
        store,
        messageStream(id),
        messageDecider,
        { type: 'UnlockMessage', messageId: id, userId: b, paymentReference: 'r', at },
        context,
      );
  }
  for (const [i, member] of [a, b].entries()) {
    const tier = { tierId: 't1', name: 'Gold', priceCents: 1500 };
    await handleCommand(
      store,
      creatorSubscriptionStream(member, c),
      creatorSubscriptionDecider,
      {
        type: 'StartCreatorSubscription',
        subscriptionId: `s${i}`,
        subscriberId: member,
        creatorId: c,
        tier,
        transactionId: `tx${i}`,
        at,
      },
      context,
    );
  }
  for (const reference of ['r1', 'r2', 'r3'])
    await creditEarnings(
      store,
      c,
      { grossCents: 1000, source: 'subscription', reference, occurredAt: at, payerId: a },
      context,
    );
  await reverseEarnings(store, c, { reference: 'r2', reason: 'refund' }, context);
  const partRefund = { reference: 'r3', reversalId: 'refund:re_1', cause: 'refund' as const, grossCents: 400 };
  await reverseCreatorShare(store, c, { ...partRefund, reason: 'part refunded' }, context);
  await creditEarnings(
    store,
    c,
    { grossCents: 500, source: 'message_unlock', reference: 'r4', occurredAt: at, payerId: b },
    context,
  );
  for (const [i, member] of [a, b, a].entries())
    await creditBalance(store, member, { amountCents: 1000, reason: 'crypto conversion', reference: `c${i}` }, context);
  await spendBalance(store, a, { amountCents: 299, reason: 'message_unlock', reference: 'u1' }, context);
  // Likes toggled back and forth on two posts, at different times, with a comment in between.
  // The author registered before both, and set a picture between them (on the first, and the second has it).
  await registerPerson(store, c, 'Cara', 'Author', at);
  for (const postId of ['post-1', 'post-2']) {
    await handleCommand(
      store,
      postStream(postId),
      postDecider,
      { type: 'PublishPost', postId, creatorId: c, title: 'T', content: 'C', mediaUrl: null, isPublic: true, at },
      context,
    );
    if (postId === 'post-1') await setAvatar(store, c, 'avatar-1', at);
  }
  // A post waiting for its time (issue 21): the scheduled posts' table.
  await handleCommand(
    store,
    postStream('post-3'),
    postDecider,
    {
      type: 'SchedulePost',
      postId: 'post-3',
      creatorId: c,
      title: 'Later',
      content: 'C',
      mediaUrl: null,
      isPublic: false,
      scheduledAt: new Date(at.getTime() + 86_400_000),
      at,
    },
    context,
  );
  const toggles: Array<[string, string]> = [
    ['post-1', a],
    ['post-1', b],
    ['post-2', a],
    ['post-1', a],
    ['post-1', a],
    ['post-2', b],
    ['post-1', b],
  ];
  for (const [i, [postId, userId]] of toggles.entries()) {
    const when = new Date(at.getTime() + (i + 1) * 60_000);
    await handleCommand(
      store,
      postStream(postId),
      postDecider,
      { type: 'ToggleLike', postId, userId, at: when },
      { actorId: userId, now: when },
    );
    if (i === 3)
      await handleCommand(
        store,
        postStream(postId),
        postDecider,
        { type: 'CommentOnPost', postId, commentId: 'k1', userId, content: 'Nice', at: when },
        context,
      );
  }
});

/** The read model built with applyAll over the log in batches of `size`, then the whole log again (a replayed batch). */
async function buildWithApplyAll(projector: Projector, schema: string, size = Infinity) {
  await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await projector.createTables(db, schema);
  const events = (await readWholeLog(store)).filter((e) => projector.eventTypes.includes(e.type));
  await db.transaction(async (trx) => {
    for (let i = 0; i < events.length; i += size)
      await projector.applyAll!(projectionContext(trx, schema), events.slice(i, i + size));
    await projector.applyAll!(projectionContext(trx, schema), events);
  });
  return dumpTables(db, projector, schema);
}

it.each([
  messagesProjector,
  postsProjector,
  creatorSubscriptionsProjector,
  creatorBalancesProjector,
  walletBalancesProjector,
])(
  '$name: applyAll (one batch, and batches of 2) leaves the rows apply leaves, one event at a time',
  async (projector) => {
    const { once } = await replayTwice(db, projector, await readWholeLog(store));
    expect(await buildWithApplyAll(projector, `apply_all_${projector.name}`)).toEqual(once);
    expect(await buildWithApplyAll(projector, `apply_all_${projector.name}_2`, 2)).toEqual(once);
    expect(Object.values(once).every((rows) => rows.length > 0)).toBe(true);
  },
);

it('posts: likes toggled in one batch end with the counts and rows of the last toggles', async () => {
  await buildWithApplyAll(postsProjector, 'apply_all_likes');
  const posts = await db
    .withSchema('apply_all_likes')
    .table('posts')
    .orderBy('id')
    .select('id', 'like_count', 'comment_count');
  expect(posts).toEqual([
    { id: 'post-1', like_count: 1, comment_count: 1 },
    { id: 'post-2', like_count: 2, comment_count: 0 },
  ]);
  const likes = await db
    .withSchema('apply_all_likes')
    .table('post_likes')
    .orderBy(['post_id', 'user_id'])
    .select('post_id', 'user_id', 'created_at');
  expect(likes.map((l) => [l.post_id, new Date(l.created_at).toISOString()])).toEqual([
    ['post-1', '2026-01-01T00:05:00.000Z'],
    ['post-2', '2026-01-01T00:03:00.000Z'],
    ['post-2', '2026-01-01T00:06:00.000Z'],
  ]);
});

it('ledger: applyAll over the sample money history (one batch, and batches of 3) leaves the rows apply leaves', async () => {
  const history = sampleMoneyHistory();
  const { once } = await replayTwice(db, ledgerProjector, history);
  const events = history.filter((e) => ledgerProjector.eventTypes.includes(e.type));
  for (const size of [events.length, 3]) {
    const schema = `apply_all_ledger_${size}`;
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.raw(`CREATE SCHEMA "${schema}"`);
    await ledgerProjector.createTables(db, schema);
    await db.transaction(async (trx) => {
      for (let i = 0; i < events.length; i += size)
        await ledgerProjector.applyAll!(projectionContext(trx, schema), events.slice(i, i + size));
      await ledgerProjector.applyAll!(projectionContext(trx, schema), events); // a replayed batch writes nothing new
    });
    expect(await dumpTables(db, ledgerProjector, schema)).toEqual(once);
  }
});

it('messages: a batch that sends and unlocks a message already stored locked (a replay) leaves it unlocked', async () => {
  const schema = 'apply_all_messages_replay';
  await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.raw(`CREATE SCHEMA "${schema}"`);
  await messagesProjector.createTables(db, schema);
  const events = (await readWholeLog(store)).filter((e) => messagesProjector.eventTypes.includes(e.type));
  await db.transaction(async (trx) => {
    await messagesProjector.applyAll!(
      projectionContext(trx, schema),
      events.filter((e) => e.type === 'MessageSent'),
    );
    await messagesProjector.applyAll!(projectionContext(trx, schema), events);
  });
  const unlocked = await db.withSchema(schema).table('messages').where({ is_unlocked: true }).orderBy('id').pluck('id');
  expect(unlocked).toEqual(['msg-0', 'msg-1', 'msg-2', 'msg-4']);
});
