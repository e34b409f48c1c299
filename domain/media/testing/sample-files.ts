import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { runTool } from '../ffmpeg';

/** Files to upload in tests, made on the spot: nothing binary is kept in the repository. */

/** A landscape JPEG (1600x1200 pixels as stored) that says "rotate 90°" and carries GPS coordinates. */
export function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2a6fdb' } })
    .composite([
      {
        input: Buffer.from('<svg width="400" height="300"><circle cx="200" cy="150" r="120" fill="#f5c518"/></svg>'),
        top: 0,
        left: 0,
      },
    ])
    .withExif({
      IFD0: { Make: 'Lively Test Camera', Model: 'Home' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 7/1' },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Noise that does not compress: a JPEG of about `approxBytes`. */
export async function noisyJpeg(edge: number): Promise<Buffer> {
  return sharp(randomBytes(edge * edge * 3), { raw: { width: edge, height: edge, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A decompression bomb: a valid PNG header announcing 50,000 x 50,000 pixels, in a few dozen bytes. */
export function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(50_000, 0);
  header.writeUInt32BE(50_000, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An H.264/AAC MP4 from ffmpeg's test sources. */
export async function testVideo(options = { seconds: 2, size: '640x360' }): Promise<Buffer> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'lively-sample-')), 'sample.mp4');
  await runTool('ffmpeg', [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=duration=${options.seconds}:size=${options.size}:rate=25`],
    ...['-f', 'lavfi', '-i', `sine=duration=${options.seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file],
  ]);
  return readFile(file);
}

/** Starts like an MP4 (an `ftyp` box), then nothing a decoder can use. */
export function corruptVideo(): Buffer {
  const ftyp = Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isomiso2')]);
  return Buffer.concat([ftyp, randomBytes(50_000)]);
}
