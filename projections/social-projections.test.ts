import type { Knex } from 'knex';
import { creatorDecider } from '../domain/creators/decider';
import { creatorStream, creatorSubscriptionStream } from '../domain/creators/events';
import { creatorSubscriptionDecider } from '../domain/creators/subscription-decider';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { messageDecider } from '../domain/messaging/decider';
import { messageStream } from '../domain/messaging/events';
import { postDecider } from '../domain/posts/decider';
import { postStream } from '../domain/posts/events';
import { handleCommand } from '../domain/shared/command-handler';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { creatorSubscriptionsProjector } from './creator-subscriptions';
import { creatorsProjector } from './creators';
import { messagesProjector } from './messages';
import { postsProjector } from './posts';
import { registerPerson, setAvatar } from './engine/testing/people';
import { replayTwice } from './engine/testing/replay-twice';
import { readWholeLog } from '../ops/testing/read-whole-log';

let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

beforeAll(async () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const context = { actorId: 't', now: at };
  const c = '11111111-1111-4111-8111-111111111111';
  const m = '22222222-2222-4222-8222-222222222222';
  const p = '33333333-3333-4333-8333-333333333333';
  await handleCommand(
    store,
    creatorStream(c),
    creatorDecider,
    { type: 'RegisterCreator', userId: c, bio: 'Bio', coverImageUrl: null, at },
    context,
  );
  await handleCommand(
    store,
    creatorStream(c),
    creatorDecider,
    {
      type: 'CreateTier',
      creatorId: c,
      tierId: 't1',
      name: 'Gold',
      description: '',
      priceCents: 1500,
      features: ['x'],
      at,
    },
    context,
  );
  await handleCommand(
    store,
    creatorStream(c),
    creatorDecider,
    {
      type: 'UpdateTier',
      creatorId: c,
      tierId: 't1',
      name: 'Gold+',
      description: 'd',
      priceCents: 1600,
      features: [],
      at,
    },
    context,
  );
  await handleCommand(
    store,
    creatorSubscriptionStream(m, c),
    creatorSubscriptionDecider,
    {
      type: 'StartCreatorSubscription',
      subscriptionId: 's1',
      subscriberId: m,
      creatorId: c,
      tier: { tierId: 't1', name: 'Gold+', priceCents: 1600 },
      transactionId: 'tx',
      at,
    },
    context,
  );
  await registerPerson(store, c, 'Cara', 'Author', at);
  await handleCommand(
    store,
    postStream(p),
    postDecider,
    { type: 'PublishPost', postId: p, creatorId: c, title: 'T', content: 'C', mediaUrl: null, isPublic: false, at },
    context,
  );
  await setAvatar(store, c, 'avatar-1', at);
  for (const userId of [m, c, m])
    await handleCommand(store, postStream(p), postDecider, { type: 'ToggleLike', postId: p, userId, at }, context);
  await handleCommand(
    store,
    postStream(p),
    postDecider,
    { type: 'CommentOnPost', postId: p, commentId: 'k1', userId: m, content: 'Nice', at },
    context,
  );
  // A post waiting for its time (issue 21).
  await handleCommand(
    store,
    postStream('scheduled'),
    postDecider,
    {
      type: 'SchedulePost',
      postId: 'scheduled',
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
  await handleCommand(
    store,
    messageStream('msg'),
    messageDecider,
    {
      type: 'SendMessage',
      messageId: 'msg',
      senderId: c,
      senderIsCreator: true,
      receiverId: m,
      content: 'Paid',
      priceCents: 499,
      at,
    },
    context,
  );
  await handleCommand(
    store,
    messageStream('msg'),
    messageDecider,
    { type: 'UnlockMessage', messageId: 'msg', userId: m, paymentReference: 'r', at },
    context,
  );
});

it.each([creatorsProjector, creatorSubscriptionsProjector, postsProjector, messagesProjector])(
  '$name is idempotent',
  async (projector) => {
    const { once, twice } = await replayTwice(db, projector, await readWholeLog(store));
    expect(twice).toEqual(once);
    expect(Object.values(once).every((rows) => rows.length > 0)).toBe(true);
  },
);

it('counts likes and comments once per event', async () => {
  await replayTwice(db, postsProjector, await readWholeLog(store));
  const post = await db.withSchema('replay_twice_posts').table('posts').first();
  expect([post.like_count, post.comment_count]).toEqual([1, 1]);
  const likes = await db.withSchema('replay_twice_posts').table('post_likes').select('user_id');
  expect(likes.map((row) => row.user_id)).toEqual(['11111111-1111-4111-8111-111111111111']);
});
