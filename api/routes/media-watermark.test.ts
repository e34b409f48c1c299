import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type supertest from 'supertest';
import type { MediaAttachment } from '../../domain/contracts/media';
import { createFsStorage } from '../../domain/media/fs-storage';
import { createMediaUrlSigner } from '../../domain/media/signed-url';
import type { MediaStorage } from '../../domain/media/storage';
import { mediaKey, type MediaVariant } from '../../domain/media/variants';
import { createWatermarks, readViewerCode, viewerCode, watermarkSecret } from '../../domain/media/watermark';
import type { OpsContext } from '../../ops/commands/command';
import { watermarkLookupCommand } from '../../ops/commands/watermark-lookup';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';
import { verifyIdentity } from '../../ops/testing/identity-verification';

/**
 * The viewer watermark (issue 18): a creator turns it on with PUT /api/creators/me/watermark;
 * their images then reach subscribers marked with the page name and the viewer's code (read
 * back here from the served file), while the creator and every preview get the stored bytes.
 */
jest.setTimeout(90_000);

const URL_SECRET = 'a-test-secret-for-media-urls-0123456789';
const WATERMARK_SECRET = watermarkSecret(URL_SECRET);
const signer = createMediaUrlSigner(URL_SECRET, () => new Date());
let stack: TestStack;
let storageRoot: string;
let storage: MediaStorage;

beforeAll(async () => {
  storageRoot = await mkdtemp(join(tmpdir(), 'lively-media-watermark-'));
  storage = createFsStorage(storageRoot);
  stack = await startTestStack({
    trustProxy: true,
    ports: {
      mediaStorage: storage,
      mediaUrls: signer,
      mediaWatermarks: createWatermarks(WATERMARK_SECRET),
    },
  });
});
afterAll(async () => {
  await stack.close();
  await rm(storageRoot, { recursive: true, force: true });
});

type Member = TestMember;

const member = (firstName: string, lastName: string) => signUpMember(stack, firstName, { lastName });

/** A processed image as the pipeline leaves it: its events, and real WebP/JPEG variants. */
async function seedImage(ownerId: string) {
  const mediaId = randomUUID();
  const variants: MediaVariant[] = ['w640.webp', 'w640.jpg', 'preview.webp'];
  const at = new Date().toISOString();
  await stack.store.append(
    `media-${mediaId}`,
    [
      { type: 'MediaUploaded', data: { mediaId, ownerId, kind: 'image', mime: 'image/jpeg', bytes: 5000, at } },
      { type: 'MediaProcessed', data: { mediaId, width: 640, height: 427, variants, at } },
    ],
    { expectedRevision: 'no_stream' },
  );
  const base = sharp({ create: { width: 640, height: 427, channels: 3, background: '#3b7dd8' } });
  const files = new Map<MediaVariant, Buffer>([
    ['w640.webp', await base.clone().webp().toBuffer()],
    ['w640.jpg', await base.clone().jpeg().toBuffer()],
    ['preview.webp', await base.clone().resize(48).blur(4).webp().toBuffer()],
  ]);
  for (const [variant, body] of files)
    await storage.put(mediaKey(mediaId, variant), body, variant.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
  expect(await stack.settle()).toBe(true); // posts and messages find it ready in the media read model
  return { mediaId, files };
}

const binary = (request: supertest.Test) =>
  request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

let creator: Member;
let subscriber: Member;
let image: Awaited<ReturnType<typeof seedImage>>;
let postId: string;

beforeAll(async () => {
  [creator, subscriber] = await Promise.all([member('Wanda', 'Marks'), member('Sam', 'Viewer')]);
  await creator.agent.post('/api/creators/register').send({ bio: 'Photos' }).expect(201);
  await subscriber.agent
    .post('/api/subscriptions')
    .send({ creatorId: creator.id, tierId: 'default-premium' })
    .expect(201);
  await verifyIdentity(stack, creator.agent, creator.id);
  image = await seedImage(creator.id);
  expect(await stack.settle()).toBe(true);
  postId = (
    await creator.agent
      .post('/api/posts')
      .send({ title: 'Marked', content: 'For subscribers', mediaIds: [image.mediaId] })
      .expect(201)
  ).body.id;
  expect(await stack.settle()).toBe(true);
});

const media = async (viewer: Member): Promise<MediaAttachment> =>
  (await viewer.agent.get(`/api/posts/${postId}`).expect(200)).body.media[0];
const fetchFile = async (viewer: Member, url: string) => binary(viewer.agent.get(url)).expect(200);

describe('the watermark setting', () => {
  it('is off until the creator turns it on, and only creators have one', async () => {
    expect((await creator.agent.get('/api/creators/me/watermark').expect(200)).body).toEqual({ enabled: false });
    const refused = await subscriber.agent.put('/api/creators/me/watermark').send({ enabled: true }).expect(403);
    expect(refused.body.error).toBe('Only creators can watermark their media');
    const bad = await creator.agent.put('/api/creators/me/watermark').send({ enabled: 'yes' }).expect(400);
    expect(bad.body.error).toBe('enabled must be true or false');
  });
});

describe('watermarked delivery', () => {
  afterAll(async () => {
    await creator.agent.put('/api/creators/me/watermark').send({ enabled: false }).expect(200);
  });

  it('serves subscribers the original while the watermark is off', async () => {
    const url = (await media(subscriber)).url!;
    expect((await fetchFile(subscriber, url)).body).toEqual(image.files.get('w640.webp'));
  });

  it("marks every subscriber's image with the page name and their code; owner and previews stay unmarked", async () => {
    const on = await creator.agent.put('/api/creators/me/watermark').send({ enabled: true }).expect(200);
    expect(on.body).toEqual({ enabled: true });
    expect((await creator.agent.get('/api/creators/me/watermark').expect(200)).body).toEqual({ enabled: true });

    const seen = await media(subscriber);
    const code = viewerCode(WATERMARK_SECRET, subscriber.id);
    for (const variant of ['w640.webp', 'w640.jpg'] as const) {
      const res = await fetchFile(subscriber, signer.url(image.mediaId, variant));
      expect(res.body).not.toEqual(image.files.get(variant));
      expect(res.headers['content-type']).toBe(variant.endsWith('.jpg') ? 'image/jpeg' : 'image/webp');
      expect(res.headers['cache-control']).toMatch(/^private/);
      expect(await readViewerCode(res.body)).toBe(code);
      expect((await sharp(res.body).metadata()).width).toBe(640);
      // The same copy again, and a 304 for the copy's own ETag (not the stored file's).
      const again = await fetchFile(subscriber, signer.url(image.mediaId, variant));
      expect(again.body).toEqual(res.body);
      expect(again.headers.etag).toBe(res.headers.etag);
      await subscriber.agent.get(signer.url(image.mediaId, variant)).set('If-None-Match', res.headers.etag).expect(304);
    }
    const preview = await fetchFile(subscriber, seen.previewUrl);
    expect(preview.body).toEqual(image.files.get('preview.webp'));

    const own = await media(creator);
    const ownFile = await fetchFile(creator, own.url!);
    expect(ownFile.body).toEqual(image.files.get('w640.webp'));
    expect(await readViewerCode(ownFile.body)).toBeNull();
  });
});

describe('npm run ops -- watermark-lookup', () => {
  const lookup = async (input: string) => {
    const lines: string[] = [];
    const context: OpsContext = {
      config: { dataDir: storageRoot } as OpsContext['config'],
      out: (line) => lines.push(line),
      connect: async () => ({ databaseUrl: '', store: stack.store, db: stack.db }),
    };
    const previous = process.env.MEDIA_URL_SECRET;
    process.env.MEDIA_URL_SECRET = URL_SECRET; // the secret the API signs with
    try {
      return { code: await watermarkLookupCommand.run([input], context), out: lines.join('\n') };
    } finally {
      if (previous === undefined) delete process.env.MEDIA_URL_SECRET;
      else process.env.MEDIA_URL_SECRET = previous;
    }
  };

  it('names the viewer of a leaked copy, from the file itself or from its printed code', async () => {
    await creator.agent.put('/api/creators/me/watermark').send({ enabled: true }).expect(200);
    const leaked = (await fetchFile(subscriber, signer.url(image.mediaId, 'w640.jpg'))).body as Buffer;
    await creator.agent.put('/api/creators/me/watermark').send({ enabled: false }).expect(200);
    const file = join(storageRoot, 'leaked.jpg');
    await writeFile(file, leaked);

    const fromFile = await lookup(file);
    expect(fromFile.code).toBe(0);
    expect(fromFile.out).toContain(`Sam Viewer <`);
    expect(fromFile.out).toContain(`(user ${subscriber.id})`);
    const code = viewerCode(WATERMARK_SECRET, subscriber.id);
    const typed = await lookup(`${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`);
    expect(typed).toEqual(fromFile);

    expect((await lookup('ZZZZZZZZ')).code).toBe(1);
    expect(await lookup('no#code')).toMatchObject({ code: 2, out: expect.stringMatching(/is not a viewer code/) });
  });
});
