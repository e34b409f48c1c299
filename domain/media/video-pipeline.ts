import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { probe, runTool, ToolFailed, type Probe } from './ffmpeg';
import { blurredPreview } from './image-pipeline';
import type { MediaVariant } from './variants';

/**
 * An uploaded video made into what is served, by one ffmpeg run that decodes once: H.264/AAC
 * MP4 with +faststart at the source size capped at 1080p (video-1080.mp4) and a 480p rendition
 * (video-480.mp4), metadata dropped; then a poster frame and its blurred preview.
 */

export interface ProcessedVideo {
  width: number;
  height: number;
  durationSeconds: number;
  files: Array<{ variant: MediaVariant; path: string; contentType: string }>;
  /** Removes the folder the files were written to. */
  cleanUp(): Promise<void>;
}

/** A video we cannot make playable: its reason is what the creator reads. */
export class VideoUnusable extends Error {
  constructor(message: string, cause?: unknown) {
    super(message);
    this.name = 'VideoUnusable';
    this.cause = cause;
  }
}

const UNREADABLE = 'This video could not be read: the file is damaged or uses a format we do not support';

/** A scale filter: the short edge at most `edge` px, even sizes (H.264 needs them), never enlarged. */
const capShortEdge = (edge: number) =>
  `scale=w='trunc(iw*min(1,${edge}/min(iw,ih))/2)*2':h='trunc(ih*min(1,${edge}/min(iw,ih))/2)*2'`;

/** ffmpeg's -progress lines ("out_time_us=1234567") as a fraction of the duration. */
export function progressOf(line: string, durationSeconds: number): number | null {
  const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
  if (!match || durationSeconds <= 0) return null;
  return Math.min(1, Number(match[1]) / 1_000_000 / durationSeconds);
}

/** What ffprobe makes of the upload, or VideoUnusable with a reason. */
export async function readVideo(
  file: string,
  signal?: AbortSignal,
): Promise<Probe & { video: NonNullable<Probe['video']> }> {
  let probed: Probe;
  try {
    probed = await probe(file, signal);
  } catch (error) {
    if (error instanceof ToolFailed) throw new VideoUnusable(UNREADABLE, error);
    throw error;
  }
  if (!probed.video) throw new VideoUnusable('This file has no video picture we can read');
  return probed as Probe & { video: NonNullable<Probe['video']> };
}

export async function processVideo(
  file: string,
  options: { workDir: string; signal?: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<ProcessedVideo> {
  const source = await readVideo(file, options.signal);
  const dir = await mkdtemp(path.join(options.workDir, 'video-'));
  const out = (name: string) => path.join(dir, name);
  try {
    const audio = source.hasAudio ? ['-map', '0:a:0', '-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : [];
    const encode = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'];
    const common = [...encode, ...audio, '-map_metadata', '-1', '-map_chapters', '-1', '-movflags', '+faststart'];
    const args = [
      ...['-hide_banner', '-nostdin', '-y', '-v', 'error', '-progress', 'pipe:1', '-nostats', '-i', file],
      ...['-filter_complex', `[0:v:0]split=2[a][b];[a]${capShortEdge(1080)}[hd];[b]${capShortEdge(480)}[sd]`],
      ...['-map', '[hd]', ...common, out('video-1080.mp4')],
      ...['-map', '[sd]', ...common, out('video-480.mp4')],
    ];
    try {
      await runTool('ffmpeg', args, {
        signal: options.signal,
        onLine: (line) => {
          const fraction = progressOf(line, source.durationSeconds);
          if (fraction !== null) options.onProgress?.(fraction);
        },
      });
    } catch (error) {
      if (error instanceof ToolFailed) throw new VideoUnusable(UNREADABLE, error);
      throw error;
    }
    const made = await readVideo(out('video-1080.mp4'), options.signal);
    const at = Math.min(1, made.durationSeconds / 2).toFixed(3);
    const frame = ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-ss', at, '-i', out('video-1080.mp4')];
    await runTool('ffmpeg', [...frame, '-frames:v', '1', '-f', 'image2', '-c:v', 'png', out('frame.png')], {
      signal: options.signal,
    });
    // Through sharp: a poster with no metadata at all, and its blurred twin.
    const frameBytes = await readFile(out('frame.png'));
    await sharp(frameBytes).jpeg({ quality: 82, mozjpeg: true }).toFile(out('poster.jpg'));
    await writeFile(out('poster-preview.webp'), await blurredPreview(sharp(frameBytes)));
    options.onProgress?.(1);
    return {
      width: made.video.width,
      height: made.video.height,
      durationSeconds: Math.round(source.durationSeconds * 1000) / 1000,
      files: [
        { variant: 'video-1080.mp4', path: out('video-1080.mp4'), contentType: 'video/mp4' },
        { variant: 'video-480.mp4', path: out('video-480.mp4'), contentType: 'video/mp4' },
        { variant: 'poster.jpg', path: out('poster.jpg'), contentType: 'image/jpeg' },
        { variant: 'poster-preview.webp', path: out('poster-preview.webp'), contentType: 'image/webp' },
      ],
      cleanUp: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
