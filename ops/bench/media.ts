import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ChildProcess } from 'node:child_process';
import type autocannon from 'autocannon';
import sharp from 'sharp';
import { openEventStore } from '../../domain/event-store';
import type { EventStore } from '../../domain/event-store/port';
import { ffmpegAvailable, runTool } from '../../domain/media/ffmpeg';
import { createFsStorage } from '../../domain/media/fs-storage';
import { processImage } from '../../domain/media/image-pipeline';
import { mediaKey, type MediaVariant } from '../../domain/media/variants';
import { processVideo } from '../../domain/media/video-pipeline';
import { createSealer } from '../../domain/verification/sealing';
import { openReadDatabase } from '../../projections/engine/database';
import { freePort } from '../net';
import { InProcessIdentityVerification } from '../seed/identity';
import { verificationKey } from '../verification-key';
import { parseArgs } from '../commands/command';
import { benchDatabase } from './_database';
import { cannon, fmt, paced, printRow, rotating, settle, type Measured } from './_load';
import { startProcess, startProduct, stopProcesses } from './_servers';

/**
 * Media benchmark (issue 18), each figure beside a baseline measured in the same run:
 * - image pipeline: a 12-megapixel photo-like JPEG to every variant (`processImage`) against
 *   one plain sharp resize of the same file;
 * - transcode: `processVideo` on a generated 1080p clip against its ffmpeg command run directly;
 * - delivery: 200 signed-in subscribers fetching 640 px variants through
 *   `GET /api/media/:id/files/:variant` (signed URLs from their own post views, entitlement
 *   checked per request) against `express.static` serving the same files; a 100 MB video read
 *   in 1 MB Range requests against the same raw file read the same way from `express.static`
 *   (the target's baseline: a raw file, over the same HTTP), and beside a plain in-process
 *   `fs.createReadStream` of it (one copy of the bytes where HTTP makes three);
 * - the watermark: a subscriber's first (rendered) and repeated (cached) views of marked images
 *   against the same images unmarked.
 * The product runs in its own process on a scratch database and data folder.
 */
const TARGET_P99_MS = 25;
const TARGET_SHARE = 0.5;
const PASSWORD = 'Passw0rdGood';

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`;

/** A photo-like picture: soft gradients and shapes under sensor-like noise, so it compresses like a photo. */
function photo(width: number, height: number, seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761 + 1;
  const noise = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) % 25) - 12;
  };
  const cx = width * (0.3 + 0.4 * ((seed * 37) % 10) * 0.1);
  const cy = height * 0.45;
  const r2 = (Math.min(width, height) * 0.3) ** 2;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const inside = (x - cx) ** 2 + (y - cy) ** 2 < r2 ? 60 : 0;
      const n = noise();
      pixels[i] = Math.max(0, Math.min(255, 40 + (x / width) * 150 + inside + n));
      pixels[i + 1] = Math.max(0, Math.min(255, 60 + (y / height) * 120 + ((seed * 53) % 40) + n));
      pixels[i + 2] = Math.max(0, Math.min(255, 170 - (y / height) * 90 + inside / 2 + n));
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

// --- image pipeline -----------------------------------------------------------------------

async function benchImages(workDir: string, rounds: number): Promise<void> {
  const file = path.join(workDir, 'photo-12mp.jpg');
  await writeFile(file, await photo(4000, 3000, 1));
  console.log(
    `\nimage pipeline: 4000x3000 JPEG of ${(((await stat(file)).size / 1e6) as number).toFixed(1)} MB, ${rounds} rounds each`,
  );
  const timeEach = async (work: () => Promise<unknown>) => {
    await work(); // warm-up
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) await work();
    return rounds / seconds(started);
  };
  const plain = await timeEach(() => sharp(file).resize({ width: 640 }).jpeg().toBuffer());
  let variants = 0;
  const product = await timeEach(async () => (variants = (await processImage(file, 100_000_000)).files.length));
  console.log(`  baseline: one plain sharp resize (640 px JPEG)   ${plain.toFixed(2)} images/s`);
  console.log(
    `  processImage: all ${variants} variants            ${product.toFixed(2)} images/s  (${percent(product, plain)} of the plain resize's rate)`,
  );
}

// --- transcode ----------------------------------------------------------------------------

/** The arguments processVideo's main ffmpeg run uses (domain/media/video-pipeline.ts), run directly. */
function directTranscodeArgs(file: string, dir: string): string[] {
  const cap = (edge: number) =>
    `scale=w='trunc(iw*min(1,${edge}/min(iw,ih))/2)*2':h='trunc(ih*min(1,${edge}/min(iw,ih))/2)*2'`;
  const common = [
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'],
    ...['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
    ...['-map_metadata', '-1', '-map_chapters', '-1', '-movflags', '+faststart'],
  ];
  return [
    ...['-hide_banner', '-nostdin', '-y', '-v', 'error', '-progress', 'pipe:1', '-nostats', '-i', file],
    ...['-filter_complex', `[0:v:0]split=2[a][b];[a]${cap(1080)}[hd];[b]${cap(480)}[sd]`],
    ...['-map', '[hd]', ...common, path.join(dir, 'video-1080.mp4')],
    ...['-map', '[sd]', ...common, path.join(dir, 'video-480.mp4')],
  ];
}

async function benchTranscode(workDir: string, clipSeconds: number, rounds: number): Promise<void> {
  if (!ffmpegAvailable()) return void console.log('\ntranscode: skipped (ffmpeg is not on PATH)');
  const clip = path.join(workDir, 'clip-1080p.mp4');
  // A camera-like clip: moving test pattern with temporal grain, and a tone.
  await runTool('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-y', '-v', 'error'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${clipSeconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${clipSeconds}`],
    ...['-vf', 'noise=alls=3:allf=t', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-shortest', clip],
  ]);
  console.log(
    `\ntranscode: ${clipSeconds} s 1920x1080 30 fps clip with grain and audio (${((await stat(clip)).size / 1e6).toFixed(1)} MB)`,
  );
  const direct = path.join(workDir, 'direct');
  await mkdir(direct, { recursive: true });
  const timed = async (work: () => Promise<unknown>) => {
    const started = process.hrtime.bigint();
    await work();
    return clipSeconds / seconds(started);
  };
  const runDirect = () => timed(() => runTool('ffmpeg', directTranscodeArgs(clip, direct)));
  const runProduct = () => timed(async () => (await processVideo(clip, { workDir })).cleanUp());
  // Taking turns (and medians), so a change in the machine's load does not favour either side.
  const directRuns: number[] = [];
  const productRuns: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) directRuns.push(await runDirect());
    productRuns.push(await runProduct());
    if (round % 2 === 1) directRuns.push(await runDirect());
  }
  const [directSpeed, productSpeed] = [median(directRuns), median(productRuns)];
  const list = (runs: number[]) => runs.map((x) => `${x.toFixed(2)}x`).join(', ');
  console.log(
    `  baseline: the same ffmpeg command run directly   ${directSpeed.toFixed(2)}x realtime (${list(directRuns)})`,
  );
  console.log(
    `  processVideo (1080p + 480p, probes, poster)     ${productSpeed.toFixed(2)}x realtime (${list(productRuns)}), ${percent(productSpeed, directSpeed)} of the direct command's speed`,
  );
}

// --- delivery -----------------------------------------------------------------------------

interface Session {
  id: string;
  cookie: string;
}

async function register(baseUrl: string, name: string, i: number): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: baseUrl,
      'x-forwarded-for': `10.81.${i % 250}.${Math.floor(i / 250) + 1}`,
    },
    body: JSON.stringify({
      firstName: name,
      lastName: `Bench${i}`,
      email: `${name.toLowerCase()}${i}.${Date.now()}@bench.test`,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      paymentToken: `dev_tok_bench_media_${i}`,
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('lively.sid=')) ?? '').split(';')[0];
  for (let tries = 0; tries < 600; tries++) {
    // The answer's user is null when the read models lag behind (a busy machine): ask until active.
    const me = (await (await fetch(`${baseUrl}/api/auth/user`, { headers: { cookie } })).json()) as {
      id?: string;
      subscriptionStatus?: string;
    };
    if (me.id && me.subscriptionStatus === 'active') return { id: me.id, cookie };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('a bench member never became active');
}

async function call(baseUrl: string, session: Session, method: string, url: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { cookie: session.cookie, origin: baseUrl, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

/** Photos uploaded through POST /api/media and processed by the product's job queue. */
async function uploadPhotos(baseUrl: string, creator: Session, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await photo(960, 640, i + 2))], { type: 'image/jpeg' }),
      `photo-${i}.jpg`,
    );
    const res = await fetch(`${baseUrl}/api/media`, {
      method: 'POST',
      headers: { cookie: creator.cookie, origin: baseUrl },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  for (const id of ids)
    for (let tries = 0; ; tries++) {
      const item = await call(baseUrl, creator, 'GET', `/api/media/${id}`);
      if (item.status === 'ready') break;
      if (item.status === 'failed' || tries > 600) throw new Error(`media ${id}: ${JSON.stringify(item)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  return ids;
}

/**
 * The creator's identity verified (issue 20: locked posts need it) by the verification
 * context's commands, sealed with the product's key and kept in its storage (the same data folder).
 */
async function verifyIdentity(store: EventStore, dataDir: string, creatorId: string): Promise<void> {
  const identity = new InProcessIdentityVerification({
    storage: createFsStorage(path.join(dataDir, 'media')),
    sealer: createSealer(verificationKey(dataDir)),
  });
  try {
    await identity.verify(store, { id: creatorId, firstName: 'Bench', lastName: 'Photographer' }, new Date());
  } finally {
    await identity.close();
  }
}

/** A 100 MB video as processing leaves one: its events, and the object in the product's storage. */
async function seedVideo(store: EventStore, dataDir: string, ownerId: string, rawFile: string): Promise<string> {
  const mediaId = crypto.randomUUID();
  const at = new Date().toISOString();
  const size = (await stat(rawFile)).size;
  const variants: MediaVariant[] = ['video-1080.mp4'];
  await store.append(
    `media-${mediaId}`,
    [
      { type: 'MediaUploaded', data: { mediaId, ownerId, kind: 'video', mime: 'video/mp4', bytes: size, at } },
      { type: 'MediaProcessed', data: { mediaId, width: 1920, height: 1080, durationSeconds: 60, variants, at } },
    ],
    { expectedRevision: 'no_stream' },
  );
  await createFsStorage(path.join(dataDir, 'media')).put(
    mediaKey(mediaId, 'video-1080.mp4'),
    createReadStream(rawFile),
    'video/mp4',
  );
  return mediaId;
}

/**
 * `--cpu-prof <dir>`: the product as startProduct runs it, but under `node --cpu-prof`, so it
 * leaves a V8 CPU profile in `dir` when it stops (open it in Chrome's DevTools).
 */
async function startProfiledProduct(databaseUrl: string, dir: string) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    REALTIME_PORT: String(await freePort()),
    METRICS_PORT: String(await freePort()),
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
  };
  const args = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', 'tsx', path.resolve(__dirname, '../start.ts')];
  return { baseUrl, child: await startProcess(args, env, `${baseUrl}/api/health`) };
}

const STATIC_SERVER = `
const express = require('express');
const app = express();
app.use('/files', express.static(process.env.FILES_DIR));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;

/** One kept-alive HTTP client, so the client's own cost stays small beside the server's. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** MB/s of reading the whole object in `rangeBytes` Range requests, one after another. */
async function streamByRanges(url: string, cookie: string, size: number, rangeBytes: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let start = 0; start < size; start += rangeBytes) {
    const end = Math.min(size, start + rangeBytes) - 1;
    const res = await get(url, { cookie, range: `bytes=${start}-${end}` });
    if (res.status !== 206 || res.bytes !== end - start + 1)
      throw new Error(`range ${start}-${end}: ${res.status}, ${res.bytes} bytes`);
  }
  return size / 1e6 / seconds(started);
}

async function rawRead(file: string): Promise<number> {
  const started = process.hrtime.bigint();
  let bytes = 0;
  for await (const chunk of createReadStream(file)) bytes += (chunk as Buffer).length;
  return bytes / 1e6 / seconds(started);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Sequential fetches of `targets` (one connection): per-request milliseconds. */
async function sequential(baseUrl: string, targets: Array<{ path: string; cookie: string }>): Promise<number[]> {
  const times: number[] = [];
  for (const target of targets) {
    const started = process.hrtime.bigint();
    const res = await get(`${baseUrl}${target.path}`, { cookie: target.cookie });
    if (res.status !== 200) throw new Error(`GET ${target.path}: ${res.status}`);
    times.push(seconds(started) * 1000);
  }
  return times;
}

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return `mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1)} ms, p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
};

async function benchDelivery(
  workDir: string,
  options: {
    viewers: number;
    photos: number;
    rate: number;
    duration: number;
    videoMb: number;
    marked: number;
    cpuProf?: string;
  },
): Promise<void> {
  const database = await benchDatabase('bench_media');
  const dataDir = path.join(workDir, 'data');
  // The product and this process share the data folder (media storage) and the URL secret.
  process.env.LIVELY_DATA_DIR = dataDir;
  process.env.MEDIA_URL_SECRET ??= randomBytes(32).toString('base64url');
  const children: ChildProcess[] = [];
  const store = await openEventStore({ databaseUrl: database.url });
  const db = openReadDatabase(database.url, 2);
  try {
    const product = options.cpuProf
      ? await startProfiledProduct(database.url, options.cpuProf)
      : await startProduct(database.url);
    children.push(product.child);
    const baseUrl = product.baseUrl;
    console.log(
      `\ndelivery: ${options.viewers} subscribers, ${options.photos} photos (960x640 uploads, served at 640 px), ${options.videoMb} MB video`,
    );

    const creator = await register(baseUrl, 'Creator', 0);
    await call(baseUrl, creator, 'POST', '/api/creators/register', { bio: 'Bench photographer' });
    const photoIds = await uploadPhotos(baseUrl, creator, options.photos);
    const rawFile = path.join(workDir, 'video.raw');
    await pipeline(
      (async function* () {
        for (let i = 0; i < options.videoMb; i++) yield randomBytes(1 << 20);
      })(),
      createWriteStream(rawFile),
    );
    const videoId = await seedVideo(store, dataDir, creator.id, rawFile);
    await verifyIdentity(store, dataDir, creator.id);
    await settle(store, db);
    const post = await call(baseUrl, creator, 'POST', '/api/posts', {
      title: 'Locked gallery',
      content: 'For subscribers',
      mediaIds: [...photoIds, videoId],
    });

    const viewers: Session[] = [];
    let next = 1;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next <= options.viewers) {
          const viewer = await register(baseUrl, 'Viewer', next++);
          await call(baseUrl, viewer, 'POST', '/api/subscriptions', {
            creatorId: creator.id,
            tierId: 'default-premium',
          });
          viewers.push(viewer);
        }
      }),
    );
    await settle(store, db);
    // Each subscriber's own view of the post: the signed URLs the web client would load.
    const views = await Promise.all(
      viewers.map(async (viewer) => {
        const seen = (await call(baseUrl, viewer, 'GET', `/api/posts/${post.id}`)) as {
          media: Array<{ id: string; url?: string }>;
        };
        const urls = seen.media.map((item) => item.url);
        if (urls.some((url) => !url)) throw new Error('a subscriber was not entitled');
        return { viewer, photos: urls.slice(0, -1) as string[], video: urls.at(-1)! };
      }),
    );
    if (!views[0].photos[0].includes('/files/w640.webp?')) throw new Error(`unexpected variant: ${views[0].photos[0]}`);
    const targets = views.flatMap(({ viewer, photos }) => photos.map((url) => ({ path: url, cookie: viewer.cookie })));

    // The same files, plain, for express.static.
    const filesDir = path.join(workDir, 'static');
    await mkdir(filesDir, { recursive: true });
    const storage = createFsStorage(path.join(dataDir, 'media'));
    for (const id of photoIds) {
      const found = await storage.read(mediaKey(id, 'w640.webp'));
      await pipeline(found!.body, createWriteStream(path.join(filesDir, `${id}.webp`)));
    }
    await copyFile(rawFile, path.join(filesDir, 'video.mp4'));
    const staticPort = await freePort();
    const staticBase = `http://127.0.0.1:${staticPort}`;
    children.push(
      await startProcess(
        ['-e', STATIC_SERVER],
        { PORT: String(staticPort), FILES_DIR: filesDir, NODE_PATH: path.resolve(__dirname, '../../node_modules') },
        `${staticBase}/files/${photoIds[0]}.webp`,
      ),
    );
    const staticRequests: autocannon.Request[] = [
      rotating(photoIds.map((id) => ({ path: `/files/${id}.webp`, cookie: '' }))),
    ];
    const productRequests = [rotating(targets)];

    const rows: Array<[string, Measured]> = [];
    const load = async (label: string, url: string, requests: autocannon.Request[]) => {
      await cannon({ url, connections: options.viewers, duration: 2, requests }); // warm-up
      const atRate = await paced({
        url,
        rate: options.rate,
        duration: options.duration,
        requests,
        streams: options.viewers,
      });
      const max = await cannon({ url, connections: options.viewers, duration: options.duration, requests });
      rows.push([`${label} @${options.rate}/s`, atRate], [`${label}, max`, max]);
      return { atRate, max };
    };
    const plain = await load('baseline: express.static, 640 px', staticBase, staticRequests);
    const served = await load('GET /api/media/:id/files/w640.webp', baseUrl, productRequests);

    // Range: one subscriber's player reading the whole video in 1 MB ranges, against the raw
    // file read the same way from express.static, and beside an in-process read.
    const size = options.videoMb << 20;
    const video = views[0];
    const rawRuns: number[] = [];
    const staticRuns: number[] = [];
    const rangeRuns: number[] = [];
    const rawOverHttp = () => streamByRanges(`${staticBase}/files/video.mp4`, '', size, 1 << 20);
    await rawOverHttp(); // warm-up
    await streamByRanges(`${baseUrl}${video.video}`, video.viewer.cookie, size, 1 << 20);
    for (let i = 0; i < 3; i++) {
      rawRuns.push(await rawRead(rawFile));
      staticRuns.push(await rawOverHttp());
      rangeRuns.push(await streamByRanges(`${baseUrl}${video.video}`, video.viewer.cookie, size, 1 << 20));
    }
    const raw = median(rawRuns);
    const rawHttp = median(staticRuns);
    const ranged = median(rangeRuns);

    // The watermark: the first views render a copy per viewer, the next come from the cache.
    const markedTargets = targets.slice(0, options.marked);
    const unmarkedSeq = await sequential(baseUrl, markedTargets);
    const unmarkedMax = await cannon({
      url: baseUrl,
      connections: 50,
      duration: 5,
      requests: [rotating(markedTargets)],
    });
    await call(baseUrl, creator, 'PUT', '/api/creators/me/watermark', { enabled: true });
    const firstViews = await sequential(baseUrl, markedTargets);
    const cachedViews = await sequential(baseUrl, markedTargets);
    const markedMax = await cannon({ url: baseUrl, connections: 50, duration: 5, requests: [rotating(markedTargets)] });
    const check = await fetch(`${baseUrl}${markedTargets[0].path}`, { headers: { cookie: markedTargets[0].cookie } });
    if (!check.headers.get('etag')?.includes('.w')) throw new Error('the watermark was not applied');

    console.log('');
    for (const [label, measured] of rows) printRow(label, measured);
    const p99ok = served.atRate.p99 < TARGET_P99_MS && served.atRate.non2xx === 0 && served.atRate.errors === 0;
    const share = served.max.rps / plain.max.rps;
    console.log(
      `\n640 px delivery p99 @${options.rate}/s ${served.atRate.p99.toFixed(1)} ms, target < ${TARGET_P99_MS} ms: ${verdict(p99ok)}`,
    );
    console.log(
      `640 px delivery max ${fmt(served.max.rps)} req/s = ${percent(served.max.rps, plain.max.rps)} of express.static's ${fmt(plain.max.rps)}, target >= ${TARGET_SHARE * 100}%: ${verdict(share >= TARGET_SHARE && served.max.non2xx === 0)}`,
    );
    const runs = (values: number[]) => `runs ${values.map(fmt).join(', ')}`;
    console.log(
      `\n${options.videoMb} MB video in 1 MB Range requests: ${fmt(ranged)} MB/s (${runs(rangeRuns)})` +
        `\n  baseline: the raw file by the same Range requests from express.static ${fmt(rawHttp)} MB/s (${runs(staticRuns)})` +
        `\n  beside: an in-process fs.createReadStream of it ${fmt(raw)} MB/s (${runs(rawRuns)}), ${percent(ranged, raw)} of it`,
    );
    console.log(
      `  = ${percent(ranged, rawHttp)} of the raw file's rate, target >= ${TARGET_SHARE * 100}%: ${verdict(ranged / rawHttp >= TARGET_SHARE)}`,
    );
    console.log(`\nwatermark, ${markedTargets.length} (viewer, photo) pairs fetched one after another:`);
    console.log(`  baseline: unmarked          ${summary(unmarkedSeq)}`);
    console.log(`  marked, first view (render) ${summary(firstViews)}`);
    console.log(`  marked, cached view         ${summary(cachedViews)}`);
    printRow('  unmarked, max (50 connections)', unmarkedMax);
    printRow('  marked and cached, max (50 connections)', markedMax);
  } finally {
    await stopProcesses(children);
    agent.destroy();
    await db.destroy();
    await store.close();
    await database.drop();
  }
}

export async function run(args: string[]): Promise<void> {
  const { options } = parseArgs(args);
  const only = typeof options.only === 'string' ? options.only.split(',') : ['images', 'transcode', 'delivery'];
  const workDir = await mkdtemp(path.join(tmpdir(), 'lively-bench-media-'));
  try {
    if (only.includes('images')) await benchImages(workDir, Number(options.rounds ?? 5));
    if (only.includes('transcode'))
      await benchTranscode(workDir, Number(options['clip-seconds'] ?? 24), Number(options['transcode-rounds'] ?? 2));
    if (only.includes('delivery'))
      await benchDelivery(workDir, {
        viewers: Number(options.viewers ?? 200),
        photos: Number(options.photos ?? 8),
        rate: Number(options.rate ?? 200),
        duration: Number(options.duration ?? 10),
        videoMb: Number(options['video-mb'] ?? 100),
        marked: Number(options.marked ?? 160),
        cpuProf: typeof options['cpu-prof'] === 'string' ? path.resolve(options['cpu-prof']) : undefined,
      });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
