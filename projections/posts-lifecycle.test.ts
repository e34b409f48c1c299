import type { Knex } from 'knex';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { postDecider, type PostCommand } from '../domain/posts/decider';
import { postStream } from '../domain/posts/events';
import { handleCommand } from '../domain/shared/command-handler';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { projectionContext } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';
import { mediaProjector } from './media';
import { postsProjector } from './posts';

/**
 * Posts over time in the read models (issue 21): a scheduled post waits in `scheduled_posts`
 * and moves to `posts` when published; edits rewrite it where it is; a deletion removes the
 * post, its likes and comments, and its media attachments. Rebuilt one by one, twice, and in
 * batches, the rows are the same.
 */
let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

const creator = '11111111-1111-4111-8111-111111111111';
const member = '22222222-2222-4222-8222-222222222222';
const at = new Date('2026-03-01T10:00:00Z');
const minutes = (n: number) => new Date(at.getTime() + n * 60_000);
const post = { creatorId: creator, content: 'C', mediaUrl: null, isPublic: true };

async function run(postId: string, command: PostCommand) {
  await handleCommand(store, postStream(postId), postDecider, command, { actorId: 't', now: command.at });
}

beforeAll(async () => {
  // s1: scheduled with media, edited (new time, other media), published by the tick, then edited again.
  await run('s1', {
    type: 'SchedulePost',
    postId: 's1',
    ...post,
    title: 'S1',
    mediaIds: ['m1'],
    scheduledAt: minutes(30),
    at,
  });
  const edit = { type: 'EditPost' as const, postId: 's1', actorId: creator, at: minutes(1) };
  await run('s1', { ...edit, changes: { scheduledAt: minutes(60), mediaIds: ['m2'] } });
  await run('s1', { type: 'PublishScheduledPost', postId: 's1', at: minutes(61) });
  await run('s1', { ...edit, changes: { title: 'S1 edited' }, at: minutes(62) });
  // s2: still waiting for its time.
  await run('s2', { type: 'SchedulePost', postId: 's2', ...post, title: 'S2', scheduledAt: minutes(600), at });
  // s3: scheduled, then cancelled.
  await run('s3', {
    type: 'SchedulePost',
    postId: 's3',
    ...post,
    title: 'S3',
    mediaIds: ['m3'],
    scheduledAt: minutes(90),
    at,
  });
  await run('s3', { type: 'DeletePost', postId: 's3', actorId: creator, at: minutes(2) });
  // p1: published, liked, commented twice, one comment deleted.
  await run('p1', { type: 'PublishPost', postId: 'p1', ...post, title: 'P1', at });
  await run('p1', { type: 'ToggleLike', postId: 'p1', userId: member, at: minutes(3) });
  for (const commentId of ['k1', 'k2'])
    await run('p1', { type: 'CommentOnPost', postId: 'p1', commentId, userId: member, content: 'hi', at: minutes(4) });
  await run('p1', { type: 'DeleteComment', postId: 'p1', commentId: 'k1', actorId: creator, at: minutes(5) });
  // p2: published with media, liked, commented, deleted.
  await run('p2', { type: 'PublishPost', postId: 'p2', ...post, title: 'P2', mediaIds: ['m4'], at });
  await run('p2', { type: 'ToggleLike', postId: 'p2', userId: member, at: minutes(3) });
  await run('p2', {
    type: 'CommentOnPost',
    postId: 'p2',
    commentId: 'k3',
    userId: member,
    content: 'x',
    at: minutes(4),
  });
  await run('p2', { type: 'DeletePost', postId: 'p2', actorId: creator, at: minutes(6) });
});

const rows = (schema: string, table: string, columns: string[]) =>
  db.withSchema(schema).table(table).orderBy(columns[0]).select(columns);

it('keeps scheduled posts apart until published, and deleted posts gone with their likes and comments', async () => {
  const { once, twice } = await replayTwice(db, postsProjector, await readWholeLog(store));
  expect(twice).toEqual(once);
  const schema = `replay_once_${postsProjector.name}`;
  expect(await rows(schema, 'posts', ['id', 'title', 'created_at', 'like_count', 'comment_count'])).toEqual([
    { id: 'p1', title: 'P1', created_at: at, like_count: 1, comment_count: 1 },
    { id: 's1', title: 'S1 edited', created_at: minutes(60), like_count: 0, comment_count: 0 },
  ]);
  expect(await rows(schema, 'scheduled_posts', ['id', 'scheduled_at'])).toEqual([
    { id: 's2', scheduled_at: minutes(600) },
  ]);
  expect(await rows(schema, 'post_comments', ['id'])).toEqual([{ id: 'k2' }]);
  expect(await rows(schema, 'post_likes', ['post_id'])).toEqual([{ post_id: 'p1' }]);
});

it('attaches the media a post carries as last edited, and none of a deleted post', async () => {
  const { once, twice } = await replayTwice(db, mediaProjector, await readWholeLog(store));
  expect(twice).toEqual(once);
  expect(await rows(`replay_once_${mediaProjector.name}`, 'media_attachments', ['media_id', 'target_id'])).toEqual([
    { media_id: 'm2', target_id: 's1' },
  ]);
});

it('builds the same rows in batches (and a replayed batch) as one event at a time', async () => {
  const events = (await readWholeLog(store)).filter((e) => postsProjector.eventTypes.includes(e.type));
  const { once } = await replayTwice(db, postsProjector, events);
  for (const size of [Infinity, 2, 3]) {
    const schema = `posts_batches_${size === Infinity ? 'all' : size}`;
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.raw(`CREATE SCHEMA "${schema}"`);
    await postsProjector.createTables(db, schema);
    await db.transaction(async (trx) => {
      for (let i = 0; i < events.length; i += size)
        await postsProjector.applyAll!(projectionContext(trx, schema), events.slice(i, i + size));
      await postsProjector.applyAll!(projectionContext(trx, schema), events);
    });
    expect(await dumpTables(db, postsProjector, schema)).toEqual(once);
  }
});
