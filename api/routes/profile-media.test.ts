import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { MediaItem } from '../../domain/contracts/media';
import type { ProfileImageResult } from '../../domain/contracts/profile-media';
import { createMemoryStorage } from '../../domain/media/testing/memory-storage';
import { postDecider } from '../../domain/posts/decider';
import { postStream } from '../../domain/posts/events';
import { handleCommand } from '../../domain/shared/command-handler';
import { findCreator } from '../../projections/creators';
import { readAs } from '../../projections/page-reads';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { eventually, person, ready } from '../../ops/testing/payouts-fixtures';

/**
 * Avatar and cover from one's own media (issue 18): the crop is cut server-side into a new,
 * public item; the profile fields show its URL; anyone, signed out too, fetches it.
 */
jest.setTimeout(180_000);

const storage = createMemoryStorage();
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    ports: {
      mediaStorage: storage,
      mediaSettings: {
        dataDir: mkdtempSync(path.join(tmpdir(), 'lively-profile-media-')),
        queue: { pollMs: 100, retryDelaySeconds: 1 },
      },
    },
  });
  await ready(stack);
});
afterAll(() => stack?.close());

type Agent = Awaited<ReturnType<typeof person>>['agent'];

/** 1200x800: red on the left half, blue on the right, so a crop shows which side it kept. */
const halves = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#ff0000' } })
    .composite([
      {
        input: { create: { width: 600, height: 800, channels: 3, background: '#0000ff' } },
        left: 600,
        top: 0,
      },
    ])
    .png()
    .toBuffer();

async function uploadReady(agent: Agent): Promise<MediaItem> {
  const created = await agent
    .post('/api/media')
    .attach('file', await halves(), { filename: 'halves.png', contentType: 'image/png' })
    .expect(201);
  const res = await eventually(
    () => agent.get(`/api/media/${created.body.id}`),
    (r) => r.status !== 200 || r.body.status !== 'processing',
    120_000,
  );
  expect(res.body).toMatchObject({ status: 'ready', width: 1200, height: 800 });
  return res.body;
}

/** The file at a public URL, fetched with no session at all. */
async function fetchSignedOut(url: string) {
  const res = await stack.agent().get(url).buffer(true).expect(200);
  return { res, image: await sharp(res.body).stats(), size: await sharp(res.body).metadata() };
}

/** A public post by the creator, published as the posts context records it. */
function publishPublicPost(creatorId: string, title: string) {
  const postId = randomUUID();
  const publish = { postId, creatorId, title, content: 'Hello', mediaUrl: null, isPublic: true };
  const context = { actorId: creatorId, now: new Date() };
  return handleCommand(
    stack.store,
    postStream(postId),
    postDecider,
    { type: 'PublishPost', ...publish, at: new Date() },
    context,
  );
}

describe('avatar and cover from media', () => {
  it('sets the avatar from a square crop, shown in the profile and served to anyone signed out', async () => {
    const creator = await person(stack, 'creator');
    await publishPublicPost(creator.userId, 'Before the picture');
    const item = await uploadReady(creator.agent);
    const set = await creator.agent
      .put('/api/me/avatar')
      .send({ mediaId: item.id, crop: { x: 700, y: 100, width: 400, height: 400 } })
      .expect(200);
    const result = set.body as ProfileImageResult;
    expect(result.url).toBe(`/api/media/${result.mediaId}/public/w320.webp`);
    expect(result.mediaId).not.toBe(item.id);
    expect(result.width).toBe(result.height);

    const me = await creator.agent.get('/api/auth/user').expect(200);
    expect(me.body.profileImageUrl).toBe(result.url);
    // The creator card and page read the same field.
    expect((await findCreator(readAs(stack.db, null), new Date(), creator.userId))?.profileImageUrl).toBe(result.url);
    // Their posts carry it (as a page of posts shows it), those from before it and those after.
    await publishPublicPost(creator.userId, 'After the picture');
    expect(await stack.settle()).toBe(true);
    const pictures = await stack.db('posts').where({ creator_id: creator.userId }).pluck('author_image_url');
    expect(pictures).toEqual([result.url, result.url]);

    const { res, image, size } = await fetchSignedOut(result.url);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(size.width).toBe(size.height);
    // Cut from the right (blue) half only.
    const [red, , blue] = image.channels.map((channel) => channel.mean);
    expect(blue).toBeGreaterThan(200);
    expect(red).toBeLessThan(40);
    await stack.agent().get(result.url).set('If-None-Match', res.headers.etag).expect(304);
  });

  it("sets a creator's cover with the crop's aspect, shown on the creator's page", async () => {
    const creator = await person(stack, 'creator');
    const item = await uploadReady(creator.agent);
    const set = await creator.agent
      .put('/api/creators/me/cover')
      .send({ mediaId: item.id, crop: { x: 0, y: 200, width: 1200, height: 400 } })
      .expect(200);
    const result = set.body as ProfileImageResult;
    expect(result.width / result.height).toBeCloseTo(3, 1);
    expect((await findCreator(readAs(stack.db, null), new Date(), creator.userId))?.coverImageUrl).toBe(result.url);
    const { size, image } = await fetchSignedOut(result.url);
    expect(size.width! / size.height!).toBeCloseTo(3, 1);
    // Both halves are in a full-width cut.
    expect(image.channels[0].mean).toBeGreaterThan(90);
    expect(image.channels[2].mean).toBeGreaterThan(90);
  });

  it('makes the largest centred square when no crop is given', async () => {
    const creator = await person(stack, 'creator');
    const item = await uploadReady(creator.agent);
    const result = (await creator.agent.put('/api/me/avatar').send({ mediaId: item.id }).expect(200))
      .body as ProfileImageResult;
    expect(result.width).toBe(result.height);
    expect(result.height).toBeGreaterThan(400);
  });

  it("refuses someone else's media, media not ready, a crop outside the image and a bad crop", async () => {
    const creator = await person(stack, 'creator');
    const other = await person(stack, 'creator');
    const theirs = await uploadReady(other.agent);
    const notOwn = await creator.agent.put('/api/me/avatar').send({ mediaId: theirs.id }).expect(422);
    expect(notOwn.body.code).toBe('MEDIA_NOT_YOURS');

    const processing = randomUUID();
    await stack.store.append(
      `media-${processing}`,
      [
        {
          type: 'MediaUploaded',
          data: {
            mediaId: processing,
            ownerId: creator.userId,
            kind: 'image',
            mime: 'image/png',
            bytes: 10,
            at: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const notReady = await creator.agent.put('/api/me/avatar').send({ mediaId: processing }).expect(422);
    expect(notReady.body).toEqual({
      error: 'This image is still processing; try again when it is ready',
      code: 'MEDIA_NOT_READY',
    });

    const mine = await uploadReady(creator.agent);
    const outside = await creator.agent
      .put('/api/me/avatar')
      .send({ mediaId: mine.id, crop: { x: 1000, y: 0, width: 400, height: 400 } })
      .expect(422);
    expect(outside.body.error).toBe('The crop must lie inside the image (1200x800 pixels)');
    const bad = await creator.agent
      .put('/api/me/avatar')
      .send({ mediaId: mine.id, crop: { x: -1, y: 0, width: 1.5, height: 400 } })
      .expect(400);
    expect(bad.body.error).toMatch(/crop/);
  });

  it('keeps uploads private and profile images in use: only the cut is public, and it cannot be deleted', async () => {
    const creator = await person(stack, 'creator');
    const item = await uploadReady(creator.agent);
    await stack.agent().get(`/api/media/${item.id}/public/w320.webp`).expect(404);
    const result = (await creator.agent.put('/api/me/avatar').send({ mediaId: item.id }).expect(200))
      .body as ProfileImageResult;
    await stack.agent().get(`/api/media/${result.mediaId}/public/original`).expect(404);
    await creator.agent.delete(`/api/media/${result.mediaId}`).expect(409);
    // The upload it was cut from is free to go.
    await creator.agent.delete(`/api/media/${item.id}`).expect(204);
    await stack.agent().get(result.url).expect(200);
  });

  it('gives covers to creators only', async () => {
    const member = await person(stack, 'member');
    const res = await member.agent.put('/api/creators/me/cover').send({ mediaId: randomUUID() }).expect(403);
    expect(res.body.code).toBe('CREATOR_REQUIRED');
    await stack.agent().put('/api/me/avatar').send({ mediaId: randomUUID() }).expect(401);
  });

  it("adds images to a member's chat profile, up to six, and takes them off", async () => {
    const agent = stack.agent();
    const password = 'Passw0rdGood';
    const email = `chat.${randomUUID()}@example.com`;
    const body = { firstName: 'Chat', lastName: 'Images', email, password, confirmPassword: password };
    await agent
      .post('/api/auth/register')
      .send({ ...body, paymentToken: `dev_tok_${randomUUID()}` })
      .expect(201);
    await eventually(
      () => agent.get('/api/auth/user'),
      (r) => r.body.subscriptionStatus === 'active',
      30_000,
    );
    const item = await uploadReady(agent as Agent);
    await agent.post('/api/profile/images').send({ mediaId: item.id }).expect(404);
    await agent
      .post('/api/profile')
      .send({
        displayName: 'Chat',
        age: 30,
        location: 'Lisbon',
        genderIdentity: 'woman',
        sexualOrientation: 'straight',
        relationshipType: ['dating'],
        bio: 'Hello',
        interests: ['Music'],
      })
      .expect(200);

    const added: ProfileImageResult[] = [];
    for (let i = 0; i < 6; i++)
      added.push((await agent.post('/api/profile/images').send({ mediaId: item.id }).expect(201)).body);
    const full = await agent.post('/api/profile/images').send({ mediaId: item.id }).expect(422);
    expect(full.body.code).toBe('CHAT_IMAGES_FULL');
    expect((await agent.get('/api/profile').expect(200)).body.profileImages).toEqual(added.map((a) => a.url));
    // The whole picture by default, served to anyone.
    expect([added[0].width, added[0].height]).toEqual([640, 427]);
    await fetchSignedOut(added[0].url);

    // A new order names every image once; the profile then shows them in it.
    const ids = added.map((a) => a.mediaId);
    const order = (mediaIds: unknown) => agent.put('/api/profile/images/order').send({ mediaIds });
    for (const wrong of [ids.slice(1), [...ids.slice(1), ids[1]], [...ids.slice(1), randomUUID()]])
      expect((await order(wrong).expect(422)).body.code).toBe('CHAT_IMAGES_ORDER');
    expect((await order('first').expect(400)).body.code).toBe('VALIDATION_ERROR');
    await order([...ids].reverse()).expect(204);
    expect((await agent.get('/api/profile').expect(200)).body.profileImages).toEqual(
      [...added].reverse().map((a) => a.url),
    );
    await order([...ids].reverse()).expect(204); // the same order again changes nothing

    await agent.delete(`/api/profile/images/${added[0].mediaId}`).expect(204);
    await agent.delete(`/api/profile/images/${added[0].mediaId}`).expect(404);
    expect((await agent.get('/api/profile').expect(200)).body.profileImages).toEqual(
      added
        .slice(1)
        .reverse()
        .map((a) => a.url),
    );
    await agent.delete(`/api/media/${added[0].mediaId}`).expect(204);
  });
});
