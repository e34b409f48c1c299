/**
 * The media storage contract: one suite every adapter must pass. Keys get a random folder so
 * the suite also runs against a shared bucket.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MediaStorage } from '../storage';

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A stream that yields `bytes` in small chunks, waiting between them (a slow upload). */
function slowly(bytes: Buffer, chunkBytes: number, pauseMs = 0): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += chunkBytes) {
        if (pauseMs) await new Promise((done) => setTimeout(done, pauseMs));
        yield bytes.subarray(at, at + chunkBytes);
      }
    })(),
  );
}

export function describeStorageContract(name: string, open: () => Promise<MediaStorage>, close: () => Promise<void>) {
  describe(`media storage contract: ${name}`, () => {
    let storage: MediaStorage;
    let folder: string;
    const key = (rest: string) => `${folder}/${rest}`;

    beforeAll(async () => {
      storage = await open();
    });
    afterAll(close);
    beforeEach(() => {
      folder = `media/${randomUUID()}`;
    });

    it('stores a buffer and gives back its metadata and bytes', async () => {
      const bytes = randomBytes(10_000);
      const stored = await storage.put(key('original'), bytes, 'image/jpeg');
      expect(stored).toMatchObject({ size: 10_000, contentType: 'image/jpeg' });
      expect(stored.etag).toMatch(/^[\w-]+$/);
      expect(await storage.stat(key('original'))).toEqual(stored);
      const read = await storage.read(key('original'));
      expect(read?.object).toEqual(stored);
      expect((await bytesOf(read!.body)).equals(bytes)).toBe(true);
    });

    it('stores a stream of unknown length', async () => {
      const bytes = randomBytes(300_000);
      const stored = await storage.put(key('video-480.mp4'), slowly(bytes, 64 * 1024), 'video/mp4');
      expect(stored.size).toBe(300_000);
      expect((await bytesOf((await storage.read(key('video-480.mp4')))!.body)).equals(bytes)).toBe(true);
    });

    it('stores an empty object', async () => {
      expect((await storage.put(key('empty'), Buffer.alloc(0), 'text/plain')).size).toBe(0);
      expect((await bytesOf((await storage.read(key('empty')))!.body)).length).toBe(0);
    });

    it('reads an inclusive byte range, reporting the whole object', async () => {
      const bytes = randomBytes(5_000);
      const stored = await storage.put(key('w640.webp'), bytes, 'image/webp');
      const read = await storage.read(key('w640.webp'), { start: 100, end: 1_099 });
      expect(read?.object).toEqual(stored);
      expect((await bytesOf(read!.body)).equals(bytes.subarray(100, 1_100))).toBe(true);
      const last = await storage.read(key('w640.webp'), { start: 4_999, end: 4_999 });
      expect((await bytesOf(last!.body)).equals(bytes.subarray(4_999))).toBe(true);
    });

    it('answers null for an object that does not exist', async () => {
      expect(await storage.stat(key('original'))).toBeNull();
      expect(await storage.read(key('original'))).toBeNull();
      expect(await storage.read(key('original'), { start: 0, end: 9 })).toBeNull();
    });

    it('gives the same etag for the same bytes and another for other bytes', async () => {
      const bytes = randomBytes(2_000);
      const first = await storage.put(key('a'), bytes, 'image/jpeg');
      const again = await storage.put(key('b'), Buffer.from(bytes), 'image/jpeg');
      const other = await storage.put(key('c'), randomBytes(2_000), 'image/jpeg');
      expect(again.etag).toBe(first.etag);
      expect(other.etag).not.toBe(first.etag);
      expect((await storage.stat(key('a')))?.etag).toBe(first.etag);
    });

    it('replaces an object whole on overwrite', async () => {
      await storage.put(key('poster.jpg'), randomBytes(4_000), 'image/jpeg');
      const newer = randomBytes(1_000);
      const stored = await storage.put(key('poster.jpg'), newer, 'image/png');
      expect(await storage.stat(key('poster.jpg'))).toEqual(stored);
      expect(stored).toMatchObject({ size: 1_000, contentType: 'image/png' });
      expect((await bytesOf((await storage.read(key('poster.jpg')))!.body)).equals(newer)).toBe(true);
    });

    it('shows no object while it is being written, and no partial one after a failed write', async () => {
      const bytes = randomBytes(200_000);
      const writing = storage.put(key('original'), slowly(bytes, 20_000, 20), 'video/mp4');
      await new Promise((done) => setTimeout(done, 60));
      expect(await storage.stat(key('original'))).toBeNull();
      await writing;
      expect((await storage.stat(key('original')))?.size).toBe(200_000);

      const failing = Readable.from(
        (async function* () {
          yield randomBytes(10_000);
          throw new Error('connection dropped');
        })(),
      );
      await expect(storage.put(key('broken'), failing, 'video/mp4')).rejects.toThrow('connection dropped');
      expect(await storage.stat(key('broken'))).toBeNull();
    });

    it('deletes everything under a prefix, and again without complaint', async () => {
      await storage.put(key('original'), randomBytes(100), 'image/jpeg');
      await storage.put(key('preview.webp'), randomBytes(100), 'image/webp');
      const neighbour = `${folder}-2/original`;
      await storage.put(neighbour, randomBytes(100), 'image/jpeg');
      await storage.deletePrefix(`${folder}/`);
      expect(await storage.stat(key('original'))).toBeNull();
      expect(await storage.stat(key('preview.webp'))).toBeNull();
      expect(await storage.stat(neighbour)).not.toBeNull();
      await expect(storage.deletePrefix(`${folder}/`)).resolves.toBeUndefined();
      await storage.deletePrefix(`${folder}-2/`);
    });

    it.each(['../escape', 'media/../../escape', '/etc/passwd', 'media/./x', 'media//x', 'media/.hidden', 'a\\b', ''])(
      'refuses the key %j',
      async (bad) => {
        await expect(storage.put(bad, Buffer.from('x'), 'text/plain')).rejects.toThrow('Refused storage key');
        await expect(storage.stat(bad)).rejects.toThrow('Refused storage key');
        await expect(storage.read(bad)).rejects.toThrow('Refused storage key');
      },
    );

    it('refuses a prefix that climbs out', async () => {
      await expect(storage.deletePrefix('../')).rejects.toThrow('Refused storage key');
      await expect(storage.deletePrefix('media/../../')).rejects.toThrow('Refused storage key');
    });
  });
}
