import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkUpload, type MediaIngest, type Uploader } from './ingest';
import { ffmpegAvailable } from './ffmpeg';
import { MEDIA_LIMITS } from './limits';
import { corruptVideo, jpegWithGps, testVideo } from './testing/sample-files';

/** The checks before anything is stored: type by content, who may send which kind, limits. */

const creator: Uploader = { id: 'c1', kinds: ['image', 'video'] };
const member: Uploader = { id: 'm1', kinds: ['image'] };
const ingest = (overrides: Partial<MediaIngest> = {}) =>
  ({ limits: MEDIA_LIMITS, videoEnabled: true, ...overrides }) as MediaIngest;

async function saved(bytes: Buffer) {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'lively-ingest-')), 'upload');
  await writeFile(file, bytes);
  return { path: file, bytes: bytes.length };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
  );

describe('checking an upload', () => {
  it('takes images from members and videos from creators', async () => {
    expect(await checkUpload(ingest(), member, await saved(await jpegWithGps()))).toEqual({
      kind: 'image',
      mime: 'image/jpeg',
    });
    expect(await checkUpload(ingest(), creator, await saved(await testVideo()))).toEqual({
      kind: 'video',
      mime: 'video/mp4',
      durationSeconds: expect.closeTo(2, 0),
    });
    expect(await refusal(checkUpload(ingest(), member, await saved(await testVideo())))).toMatchObject({
      status: 403,
    });
  });

  it('answers 415 with a clear message for videos when ffmpeg is missing', async () => {
    expect(await refusal(checkUpload(ingest({ videoEnabled: false }), creator, await saved(corruptVideo())))).toEqual({
      status: 415,
      message: 'Video uploads are disabled on this server (ffmpeg is not installed); images only',
    });
  });

  it('refuses a video longer than the limit, naming it', async () => {
    const limits = { ...MEDIA_LIMITS, videoSeconds: 60 };
    const long = await saved(await testVideo({ seconds: 61, size: '64x64' }));
    expect(await refusal(checkUpload(ingest({ limits }), creator, long))).toEqual({
      status: 413,
      message: 'Video too long: videos may be at most 1 minute',
    });
  });
});

describe('ffmpeg on PATH', () => {
  it('is found when installed and missed when not', () => {
    expect(ffmpegAvailable()).toBe(true);
    expect(ffmpegAvailable({ ...process.env, PATH: '/nonexistent' })).toBe(false);
  });
});
