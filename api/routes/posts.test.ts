import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Post } from '../../domain/contracts/posts';
import { createFsStorage } from '../../domain/media/fs-storage';
import { createMediaUrlSigner } from '../../domain/media/signed-url';
import type { MediaStorage } from '../../domain/media/storage';
import { mediaKey, type MediaVariant } from '../../domain/media/variants';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';
import { verifyIdentity } from '../../ops/testing/identity-verification';

/**
 * Posts over time through HTTP (issue 21): scheduled posts invisible to all but their creator
 * until the tick publishes them at their time (a movable clock), creators editing and deleting
 * their posts (and a deleted post's media no longer served through it), comments deleted by
 * their author or the post's creator; everyone else refused.
 */
jest.setTimeout(90_000);

let stack: TestStack;
let storageRoot: string;
let storage: MediaStorage;
let clockOffsetMs = 0;
const clock = () => new Date(Date.now() + clockOffsetMs);

beforeAll(async () => {
  storageRoot = await mkdtemp(join(tmpdir(), 'lively-posts-'));
  storage = createFsStorage(storageRoot);
  const mediaUrls = createMediaUrlSigner('a-test-secret-for-media-urls-0123456789', clock);
  stack = await startTestStack({ trustProxy: true, clock, ports: { mediaStorage: storage, mediaUrls } });
});
afterAll(async () => {
  await stack.close();
  await rm(storageRoot, { recursive: true, force: true });
});

type Member = TestMember;

const member = (firstName: string) => signUpMember(stack, firstName, { lastName: 'Posts' });

/** A processed image as the pipeline leaves it: its events, and its files in storage; once its read model has it. */
async function seedImage(ownerId: string): Promise<string> {
  const mediaId = randomUUID();
  const variants: MediaVariant[] = ['w320.webp', 'w640.webp', 'preview.webp'];
  const at = new Date().toISOString();
  await stack.store.append(
    `media-${mediaId}`,
    [
      { type: 'MediaUploaded', data: { mediaId, ownerId, kind: 'image', mime: 'image/jpeg', bytes: 5000, at } },
      { type: 'MediaProcessed', data: { mediaId, width: 640, height: 480, variants, at } },
    ],
    { expectedRevision: 'no_stream' },
  );
  for (const variant of variants) await storage.put(mediaKey(mediaId, variant), randomBytes(2000), 'image/webp');
  // Posts check attachments on the media read model, as a creator's composer finds them ready.
  expect(await stack.settle()).toBe(true);
  return mediaId;
}

const ids = (posts: Post[]) => posts.map((post) => post.id);
const feedIds = async (who: Member) => ids((await who.agent.get('/api/posts/feed').expect(200)).body.posts);
const pageIds = async (who: Member) => ids((await who.agent.get(`/api/creators/${creator.id}/posts`).expect(200)).body);
const publishEvents = async (postId: string) =>
  (await stack.store.readStream(`post-${postId}`)).filter((event) => event.type === 'PostPublished');

let creator: Member;
let subscriber: Member;
let stranger: Member;

beforeAll(async () => {
  [creator, subscriber, stranger] = await Promise.all([member('Cleo'), member('Sue'), member('Stu')]);
  await creator.agent.post('/api/creators/register').send({ bio: 'Notes from the studio' }).expect(201);
  await stranger.agent.post('/api/creators/register').send({ bio: 'Another studio' }).expect(201);
  await verifyIdentity(stack, creator.agent, creator.id); // locked posts need it (issue 20)
  await subscriber.agent
    .post('/api/subscriptions')
    .send({ creatorId: creator.id, tierId: 'default-premium' })
    .expect(201);
});

afterEach(() => {
  clockOffsetMs = 0;
});

describe('scheduled posts', () => {
  const hour = 60 * 60_000;

  it('refuses a time in the past, more than a year ahead, or not a time at all', async () => {
    const post = { title: 'When?', content: 'Later' };
    const past = await creator.agent
      .post('/api/posts')
      .send({ ...post, scheduledAt: new Date(Date.now() - 60_000).toISOString() })
      .expect(400);
    expect(past.body.error).toBe('A post can only be scheduled for a time in the future');
    const far = await creator.agent
      .post('/api/posts')
      .send({ ...post, scheduledAt: new Date(Date.now() + 400 * 24 * hour).toISOString() })
      .expect(400);
    expect(far.body.error).toBe('A post can be scheduled at most a year ahead');
    await creator.agent
      .post('/api/posts')
      .send({ ...post, scheduledAt: 'tomorrow-ish' })
      .expect(400);
  });

  it('is seen only by its creator until its time, then comes out once for everyone', async () => {
    const mediaId = await seedImage(creator.id);
    const scheduledAt = new Date(Date.now() + 2 * hour).toISOString();
    const created = await creator.agent
      .post('/api/posts')
      .send({ title: 'Premiere', content: 'The new series', scheduledAt, mediaIds: [mediaId] })
      .expect(201);
    const postId = created.body.id as string;
    expect(created.body).toMatchObject({ title: 'Premiere', scheduledAt, createdAt: scheduledAt });

    // Before its time: the creator's scheduled list and the post by id; nobody else sees any of it.
    const listed = (await creator.agent.get('/api/posts/scheduled').expect(200)).body as Post[];
    expect(ids(listed)).toEqual([postId]);
    expect(listed[0].media[0].url).toBeDefined();
    await creator.agent.get(`/api/posts/${postId}`).expect(200);
    expect(await feedIds(creator)).not.toContain(postId);
    await subscriber.agent.get(`/api/posts/${postId}`).expect(404);
    expect(await feedIds(subscriber)).not.toContain(postId);
    expect(await pageIds(subscriber)).not.toContain(postId);
    expect((await subscriber.agent.get('/api/posts/scheduled').expect(200)).body).toEqual([]);
    const fullUrl = listed[0].media[0].url!;
    await subscriber.agent.get(fullUrl).expect(403);
    await subscriber.agent.get(listed[0].media[0].previewUrl).expect(403);
    await subscriber.agent.patch(`/api/posts/${postId}`).send({ title: 'Mine now' }).expect(404);
    await subscriber.agent.delete(`/api/posts/${postId}`).expect(404);

    // A tick before its time publishes nothing.
    clockOffsetMs = hour;
    await stack.tickers.runOnce();
    expect(await stack.settle()).toBe(true);
    await subscriber.agent.get(`/api/posts/${postId}`).expect(404);

    // At its time: out, in its place in the feed, once however often the tick runs.
    clockOffsetMs = 2 * hour + 1000;
    await Promise.all([stack.tickers.runOnce(), stack.tickers.runOnce()]);
    await stack.tickers.runOnce();
    expect(await stack.settle()).toBe(true);
    expect(await publishEvents(postId)).toHaveLength(1);
    const seen = (await subscriber.agent.get(`/api/posts/${postId}`).expect(200)).body as Post;
    expect(seen).toMatchObject({ title: 'Premiere', content: 'The new series', locked: false, createdAt: scheduledAt });
    expect(seen.scheduledAt).toBeUndefined();
    expect(await feedIds(subscriber)).toContain(postId);
    expect(await pageIds(subscriber)).toContain(postId);
    expect((await creator.agent.get('/api/posts/scheduled').expect(200)).body).toEqual([]);
    await subscriber.agent.get(seen.media[0].url!).expect(200);
  });

  it('is edited (text, time, lock, media) and cancelled by its creator before its time', async () => {
    const mediaId = await seedImage(creator.id);
    const post = (
      await creator.agent
        .post('/api/posts')
        .send({ title: 'Draft', content: 'v1', isPublic: true, scheduledAt: new Date(Date.now() + hour).toISOString() })
        .expect(201)
    ).body as Post;
    const later = new Date(Date.now() + 5 * hour).toISOString();
    const edited = await creator.agent
      .patch(`/api/posts/${post.id}`)
      .send({ content: 'v2', scheduledAt: later, isPublic: false, mediaIds: [mediaId] })
      .expect(200);
    expect(edited.body).toMatchObject({ title: 'Draft', content: 'v2', isPublic: false, scheduledAt: later });
    expect(edited.body.media.map((m: { id: string }) => m.id)).toEqual([mediaId]);
    await creator.agent
      .patch(`/api/posts/${post.id}`)
      .send({ scheduledAt: new Date(Date.now() - 1000).toISOString() })
      .expect(400);
    await creator.agent.patch(`/api/posts/${post.id}`).send({}).expect(400);

    // Its original time passes: the edit moved it, so nothing comes out.
    clockOffsetMs = 2 * hour;
    await stack.tickers.runOnce();
    expect(await stack.settle()).toBe(true);
    expect(await publishEvents(post.id)).toHaveLength(0);

    await creator.agent.delete(`/api/posts/${post.id}`).expect(204);
    clockOffsetMs = 6 * hour;
    await stack.tickers.runOnce();
    expect(await stack.settle()).toBe(true);
    expect(await publishEvents(post.id)).toHaveLength(0);
    await creator.agent.get(`/api/posts/${post.id}`).expect(404);
    // The cancelled post let go of its media: the creator may delete the item.
    await creator.agent.delete(`/api/media/${mediaId}`).expect(204);
  });
});

describe('editing and deleting posts', () => {
  it('lets the creator edit a published post and refuses anyone else', async () => {
    const post = (
      await creator.agent.post('/api/posts').send({ title: 'Typo', content: 'teh text', isPublic: true }).expect(201)
    ).body as Post;
    const refused = await stranger.agent.patch(`/api/posts/${post.id}`).send({ content: 'mine' }).expect(403);
    expect(refused.body.error).toBe('Only the creator of this post can change it');
    await subscriber.agent.delete(`/api/posts/${post.id}`).expect(403);
    const edited = await creator.agent.patch(`/api/posts/${post.id}`).send({ content: 'the text' }).expect(200);
    expect(edited.body).toMatchObject({ title: 'Typo', content: 'the text', isPublic: true });
    expect((await subscriber.agent.get(`/api/posts/${post.id}`).expect(200)).body.content).toBe('the text');
    const moved = await creator.agent
      .patch(`/api/posts/${post.id}`)
      .send({ scheduledAt: new Date(Date.now() + 60_000).toISOString() })
      .expect(409);
    expect(moved.body.error).toBe('This post is published already; its time can no longer change');
  });

  it('deletes a post everywhere, and its media are no longer served through it', async () => {
    const mediaId = await seedImage(creator.id);
    const post = (
      await creator.agent
        .post('/api/posts')
        .send({ title: 'Gone soon', content: 'x', mediaIds: [mediaId] })
        .expect(201)
    ).body as Post;
    await subscriber.agent.post(`/api/posts/${post.id}/like`).expect(200);
    const seen = (await subscriber.agent.get(`/api/posts/${post.id}`).expect(200)).body as Post;
    await subscriber.agent.get(seen.media[0].url!).expect(200);
    const inUse = await creator.agent.delete(`/api/media/${mediaId}`);
    expect(inUse.status).toBeGreaterThanOrEqual(400);

    await creator.agent.delete(`/api/posts/${post.id}`).expect(204);
    await subscriber.agent.get(`/api/posts/${post.id}`).expect(404);
    await creator.agent.get(`/api/posts/${post.id}`).expect(404);
    expect(await feedIds(subscriber)).not.toContain(post.id);
    expect(await pageIds(creator)).not.toContain(post.id);
    await subscriber.agent.post(`/api/posts/${post.id}/like`).expect(404);
    await creator.agent.delete(`/api/posts/${post.id}`).expect(404);
    const refused = await subscriber.agent.get(seen.media[0].url!).expect(403);
    expect(refused.body.code).toBe('MEDIA_FORBIDDEN');
    await subscriber.agent.get(seen.media[0].previewUrl).expect(403);
    await creator.agent.delete(`/api/media/${mediaId}`).expect(204);
  });
});

describe('deleting comments', () => {
  it('lets the author or the post creator delete a comment, nobody else', async () => {
    const post = (
      await creator.agent.post('/api/posts').send({ title: 'Talk', content: 'Say hi', isPublic: true }).expect(201)
    ).body as Post;
    const comment = async (who: Member, content: string) =>
      (await who.agent.post(`/api/posts/${post.id}/comments`).send({ content }).expect(201)).body.id as string;
    const mine = await comment(subscriber, 'hi from Sue');
    const theirs = await comment(stranger, 'hi from Stu');
    const refused = await stranger.agent.delete(`/api/posts/${post.id}/comments/${mine}`).expect(403);
    expect(refused.body.error).toBe('Only the author of a comment or the creator of the post can delete it');
    await subscriber.agent.delete(`/api/posts/${post.id}/comments/${mine}`).expect(204);
    await creator.agent.delete(`/api/posts/${post.id}/comments/${theirs}`).expect(204);
    await subscriber.agent.delete(`/api/posts/${post.id}/comments/${mine}`).expect(404);
    await subscriber.agent.delete(`/api/posts/${post.id}/comments/not-an-id`).expect(404);
    expect((await subscriber.agent.get(`/api/posts/${post.id}/comments`).expect(200)).body).toEqual([]);
    expect((await subscriber.agent.get(`/api/posts/${post.id}`).expect(200)).body.commentCount).toBe(0);
  });
});

describe('paging through the feed', () => {
  /** Every page of `who`'s feed, `limit` posts a page, following each page's cursor to the end. */
  async function pagedFeed(who: Member, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, unknown> = cursor ? { limit, cursor } : { limit };
      const page = (await who.agent.get('/api/posts/feed').query(query).expect(200)).body;
      expect(page.posts.length).toBeLessThanOrEqual(limit);
      seen.push(...ids(page.posts));
      cursor = page.nextCursor;
    } while (cursor);
    return seen;
  }

  it('reaches every post page by page, also when they all come from one source', async () => {
    // A member without subscriptions reads public posts only: one source of posts.
    const newcomer = await member('Nia');
    for (const title of ['First light', 'Second take', 'Third act'])
      await creator.agent.post('/api/posts').send({ title, content: 'Open to all', isPublic: true }).expect(201);
    const all = ids((await newcomer.agent.get('/api/posts/feed').query({ limit: 50 }).expect(200)).body.posts);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(await pagedFeed(newcomer, 1)).toEqual(all);
    expect(await pagedFeed(newcomer, 2)).toEqual(all);
    // A subscriber's feed mixes the creator's locked posts in: the same, page by page.
    const full = ids((await subscriber.agent.get('/api/posts/feed').query({ limit: 50 }).expect(200)).body.posts);
    expect(await pagedFeed(subscriber, 1)).toEqual(full);
  });
});
