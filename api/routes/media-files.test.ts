import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type supertest from 'supertest';
import type { MediaAttachment } from '../../domain/contracts/media';
import { createFsStorage } from '../../domain/media/fs-storage';
import { createMediaUrlSigner } from '../../domain/media/signed-url';
import type { MediaStorage } from '../../domain/media/storage';
import { mediaKey, type MediaVariant } from '../../domain/media/variants';
import { creditBalance } from '../../domain/wallet/balance';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';
import { verifyIdentity } from '../../ops/testing/identity-verification';

/**
 * Media delivery and attaching through HTTP (issue 18): signed, expiring URLs; entitlement
 * before any byte (owner, subscriber of a locked post, receiver of an unlocked paid message);
 * previews for everyone who may see the post or message; Range, ETag and caching headers.
 * Media are seeded as the processing pipeline leaves them: its events, and its files in storage.
 */
jest.setTimeout(90_000);

let stack: TestStack;
let storageRoot: string;
let storage: MediaStorage;
let clockOffsetMs = 0;
const clock = () => new Date(Date.now() + clockOffsetMs);

beforeAll(async () => {
  storageRoot = await mkdtemp(join(tmpdir(), 'lively-media-files-'));
  storage = createFsStorage(storageRoot);
  const mediaUrls = createMediaUrlSigner('a-test-secret-for-media-urls-0123456789', clock);
  stack = await startTestStack({ trustProxy: true, ports: { mediaStorage: storage, mediaUrls } });
});
afterAll(async () => {
  await stack.close();
  await rm(storageRoot, { recursive: true, force: true });
});
afterEach(() => {
  clockOffsetMs = 0;
});

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
type Member = TestMember;

const member = (firstName: string) => signUpMember(stack, firstName, { lastName: 'Media' });

/** A processed item as the pipeline leaves it: its events, and a file per variant. */
async function seedMedia(
  ownerId: string,
  kind: 'image' | 'video',
  options: { ready?: boolean; variants?: MediaVariant[] } = {},
) {
  const mediaId = randomUUID();
  const variants =
    options.variants ??
    (kind === 'image'
      ? (['w320.webp', 'w640.webp', 'preview.webp'] as MediaVariant[])
      : (['video-480.mp4', 'poster.jpg', 'poster-preview.webp'] as MediaVariant[]));
  const at = new Date().toISOString();
  const events = [
    {
      type: 'MediaUploaded',
      data: { mediaId, ownerId, kind, mime: kind === 'image' ? 'image/jpeg' : 'video/mp4', bytes: 5000, at },
    },
  ];
  if (options.ready !== false)
    events.push({
      type: 'MediaProcessed',
      data: { mediaId, width: 640, height: 480, ...(kind === 'video' ? { durationSeconds: 5 } : {}), variants, at },
    } as never);
  await stack.store.append(`media-${mediaId}`, events, { expectedRevision: 'no_stream' });
  const files = new Map<MediaVariant, Buffer>();
  for (const variant of variants) {
    const bytes = randomBytes(variant.startsWith('video') ? 50_000 : 3_000);
    const type = variant.endsWith('.webp') ? 'image/webp' : variant.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg';
    await storage.put(mediaKey(mediaId, variant), bytes, type);
    files.set(variant, bytes);
  }
  expect(await stack.settle()).toBe(true); // posts and messages find it ready in the media read model
  return { mediaId, files };
}

const bodyOf = (res: supertest.Response) => res.body as Buffer;
const binary = (request: supertest.Test) =>
  request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
const fetchFile = (agent: supertest.Agent, url: string) => binary(agent.get(url));

let creator: Member;
let subscriber: Member;
let stranger: Member;
let image: Awaited<ReturnType<typeof seedMedia>>;
let video: Awaited<ReturnType<typeof seedMedia>>;
let lockedPostId: string;

beforeAll(async () => {
  [creator, subscriber, stranger] = await Promise.all([member('Cora'), member('Sid'), member('Stan')]);
  await creator.agent.post('/api/creators/register').send({ bio: 'Photos and films' }).expect(201);
  await verifyIdentity(stack, creator.agent, creator.id); // locked posts and paid messages need it (issue 20)
  await subscriber.agent
    .post('/api/subscriptions')
    .send({ creatorId: creator.id, tierId: 'default-premium' })
    .expect(201);
  [image, video] = await Promise.all([seedMedia(creator.id, 'image'), seedMedia(creator.id, 'video')]);
  expect(await stack.settle()).toBe(true);
  const post = await creator.agent
    .post('/api/posts')
    .send({ title: 'Behind the scenes', content: 'For subscribers', mediaIds: [image.mediaId, video.mediaId] })
    .expect(201);
  lockedPostId = post.body.id;
  expect(await stack.settle()).toBe(true);
});

const postMedia = async (viewer: Member, postId = lockedPostId): Promise<MediaAttachment[]> =>
  (await viewer.agent.get(`/api/posts/${postId}`).expect(200)).body.media;

describe('attaching media to posts', () => {
  it('carries the media in order on the post, full URLs for the owner and subscribers, previews for others', async () => {
    const own = await postMedia(creator);
    expect(own.map((m) => [m.id, m.kind, m.width, m.height])).toEqual([
      [image.mediaId, 'image', 640, 480],
      [video.mediaId, 'video', 640, 480],
    ]);
    expect(own[0].url).toMatch(new RegExp(`^/api/media/${image.mediaId}/files/w640\\.webp\\?exp=\\d+&sig=`));
    expect(own[0].previewUrl).toContain('/files/preview.webp?');
    expect(own[1]).toMatchObject({ durationSeconds: 5 });
    expect(own[1].url).toContain('/files/video-480.mp4?');
    expect(own[1].posterUrl).toContain('/files/poster.jpg?');
    expect(own[1].previewUrl).toContain('/files/poster-preview.webp?');

    const subscribed = await postMedia(subscriber);
    expect(subscribed[0].url).toContain('/files/w640.webp?');

    const locked = await postMedia(stranger);
    expect(locked).toHaveLength(2);
    for (const item of locked) {
      expect(item.url).toBeUndefined();
      expect(item.posterUrl).toBeUndefined();
      expect(item.previewUrl).toMatch(/\/files\/(poster-)?preview\.webp\?/);
    }
    const creatorPage = (await stranger.agent.get(`/api/creators/${creator.id}/posts`).expect(200)).body;
    expect(creatorPage[0].media).toEqual(locked);
    expect(creatorPage[0]).toMatchObject({ hasMedia: true, locked: true });
    const feed = (await subscriber.agent.get('/api/posts/feed').expect(200)).body.posts;
    expect(feed.find((p: { id: string }) => p.id === lockedPostId).media[0].url).toBeDefined();
  });

  it("refuses someone else's, unprocessed, too many or repeated media ids, naming the problem", async () => {
    const strangers = await seedMedia(stranger.id, 'image');
    const processing = await seedMedia(creator.id, 'image', { ready: false });
    expect(await stack.settle()).toBe(true);
    const publish = (mediaIds: unknown) =>
      creator.agent.post('/api/posts').send({ title: 'T', content: 'C', mediaIds });
    const notMine = await publish([image.mediaId, strangers.mediaId]).expect(422);
    expect(notMine.body).toMatchObject({
      error: `Media ${strangers.mediaId} is not in your media library`,
      code: 'MEDIA_NOT_USABLE',
    });
    expect((await publish([processing.mediaId]).expect(422)).body.error).toMatch(/still processing/);
    expect((await publish([randomUUID()]).expect(422)).body.error).toMatch(/not in your media library/);
    const many = Array.from({ length: 21 }, () => randomUUID());
    expect((await publish(many).expect(400)).body.error).toBe('At most 20 media items can be attached');
    expect((await publish([image.mediaId, image.mediaId]).expect(400)).body.error).toBe(
      'The same media item is attached twice',
    );
    expect((await publish('nope').expect(400)).body.error).toBe('mediaIds must be a list of media ids');
    // A message with someone else's media is refused the same way.
    const message = await creator.agent
      .post('/api/messages')
      .send({ receiverId: subscriber.id, content: 'look', mediaIds: [strangers.mediaId] })
      .expect(422);
    expect(message.body.code).toBe('MEDIA_NOT_USABLE');
  });

  it('keeps posts without media and with a pasted mediaUrl as they were', async () => {
    const old = await creator.agent
      .post('/api/posts')
      .send({ title: 'Old style', content: 'Link', mediaUrl: 'https://img.test/a.jpg', isPublic: true })
      .expect(201);
    expect(old.body).toMatchObject({ mediaUrl: 'https://img.test/a.jpg', hasMedia: true, media: [] });
  });
});

describe('delivering media files', () => {
  it("serves a locked post's full image to subscribers and the owner, 403 to others, before any byte", async () => {
    const [full] = await postMedia(subscriber);
    const served = await fetchFile(subscriber.agent, full.url!).expect(200);
    expect(bodyOf(served).equals(image.files.get('w640.webp')!)).toBe(true);
    expect(served.headers).toMatchObject({
      'content-type': 'image/webp',
      'accept-ranges': 'bytes',
      'content-length': '3000',
    });
    await fetchFile(creator.agent, full.url!).expect(200);
    const refused = await stranger.agent.get(full.url!).expect(403);
    expect(refused.body).toMatchObject({ error: 'You do not have access to this media', code: 'MEDIA_FORBIDDEN' });
    await stack.agent().get(full.url!).expect(401);
  });

  it('serves previews to everyone who may see the post, cacheable; full files private, no longer than the link', async () => {
    const [lockedImage, lockedVideo] = await postMedia(stranger);
    const preview = await fetchFile(stranger.agent, lockedImage.previewUrl).expect(200);
    expect(bodyOf(preview).equals(image.files.get('preview.webp')!)).toBe(true);
    expect(preview.headers['cache-control']).toBe('public, max-age=86400, immutable');
    await fetchFile(subscriber.agent, lockedImage.previewUrl).expect(200);
    await fetchFile(stranger.agent, lockedVideo.previewUrl).expect(200);

    const [full] = await postMedia(subscriber);
    const before = Math.floor(Date.now() / 1000);
    const served = await fetchFile(subscriber.agent, full.url!).expect(200);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(served.headers['cache-control'])![1]);
    const exp = Number(new URL(full.url!, stack.url).searchParams.get('exp'));
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(exp - before);
  });

  it('refuses a link after it expires, and a tampered or foreign one', async () => {
    const [full] = await postMedia(subscriber);
    const exp = Number(new URL(full.url!, stack.url).searchParams.get('exp'));
    clockOffsetMs = (exp + 1) * 1000 - Date.now();
    const expired = await subscriber.agent.get(full.url!).expect(403);
    expect(expired.body).toMatchObject({ code: 'MEDIA_LINK_EXPIRED' });
    expect(expired.body.error).toMatch(/expired/);
    clockOffsetMs = 0;

    const sig = new URL(full.url!, stack.url).searchParams.get('sig')!;
    const flipped = `${sig.slice(0, 10)}${sig[10] === 'A' ? 'B' : 'A'}${sig.slice(11)}`;
    const tampered = await subscriber.agent.get(full.url!.replace(sig, flipped)).expect(403);
    expect(tampered.body).toMatchObject({ error: 'This media link is not valid', code: 'MEDIA_LINK_INVALID' });
    // The signature names one file: it does not open another variant or a later expiry.
    await subscriber.agent.get(full.url!.replace('w640.webp', 'w320.webp')).expect(403);
    await subscriber.agent.get(full.url!.replace(`exp=${exp}`, `exp=${exp + 3600}`)).expect(403);
    await subscriber.agent.get(full.url!.split('?')[0]).expect(403);
  });

  it('answers Range requests with the exact bytes, 416 past the end, and honours If-None-Match', async () => {
    const [, clip] = await postMedia(subscriber);
    const bytes = video.files.get('video-480.mp4')!;
    const part = await fetchFile(subscriber.agent, clip.url!).set('Range', 'bytes=1000-1999').expect(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.headers['content-type']).toBe('video/mp4');
    expect(bodyOf(part).equals(bytes.subarray(1000, 2000))).toBe(true);

    const tail = await fetchFile(subscriber.agent, clip.url!).set('Range', 'bytes=-100').expect(206);
    expect(bodyOf(tail).equals(bytes.subarray(bytes.length - 100))).toBe(true);
    const open = await fetchFile(subscriber.agent, clip.url!)
      .set('Range', `bytes=${bytes.length - 10}-`)
      .expect(206);
    expect(bodyOf(open).equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const beyond = await subscriber.agent.get(clip.url!).set('Range', `bytes=${bytes.length}-`).expect(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${bytes.length}`);
    await stranger.agent.get(clip.url!).set('Range', 'bytes=0-9').expect(403);

    const whole = await fetchFile(subscriber.agent, clip.url!).expect(200);
    const etag = whole.headers.etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const cached = await subscriber.agent.get(clip.url!).set('If-None-Match', etag).expect(304);
    expect(cached.headers.etag).toBe(etag);
    await fetchFile(subscriber.agent, clip.url!).set('If-None-Match', '"something-else"').expect(200);
    const head = await subscriber.agent.head(clip.url!).expect(200);
    expect(head.headers).toMatchObject({ 'content-length': String(bytes.length), etag, 'accept-ranges': 'bytes' });
    // A stale If-Range gets the whole file, not a piece of a newer one.
    await fetchFile(subscriber.agent, clip.url!).set('Range', 'bytes=0-9').set('If-Range', '"old"').expect(200);
  });

  it('refuses every file to a session whose account is suspended, previews included', async () => {
    const suspended = await member('Sue');
    const [lockedImage] = await postMedia(suspended);
    await fetchFile(suspended.agent, lockedImage.previewUrl).expect(200);
    const at = new Date().toISOString();
    await stack.store.append(
      `standing-${suspended.id}`,
      [
        {
          type: 'UserSuspended',
          data: {
            userId: suspended.id,
            staffId: null,
            reason: 'Test',
            days: null,
            until: null,
            automatic: true,
            reportId: null,
            at,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    expect(await stack.settle()).toBe(true);
    await suspended.agent.get(lockedImage.previewUrl).expect(401);
  });

  it('404s a variant the item does not have', async () => {
    const [full] = await postMedia(creator);
    const signer = stack.deps.ports.mediaUrls as ReturnType<typeof createMediaUrlSigner>;
    await creator.agent.get(signer.url(image.mediaId, 'w2048.webp')).expect(404);
    await creator.agent.get(signer.url(randomUUID(), 'w640.webp')).expect(404);
    expect(full.url).toBeDefined();
  });
});

describe('media on paid messages', () => {
  it('gives the receiver only previews until the message is unlocked, then the file', async () => {
    const photo = await seedMedia(creator.id, 'image');
    expect(await stack.settle()).toBe(true);
    const sent = await creator.agent
      .post('/api/messages')
      .send({ receiverId: subscriber.id, content: 'a private set', price: '3.00', mediaIds: [photo.mediaId] })
      .expect(201);
    expect(sent.body.media[0].url).toContain('/files/w640.webp?');
    const senderUrl = sent.body.media[0].url as string;

    const thread = async (viewer: Member, other: Member) =>
      (await viewer.agent.get(`/api/messages/${other.id}`).expect(200)).body.find(
        (m: { id: string }) => m.id === sent.body.id,
      );
    const before = await thread(subscriber, creator);
    expect(before).toMatchObject({ locked: true, content: null });
    expect(before.media[0].url).toBeUndefined();
    await fetchFile(subscriber.agent, before.media[0].previewUrl).expect(200);
    await subscriber.agent.get(senderUrl).expect(403);
    await stranger.agent.get(before.media[0].previewUrl).expect(403);

    await creditBalance(
      stack.store,
      subscriber.id,
      { amountCents: 1000, reason: 'test', reference: `test:${unique()}` },
      { actorId: null, now: new Date() },
    );
    const unlocked = (await subscriber.agent.post(`/api/messages/${sent.body.id}/unlock`).expect(200)).body;
    expect(unlocked.media[0].url).toContain('/files/w640.webp?');
    const file = await fetchFile(subscriber.agent, unlocked.media[0].url).expect(200);
    expect(bodyOf(file).equals(photo.files.get('w640.webp')!)).toBe(true);
    await fetchFile(subscriber.agent, senderUrl).expect(200);
    await stranger.agent.get(senderUrl).expect(403);
  });

  it('gives the receiver of a free message the file at once', async () => {
    const photo = await seedMedia(creator.id, 'image');
    expect(await stack.settle()).toBe(true);
    const sent = await creator.agent
      .post('/api/messages')
      .send({ receiverId: stranger.id, content: 'hello', mediaIds: [photo.mediaId] })
      .expect(201);
    const [received] = (await stranger.agent.get(`/api/messages/${creator.id}`).expect(200)).body.filter(
      (m: { id: string }) => m.id === sent.body.id,
    );
    expect(received.media[0].url).toBeDefined();
    await fetchFile(stranger.agent, received.media[0].url).expect(200);
  });
});
