import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { MediaItem } from '../../domain/contracts/media';
import type { Showcase } from '../../domain/contracts/showcase';
import { createMemoryStorage } from '../../domain/media/testing/memory-storage';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { eventually, person, ready } from '../../ops/testing/payouts-fixtures';

/** The landing page's showcase (issue 18): public covers and avatars of creators, for anyone signed out. */
jest.setTimeout(180_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    ports: {
      mediaStorage: createMemoryStorage(),
      mediaSettings: {
        dataDir: mkdtempSync(path.join(tmpdir(), 'lively-showcase-')),
        queue: { pollMs: 100, retryDelaySeconds: 1 },
      },
    },
  });
  await ready(stack);
});
afterAll(() => stack?.close());

type Agent = Awaited<ReturnType<typeof person>>['agent'];

async function uploadReady(agent: Agent): Promise<MediaItem> {
  const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#7048e8' } })
    .png()
    .toBuffer();
  const created = await agent
    .post('/api/media')
    .attach('file', png, { filename: 'cover.png', contentType: 'image/png' })
    .expect(201);
  const res = await eventually(
    () => agent.get(`/api/media/${created.body.id}`),
    (r) => r.status !== 200 || r.body.status !== 'processing',
    120_000,
  );
  expect(res.body.status).toBe('ready');
  return res.body;
}

describe('GET /api/showcase', () => {
  it('lists creators with a cover, their public images only, cacheable and signed out', async () => {
    const shown = await person(stack, 'creator');
    const cover = await uploadReady(shown.agent);
    await shown.agent
      .put('/api/creators/me/cover')
      .send({ mediaId: cover.id, crop: { x: 0, y: 200, width: 1200, height: 400 } })
      .expect(200);
    await shown.agent
      .put('/api/me/avatar')
      .send({ mediaId: (await uploadReady(shown.agent)).id })
      .expect(200);
    const withoutCover = await person(stack, 'creator');
    await withoutCover.agent.put('/api/me/avatar').send({ mediaId: (await uploadReady(withoutCover.agent)).id });

    const res = await stack.agent().get('/api/showcase').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const { creators } = res.body as Showcase;
    expect(creators.map((creator) => creator.id)).toEqual([shown.userId]);
    const [creator] = creators;
    expect(Object.keys(creator).sort()).toEqual(['avatar', 'cover', 'id', 'name']);
    expect(creator.name).toBe('creator Test');
    // The cover keeps the crop's 3:1 box; the phone slot gets the 640 px WebP, the rest are in srcset.
    expect(creator.cover.width / creator.cover.height).toBeCloseTo(3, 1);
    expect(creator.cover.src).toMatch(/^\/api\/media\/[\w-]+\/public\/w640\.webp$/);
    expect(creator.cover.srcSet).toContain(`${creator.cover.src} 640w`);
    expect(creator.avatar?.src).toMatch(/^\/api\/media\/[\w-]+\/public\/w320\.webp$/);
    expect(creator.avatar?.width).toBe(creator.avatar?.height);
    // Every URL is served to anyone signed out.
    for (const url of [
      creator.cover.src,
      creator.avatar!.src,
      ...creator.cover.srcSet.split(', ').map((s) => s.split(' ')[0]),
    ]) {
      const file = await stack.agent().get(url).buffer(true).expect(200);
      expect(file.headers['content-type']).toBe('image/webp');
    }
  });
});
