import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import supertest from 'supertest';
import * as tusClient from 'tus-js-client';
import type { MediaItem } from '../../domain/contracts/media';
import { createMemoryStorage } from '../../domain/media/testing/memory-storage';
import { corruptVideo, jpegWithGps, noisyJpeg, pngBomb, testVideo } from '../../domain/media/testing/sample-files';
import { mediaPrefix } from '../../domain/media/variants';
import { membershipStream } from '../../domain/membership/events';
import { createLogger } from '../logger';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { eventually, person, ready } from '../../ops/testing/payouts-fixtures';
import { createTestDatabase } from '../../ops/testing/test-database';
import { freePort } from '../../ops/net';
import { startStack } from '../../ops/stack';

jest.setTimeout(240_000);

const IMAGE_LIMIT = 256 * 1024;
const storage = createMemoryStorage();
const mediaPorts = () => ({
  mediaStorage: storage,
  mediaSettings: {
    dataDir: mkdtempSync(path.join(tmpdir(), 'lively-media-test-')),
    limits: { imageBytes: IMAGE_LIMIT },
    queue: { pollMs: 100, retryDelaySeconds: 1 },
  },
});

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ ports: mediaPorts() });
  await ready(stack);
});
afterAll(() => stack?.close());

type Agent = Awaited<ReturnType<typeof person>>['agent'];

const upload = (agent: Agent, bytes: Buffer, filename: string) =>
  agent.post('/api/media').attach('file', bytes, { filename, contentType: 'image/jpeg' });

/** Polls GET /api/media/:id until processing is over. */
async function settled(agent: Agent, id: string): Promise<MediaItem> {
  const res = await eventually(
    () => agent.get(`/api/media/${id}`),
    (r) => r.status !== 200 || r.body.status !== 'processing',
    120_000,
  );
  expect(res.status).toBe(200);
  return res.body;
}

const storedOf = (id: string) => storage.keys().filter((key) => key.startsWith(mediaPrefix(id)));

describe('media uploads', () => {
  it('turns a JPEG with GPS into upright variants with no metadata at all, and drops the original', async () => {
    const creator = await person(stack, 'creator');
    const created = await upload(creator.agent, await jpegWithGps(), 'holiday.jpg').expect(201);
    expect(created.body).toEqual({ id: expect.any(String), kind: 'image', status: 'processing' });

    const item = await settled(creator.agent, created.body.id);
    // 1600x1200 stored with "rotate 90°": the variants are upright, 1200 wide and 1600 tall.
    expect(item).toMatchObject({ kind: 'image', status: 'ready', width: 1200, height: 1600 });
    expect(item.bytes).toBeGreaterThan(1000);

    const keys = storedOf(item.id);
    const names = keys.map((key) => key.slice(mediaPrefix(item.id).length)).sort();
    expect(names).toEqual(
      ['preview.webp', 'w1280.jpg', 'w1280.webp', 'w320.jpg', 'w320.webp', 'w640.jpg', 'w640.webp'].sort(),
    );
    for (const key of keys) {
      const bytes = storage.bytes(key)!;
      const metadata = await sharp(bytes).metadata();
      expect([key, metadata.exif, metadata.xmp, metadata.iptc, metadata.orientation]).toEqual([
        key,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      // No EXIF block and no trace of the camera or the GPS tags anywhere in the bytes.
      for (const marker of ['Exif\0\0', 'Lively Test Camera', 'GPS']) expect(bytes.includes(marker)).toBe(false);
    }
    const w1280 = await sharp(storage.bytes(`${mediaPrefix(item.id)}w1280.webp`)!).metadata();
    expect([w1280.width, w1280.height]).toEqual([960, 1280]);
    const preview = await sharp(storage.bytes(`${mediaPrefix(item.id)}preview.webp`)!).metadata();
    expect(Math.max(preview.width!, preview.height!)).toBeLessThanOrEqual(64);
    // The vault's thumbnail: a signed link to the 320 px WebP, served to the owner.
    expect(item.thumbnailUrl).toMatch(new RegExp(`^/api/media/${item.id}/files/w320\\.webp\\?`));
    const thumbnail = await creator.agent.get(item.thumbnailUrl!).buffer(true).expect(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect((await sharp(thumbnail.body).metadata()).width).toBe(240);
  });

  it('decides the type by content: a text file named .jpg is 415 "Unsupported file type"', async () => {
    const creator = await person(stack, 'creator');
    const res = await upload(creator.agent, Buffer.from('just some text, not a picture\n'.repeat(20)), 'photo.jpg');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'Unsupported file type', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('stops a file past the limit with 413 naming the limit', async () => {
    const creator = await person(stack, 'creator');
    const big = await noisyJpeg(600);
    expect(big.length).toBeGreaterThan(IMAGE_LIMIT);
    const res = await upload(creator.agent, big, 'big.jpg').expect(413);
    expect(res.body).toEqual({ error: 'File too large: images may be at most 256 kB', code: 'MEDIA_TOO_LARGE' });
  });

  it('refuses a decompression bomb (tiny PNG announcing 2.5 gigapixels) with 400', async () => {
    const creator = await person(stack, 'creator');
    const res = await upload(creator.agent, pngBomb(), 'bomb.png').expect(400);
    expect(res.body.error).toBe('Image too large to process: images may be at most 100 megapixels');
  });

  it('lets creators and subscribed members upload; others are refused', async () => {
    const member = await person(stack, 'member'); // no site subscription yet
    const refused = await upload(member.agent, await jpegWithGps(), 'a.jpg').expect(403);
    expect(refused.body.code).toBe('SUBSCRIPTION_REQUIRED');
    await stack.agent().post('/api/media').attach('file', Buffer.from('x'), 'a.jpg').expect(401);

    const now = new Date();
    const period = {
      periodStart: now.toISOString(),
      periodEnd: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
    };
    await stack.store.append(
      membershipStream(member.userId),
      [
        {
          type: 'MembershipActivated',
          data: {
            userId: member.userId,
            ...period,
            source: 'crypto',
            paymentId: 'p-1',
            activatedAt: now.toISOString(),
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await stack.settle();
    // Subscribed members upload images (avatar, chat profile), not videos.
    const avatar = await upload(member.agent, await jpegWithGps(), 'avatar.jpg').expect(201);
    expect(avatar.body.kind).toBe('image');
    const video = await member.agent
      .post('/api/media')
      .attach('file', await testVideo(), 'clip.mp4')
      .expect(403);
    expect(video.body).toEqual({
      error: 'Only creators may upload videos; members may upload images',
      code: 'CREATOR_REQUIRED',
    });
  });

  it('processes a short video: duration, 480p rendition and posters', async () => {
    const creator = await person(stack, 'creator');
    const created = await creator.agent
      .post('/api/media')
      .attach('file', await testVideo(), { filename: 'clip.bin', contentType: 'application/octet-stream' })
      .expect(201);
    expect(created.body).toMatchObject({ kind: 'video', status: 'processing' });
    const item = await settled(creator.agent, created.body.id);
    expect(item).toMatchObject({ status: 'ready', width: 640, height: 360 });
    expect(item.durationSeconds).toBeGreaterThan(1.9);
    expect(item.durationSeconds).toBeLessThan(2.2);
    const prefix = mediaPrefix(item.id);
    expect(storedOf(item.id).sort()).toEqual(
      ['poster-preview.webp', 'poster.jpg', 'video-1080.mp4', 'video-480.mp4'].map((v) => prefix + v).sort(),
    );
    expect(await sharp(storage.bytes(`${prefix}poster.jpg`)!).metadata()).toMatchObject({
      format: 'jpeg',
      width: 640,
      height: 360,
    });
    // faststart: the index (moov) comes before the media data (mdat).
    const mp4 = storage.bytes(`${prefix}video-480.mp4`)!;
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
  });

  it('ends a corrupt video as failed with a reason the creator can read', async () => {
    const creator = await person(stack, 'creator');
    const created = await creator.agent.post('/api/media').attach('file', corruptVideo(), 'broken.mp4').expect(201);
    const item = await settled(creator.agent, created.body.id);
    expect(item).toMatchObject({ status: 'failed', kind: 'video' });
    expect(item.failureReason).toMatch(/could not be read/);
  });

  it('shows an item to its owner and finance staff only; lists the vault by kind, in pages', async () => {
    const creator = await person(stack, 'creator');
    const other = await person(stack, 'creator');
    const admin = await person(stack, 'admin');
    const first = (await upload(creator.agent, await jpegWithGps(), 'a.jpg').expect(201)).body.id;
    const second = (await upload(creator.agent, await jpegWithGps(), 'b.jpg').expect(201)).body.id;
    await other.agent.get(`/api/media/${first}`).expect(404);
    await admin.agent.get(`/api/media/${first}`).expect(200);
    await settled(creator.agent, first);
    await settled(creator.agent, second);

    const page1 = await creator.agent.get('/api/media?kind=image&limit=1').expect(200);
    expect(page1.body.items.map((i: MediaItem) => i.id)).toEqual([second]);
    const page2 = await creator.agent.get(`/api/media?kind=image&limit=1&cursor=${page1.body.nextCursor}`).expect(200);
    expect(page2.body).toEqual({ items: [expect.objectContaining({ id: first })], nextCursor: null });
    expect((await creator.agent.get('/api/media?kind=video').expect(200)).body.items).toEqual([]);
    expect((await other.agent.get('/api/media').expect(200)).body.items).toEqual([]);
    await creator.agent.get('/api/media?kind=audio').expect(400);
  });

  it('refuses to delete media a post uses (409); deletes the rest with its stored objects', async () => {
    const creator = await person(stack, 'creator');
    const used = (await upload(creator.agent, await jpegWithGps(), 'a.jpg').expect(201)).body.id;
    const free = (await upload(creator.agent, await jpegWithGps(), 'b.jpg').expect(201)).body.id;
    await settled(creator.agent, used);
    await settled(creator.agent, free);
    const postId = crypto.randomUUID();
    await stack.store.append(
      `post-${postId}`,
      [
        {
          type: 'PostPublished',
          data: {
            postId,
            creatorId: creator.userId,
            title: 'With a photo',
            content: 'x',
            mediaUrl: null,
            mediaType: null,
            isPublic: true,
            publishedAt: new Date().toISOString(),
            mediaIds: [used],
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    await stack.settle();
    const refused = await creator.agent.delete(`/api/media/${used}`).expect(409);
    expect(refused.body).toMatchObject({ code: 'MEDIA_IN_USE' });
    expect(refused.body.error).toMatch(/in use \(in a post, a message or your profile\)/);
    expect(storedOf(used).length).toBeGreaterThan(0);

    const other = await person(stack, 'creator');
    await other.agent.delete(`/api/media/${free}`).expect(404);
    await creator.agent.delete(`/api/media/${free}`).expect(204);
    expect(storedOf(free)).toEqual([]);
    await creator.agent.get(`/api/media/${free}`).expect(404);
  });
});

describe('deleting while processing', () => {
  it('leaves nothing stored once the job finishes', async () => {
    const creator = await person(stack, 'creator');
    const created = await creator.agent
      .post('/api/media')
      .attach('file', await testVideo(), 'clip.mp4')
      .expect(201);
    const id = created.body.id as string;
    await creator.agent.delete(`/api/media/${id}`).expect(204);
    await creator.agent.get(`/api/media/${id}`).expect(404);
    // The job ends (its progress row goes) and whatever it stored meanwhile is removed.
    const progressLeft = await eventually(
      () => stack.db('media_progress').where({ media_id: id }).first(),
      (row) => row === undefined,
      60_000,
    );
    expect(progressLeft).toBeUndefined();
    expect(storedOf(id)).toEqual([]);
    const events = await stack.store.readStream(`media-${id}`);
    expect(events.map((e) => e.type)).toEqual(['MediaUploaded', 'MediaDeleted']);
  });
});

describe('resumable uploads (tus)', () => {
  const tus = { 'Tus-Resumable': '1.0.0' };
  /** The session cookie a test agent sends. */
  const cookieOf = (agent: Agent) =>
    (agent as unknown as { _defaults: Array<{ args: string[] }> })._defaults.find((d) => d.args[0] === 'Cookie')!
      .args[1];

  /** Sends `bytes` as a PATCH body but cuts the connection after `sendOnly` of them. */
  function droppedPatch(url: string, cookie: string, offset: number, bytes: Buffer, sendOnly: number) {
    return new Promise<void>((resolve) => {
      const req = http.request(url, {
        method: 'PATCH',
        headers: {
          ...tus,
          Cookie: cookie,
          Origin: stack.url,
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
          'Content-Length': String(bytes.length),
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(bytes.subarray(0, sendOnly), () => setTimeout(() => req.destroy(), 300));
    });
  }

  it('survives a dropped connection: HEAD gives the offset, the rest is sent from there, the item is processed', async () => {
    const creator = await person(stack, 'creator');
    const cookie = cookieOf(creator.agent);
    const file = await jpegWithGps();
    const created = await creator.agent
      .post('/api/media/uploads')
      .set(tus)
      .set('Upload-Length', String(file.length))
      .expect(201);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/api\/media\/uploads\/[0-9a-f-]{36}$/);

    await droppedPatch(stack.url + location, cookie, 0, file, Math.floor(file.length / 2));
    const head = await eventually(
      () => creator.agent.head(location).set(tus),
      (r) => Number(r.headers['upload-offset']) > 0,
      10_000,
    );
    const offset = Number(head.headers['upload-offset']);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(file.length);
    // Another user cannot see or continue it.
    const other = await person(stack, 'creator');
    await other.agent.head(location).set(tus).expect(404);
    // A wrong offset is refused.
    await creator.agent
      .patch(location)
      .set(tus)
      .set('Upload-Offset', '0')
      .set('Content-Type', 'application/offset+octet-stream')
      .send(file)
      .expect(409);

    const done = await creator.agent
      .patch(location)
      .set(tus)
      .set('Upload-Offset', String(offset))
      .set('Content-Type', 'application/offset+octet-stream')
      .send(file.subarray(offset))
      .expect(204);
    expect(done.headers['upload-offset']).toBe(String(file.length));
    expect(done.headers['media-kind']).toBe('image');
    const item = await settled(creator.agent, done.headers['media-id']);
    expect(item).toMatchObject({ status: 'ready', width: 1200, height: 1600, bytes: file.length });
  });

  it('takes a video from tus-js-client in chunks', async () => {
    const creator = await person(stack, 'creator');
    const video = await testVideo();
    const mediaId = await new Promise<string>((resolve, reject) => {
      let id = '';
      const upload = new tusClient.Upload(video, {
        endpoint: `${stack.url}/api/media/uploads`,
        chunkSize: Math.ceil(video.length / 3),
        headers: { Cookie: cookieOf(creator.agent), Origin: stack.url },
        retryDelays: [0, 200, 500],
        onAfterResponse: (_req, res) => void (id = res.getHeader('Media-Id') || id),
        onSuccess: () => resolve(id),
        onError: reject,
      });
      upload.start();
    });
    const item = await settled(creator.agent, mediaId);
    expect(item).toMatchObject({ kind: 'video', status: 'ready', width: 640, height: 360, bytes: video.length });
  });

  it('refuses a declared length past the limit, and a finished upload that is not media', async () => {
    const creator = await person(stack, 'creator');
    const member = await person(stack, 'member');
    await member.agent.post('/api/media/uploads').set(tus).set('Upload-Length', '10').expect(403);
    const tooLong = await creator.agent
      .post('/api/media/uploads')
      .set(tus)
      .set('Upload-Length', String(3 * 1024 ** 3))
      .expect(413);
    expect(tooLong.body.error).toBe('File too large: uploads may be at most 2 GB');
    const text = Buffer.from('hello, this is not an image at all');
    const created = await creator.agent
      .post('/api/media/uploads')
      .set(tus)
      .set('Upload-Length', String(text.length))
      .expect(201);
    const res = await creator.agent
      .patch(created.headers.location)
      .set(tus)
      .set('Upload-Offset', '0')
      .set('Content-Type', 'application/offset+octet-stream')
      .send(text)
      .expect(415);
    expect(res.body.error).toBe('Unsupported file type');
    await creator.agent.head(created.headers.location).set(tus).expect(404);
  });
});

describe('processing across a restart', () => {
  it('completes a job that a restart interrupted', async () => {
    const database = await createTestDatabase();
    const shared = mediaPorts();
    const port = await freePort();
    const start = async (): Promise<TestStack> => {
      const started = await startStack({
        databaseUrl: database.url,
        port,
        realtimePort: await freePort(),
        logger: createLogger({ level: 'silent' }),
        ports: shared,
      });
      const agent = () => supertest.agent(started.url).set('Origin', started.url);
      return { ...started, agent } as unknown as TestStack;
    };
    let running = await start();
    try {
      await ready(running);
      const creator = await person(running, 'creator');
      const video = await testVideo({ seconds: 12, size: '1280x720' });
      const created = await creator.agent.post('/api/media').attach('file', video, 'long.mp4').expect(201);
      const id = created.body.id as string;
      // Stop while the job runs: it has reported progress and is not done.
      const during = await eventually(
        () => creator.agent.get(`/api/media/${id}`),
        (r) => r.body.progress > 1,
        60_000,
      );
      expect(during.body.status).toBe('processing');
      await running.stop();
      const stoppedAt = Date.now();

      running = await start();
      const item = await eventually(
        () => creator.agent.get(`/api/media/${id}`),
        (r) => r.body.status !== 'processing',
        120_000,
      );
      expect(item.body).toMatchObject({ status: 'ready', width: 1280, height: 720 });
      const events = await running.store.readStream(`media-${id}`);
      expect(events.map((e) => e.type)).toEqual(['MediaUploaded', 'MediaProcessed']);
      expect(Date.parse(events[1].metadata.occurredAt as string)).toBeGreaterThan(stoppedAt);
    } finally {
      await running.stop();
      await database.drop();
    }
  });
});
