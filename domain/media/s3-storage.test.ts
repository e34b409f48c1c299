import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { createS3Storage } from './s3-storage';
import { describeStorageContract } from './testing/storage-contract';

// A real S3-compatible server (s3rver) on a free loopback port, its objects in a temp folder.
let directory = '';
let server: S3rver;
let endpoint = '';
const options = () => ({
  bucket: 'lively-media',
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  forcePathStyle: true,
});

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'lively-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: 'lively-media' }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  await rm(directory, { recursive: true, force: true });
});

describeStorageContract(
  's3 (s3rver on loopback)',
  async () => createS3Storage(options()),
  async () => undefined,
);

describe('s3 media storage', () => {
  it('sends a long stream as a multipart upload and reads it back whole', async () => {
    const storage = createS3Storage({ ...options(), partBytes: 5 * 1024 * 1024 });
    const bytes = randomBytes(11 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65_536) }, (_, i) =>
      bytes.subarray(i * 65_536, (i + 1) * 65_536),
    );
    const stored = await storage.put('media/multipart/video-1080.mp4', Readable.from(chunks), 'video/mp4');
    expect(stored).toMatchObject({ size: bytes.length, contentType: 'video/mp4' });
    const read = await storage.read('media/multipart/video-1080.mp4', {
      start: 5 * 1024 * 1024 - 10,
      end: 5 * 1024 * 1024 + 9,
    });
    const part: Buffer[] = [];
    for await (const chunk of read!.body) part.push(chunk as Buffer);
    expect(Buffer.concat(part).equals(bytes.subarray(5 * 1024 * 1024 - 10, 5 * 1024 * 1024 + 10))).toBe(true);
    await storage.deletePrefix('media/multipart/');
  });
});
