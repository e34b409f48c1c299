import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { probe, runTool } from './ffmpeg';
import { ImageUnreadable, processImage, widthsFor } from './image-pipeline';
import { sniffHead } from './sniff';
import { pngBomb } from './testing/sample-files';
import { processVideo, progressOf, VideoUnusable } from './video-pipeline';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lively-pipelines-'));
});

async function saved(name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

async function ffmpegSample(name: string, args: string[]): Promise<string> {
  const file = path.join(dir, name);
  await runTool('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args, file]);
  return file;
}

describe('sniffing', () => {
  it('names each type we take by its first bytes, and nothing else', async () => {
    const image = (format: 'png' | 'webp' | 'gif' | 'jpeg' | 'avif') =>
      sharp({ create: { width: 8, height: 8, channels: 3, background: '#abc' } })
        .toFormat(format)
        .toBuffer();
    expect(sniffHead(await image('jpeg'))).toEqual({ kind: 'image', mime: 'image/jpeg' });
    expect(sniffHead(await image('png'))).toEqual({ kind: 'image', mime: 'image/png' });
    expect(sniffHead(await image('webp'))).toEqual({ kind: 'image', mime: 'image/webp' });
    expect(sniffHead(await image('gif'))).toEqual({ kind: 'image', mime: 'image/gif' });
    expect(sniffHead(await image('avif'))).toEqual({ kind: 'image', mime: 'image/avif' });
    expect(sniffHead(Buffer.from('<html><body>not a picture</body></html>'))).toBeNull();
    expect(sniffHead(Buffer.from('%PDF-1.7 1 0 obj'))).toBeNull();
    expect(sniffHead(Buffer.from([0xff, 0xd8]))).toBeNull();
  });
});

describe('image pipeline', () => {
  it('makes every width up to the source, and the smallest for a small source', () => {
    expect(widthsFor(5000)).toEqual([320, 640, 1280, 2048]);
    expect(widthsFor(1000)).toEqual([320, 640]);
    expect(widthsFor(100)).toEqual([320]);
  });

  it("takes a GIF's first frame and flattens a transparent PNG onto white for the JPEG", async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 400, height: 200, channels: 3, background: colour } })
        .raw()
        .toBuffer();
    const gif = await sharp(Buffer.concat([await frame('#ff0000'), await frame('#0000ff')]), {
      raw: { width: 400, height: 200, channels: 3, pageHeight: 200 },
    })
      .gif()
      .toBuffer();
    const fromGif = await processImage(await saved('two-frames.gif', gif), 100_000_000);
    expect([fromGif.width, fromGif.height]).toEqual([400, 200]);
    const jpeg = fromGif.files.find((f) => f.variant === 'w320.jpg')!;
    const { dominant } = await sharp(jpeg.body).stats();
    expect(dominant.r).toBeGreaterThan(200);
    expect(dominant.b).toBeLessThan(60);

    const clear = await sharp({ create: { width: 300, height: 300, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const fromPng = await processImage(await saved('clear.png', clear), 100_000_000);
    const flat = fromPng.files.find((f) => f.variant === 'w320.jpg')!;
    expect((await sharp(flat.body).stats()).dominant).toMatchObject({ r: 248, g: 248, b: 248 });
    const webp = await sharp(fromPng.files.find((f) => f.variant === 'w320.webp')!.body).metadata();
    expect(webp.hasAlpha).toBe(true);
  });

  it('refuses a decompression bomb before decoding it', async () => {
    await expect(processImage(await saved('bomb.png', pngBomb()), 100_000_000)).rejects.toBeInstanceOf(ImageUnreadable);
  });
});

describe('video pipeline', () => {
  it('reads progress from ffmpeg -progress lines', () => {
    expect(progressOf('out_time_us=1500000', 3)).toBe(0.5);
    expect(progressOf('out_time_ms=3000000', 3)).toBe(1);
    expect(progressOf('out_time_us=9000000', 3)).toBe(1);
    expect(progressOf('progress=continue', 3)).toBeNull();
    expect(progressOf('out_time_us=1000', 0)).toBeNull();
  });

  it('caps a 1440p source at 1080p, makes a 480p rendition, and plays without audio', async () => {
    const source = await ffmpegSample('big.mov', [
      ...['-f', 'lavfi', '-i', 'testsrc=duration=1:size=2560x1440:rate=5'],
      ...['-c:v', 'mpeg4', '-q:v', '5'],
    ]);
    const progress: number[] = [];
    const video = await processVideo(source, { workDir: dir, onProgress: (f) => progress.push(f) });
    try {
      expect([video.width, video.height]).toEqual([1920, 1080]);
      expect(video.durationSeconds).toBeCloseTo(1, 0);
      const file = (variant: string) => video.files.find((f) => f.variant === variant)!.path;
      const sd = await probe(file('video-480.mp4'));
      expect(sd.video).toMatchObject({ height: 480, codec: 'h264' });
      expect(sd.hasAudio).toBe(false);
      expect(progress[progress.length - 1]).toBe(1);
    } finally {
      await video.cleanUp();
    }
  });

  it('turns a WebM (VP8/Opus) into H.264/AAC with the sound kept', async () => {
    const source = await ffmpegSample('clip.webm', [
      ...['-f', 'lavfi', '-i', 'testsrc=duration=1:size=320x240:rate=10', '-f', 'lavfi', '-i', 'sine=duration=1'],
      ...['-c:v', 'libvpx', '-c:a', 'libopus', '-shortest'],
    ]);
    expect(sniffHead(await readFile(source))).toEqual({ kind: 'video', mime: 'video/webm' });
    const video = await processVideo(source, { workDir: dir });
    try {
      const hd = await probe(video.files.find((f) => f.variant === 'video-1080.mp4')!.path);
      expect(hd).toMatchObject({ video: { width: 320, height: 240, codec: 'h264' }, hasAudio: true });
    } finally {
      await video.cleanUp();
    }
  });

  it('says why a file that is not a video cannot be used', async () => {
    const notVideo = await saved('notes.mp4', Buffer.from('these are my notes, not a video'));
    const refusal = processVideo(notVideo, { workDir: dir });
    await expect(refusal).rejects.toBeInstanceOf(VideoUnusable);
    await expect(refusal).rejects.toThrow(
      'This video could not be read: the file is damaged or uses a format we do not support',
    );
  });
});
