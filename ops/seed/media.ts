import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { MediaItem } from '../../domain/contracts/media';
import { ffmpegAvailable, runTool } from '../../domain/media/ffmpeg';

/**
 * Generated pictures and clips for the demo (issue 18), so a newcomer's first look shows
 * imagery: gradients, shapes and the person's name drawn with sharp from SVG, and short ffmpeg
 * test patterns with a tone. Everything is derived from a number (the person's or post's
 * index), so the same seed makes the same files. They go in through the real upload path.
 */

const PALETTES = [
  ['#ff6b6b', '#f06595', '#845ef7'],
  ['#4dabf7', '#3bc9db', '#38d9a9'],
  ['#ffd43b', '#ff922b', '#f03e3e'],
  ['#69db7c', '#20c997', '#1c7ed6'],
  ['#da77f2', '#9775fa', '#5c7cfa'],
  ['#ffa94d', '#e64980', '#7048e8'],
  ['#63e6be', '#74c0fc', '#b197fc'],
] as const;

/** A small deterministic generator (mulberry32): the same seed, the same shapes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** A gradient with soft circles and rounded shapes, and optionally a line of text. */
function artSvg(width: number, height: number, seed: number, text?: string): string {
  const next = random(seed);
  const [a, b, c] = PALETTES[seed % PALETTES.length];
  const shapes = Array.from({ length: 9 }, (_, i) => {
    const x = Math.round(next() * width);
    const y = Math.round(next() * height);
    const size = Math.round((0.08 + next() * 0.3) * Math.min(width, height));
    const fill = [a, b, c, '#ffffff'][i % 4];
    const opacity = (0.15 + next() * 0.35).toFixed(2);
    return i % 3 === 0
      ? `<rect x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}" rx="${size / 5}" fill="${fill}" opacity="${opacity}" transform="rotate(${Math.round(next() * 90)} ${x} ${y})"/>`
      : `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${fill}" opacity="${opacity}"/>`;
  }).join('');
  // As large as fits: initials fill an avatar, a name spans most of a cover.
  const fontSize = Math.round(Math.min(width / Math.max(2.2, (text?.length ?? 0) * 0.62), height / 2.6));
  const label = text
    ? `<text x="50%" y="54%" text-anchor="middle" dominant-baseline="middle" font-family="DejaVu Sans, sans-serif"
        font-weight="bold" font-size="${fontSize}" fill="#ffffff" fill-opacity="0.92">${escapeXml(text)}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${a}"/><stop offset="0.55" stop-color="${b}"/><stop offset="1" stop-color="${c}"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${shapes}${label}</svg>`;
}

/** A generated JPEG of `width` x `height`. */
export function generatedImage(width: number, height: number, seed: number, text?: string): Promise<Buffer> {
  return sharp(Buffer.from(artSvg(width, height, seed, text)))
    .jpeg({ quality: 85 })
    .toBuffer();
}

const initials = (firstName: string, lastName: string) => `${firstName[0] ?? ''}${lastName[0] ?? ''}`;

/** Whether the seed can make videos (ffmpeg on PATH). */
export const videosPossible = () => ffmpegAvailable();

/** A 640x360 MP4 of an ffmpeg test pattern (a test card or a Mandelbrot zoom) with a tone, `seconds` long. */
export async function generatedVideo(seed: number, seconds: number): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lively-seed-video-'));
  try {
    const file = path.join(dir, 'clip.mp4');
    // Seeds 0-1 a test card, 2-3 a Mandelbrot zoom, and so on: neighbouring posts differ.
    const pattern =
      Math.floor(seed / 2) % 2 === 0 ? 'testsrc2=size=640x360:rate=25' : 'mandelbrot=size=640x360:rate=25';
    await runTool('ffmpeg', [
      ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', pattern],
      ...['-f', 'lavfi', '-i', `sine=frequency=${330 + (seed % 5) * 110}`, '-t', String(seconds)],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file],
    ]);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What uploading needs of a seeded person's HTTP client. */
export interface Uploading {
  upload(bytes: Buffer, filename: string, contentType: string): Promise<{ id: string }>;
  ok<T = unknown>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T>;
  call<T = unknown>(method: 'GET', path: string): Promise<{ status: number; body: T }>;
}

/** Uploads a file and waits until it is processed; its id, or an Error with the reason it failed. */
export async function uploadReady(
  client: Uploading,
  file: { bytes: Buffer; filename: string; contentType: string },
): Promise<string> {
  const { id } = await client.upload(file.bytes, file.filename, file.contentType);
  for (let waited = 0; waited < 120_000; waited += 100) {
    const { status, body } = await client.call<MediaItem>('GET', `/api/media/${id}`);
    // 404: not in the media read model yet (the upload waits for it, but only so long).
    if (status !== 200 && status !== 404) throw new Error(`GET /api/media/${id} -> ${status}`);
    const item = status === 200 ? body : undefined;
    if (item?.status === 'ready') return id;
    if (item?.status === 'failed') throw new Error(`${file.filename} failed to process: ${item.failureReason}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${file.filename} was still processing after two minutes`);
}

/** A person's generated avatar, uploaded and set (PUT /api/me/avatar). */
export async function seedAvatar(client: Uploading, person: { firstName: string; lastName: string }, seed: number) {
  const bytes = await generatedImage(320, 320, seed, initials(person.firstName, person.lastName));
  const mediaId = await uploadReady(client, { bytes, filename: 'avatar.jpg', contentType: 'image/jpeg' });
  await client.ok('PUT', '/api/me/avatar', { mediaId });
}

/** A creator's generated cover with their name, uploaded and set (PUT /api/creators/me/cover). */
export async function seedCover(client: Uploading, name: string, seed: number) {
  const bytes = await generatedImage(1280, 427, seed + 101, name);
  const mediaId = await uploadReady(client, { bytes, filename: 'cover.jpg', contentType: 'image/jpeg' });
  await client.ok('PUT', '/api/creators/me/cover', { mediaId });
}

/** The media of a photo post: 1 to 4 generated photos (by the seed), landscape or portrait. */
export async function seedPhotos(client: Uploading, seed: number): Promise<string[]> {
  const count = [1, 4, 3, 2][Math.floor(seed / 2) % 4];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const portrait = (seed + i) % 3 === 2;
    const bytes = await generatedImage(portrait ? 600 : 960, portrait ? 800 : 640, seed * 7 + i + 11);
    ids.push(await uploadReady(client, { bytes, filename: `photo-${i + 1}.jpg`, contentType: 'image/jpeg' }));
  }
  return ids;
}

/** A generated 3 second clip, uploaded and processed. */
export async function seedVideo(client: Uploading, seed: number): Promise<string> {
  const bytes = await generatedVideo(seed, 3);
  return uploadReady(client, { bytes, filename: 'clip.mp4', contentType: 'video/mp4' });
}
