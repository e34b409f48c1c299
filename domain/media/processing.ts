import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { EventStore } from '../event-store/port';
import { handleCommand, loadState, type CommandContext } from '../shared/command-handler';
import { mediaDecider } from './decider';
import { mediaStream } from './events';
import { ImageUnreadable, processImage } from './image-pipeline';
import type { MediaLimits } from './limits';
import type { MediaStorage } from './storage';
import { mediaKey, mediaPrefix, type MediaVariant } from './variants';
import { processVideo, VideoUnusable } from './video-pipeline';

/**
 * One processing job: the stored original made into its variants, then MediaProcessed (or
 * MediaProcessingFailed with a reason the creator can read). A side effect, run by the job
 * queue, never by a projector. Running it again after it finished records nothing new.
 */

export interface ProcessingDeps {
  store: EventStore;
  storage: MediaStorage;
  limits: MediaLimits;
  /** Where originals are copied to and variants made (under LIVELY_DATA_DIR). */
  workDir: string;
  clock: () => Date;
}

export interface ProcessingRun {
  signal?: AbortSignal;
  /** 0..100 as the work goes. */
  onProgress?: (percent: number) => void;
}

export type ProcessingOutcome = 'ready' | 'failed' | 'skipped';

export async function processMedia(
  deps: ProcessingDeps,
  mediaId: string,
  run: ProcessingRun = {},
): Promise<ProcessingOutcome> {
  const { state } = await loadState(deps.store, mediaStream(mediaId), mediaDecider);
  if (state.status === 'deleted') await deps.storage.deletePrefix(mediaPrefix(mediaId));
  if (state.status !== 'processing' || !state.kind) return 'skipped';
  await mkdir(deps.workDir, { recursive: true });
  const dir = await mkdtemp(path.join(deps.workDir, 'job-'));
  try {
    const original = path.join(dir, 'original');
    if (!(await copyOriginal(deps.storage, mediaId, original)))
      return await fail(deps, mediaId, 'The uploaded file is missing; please upload it again');
    run.onProgress?.(1);
    const variants: MediaVariant[] = [];
    if (state.kind === 'image') {
      const image = await processImage(original, deps.limits.imagePixels);
      for (const file of image.files) {
        await deps.storage.put(mediaKey(mediaId, file.variant), file.body, file.contentType);
        variants.push(file.variant);
      }
      await record(deps, mediaId, { width: image.width, height: image.height, variants });
    } else {
      const video = await processVideo(original, {
        workDir: dir,
        signal: run.signal,
        onProgress: (fraction) => run.onProgress?.(Math.max(1, Math.floor(fraction * 95))),
      });
      for (const file of video.files) {
        await deps.storage.put(mediaKey(mediaId, file.variant), createReadStream(file.path), file.contentType);
        variants.push(file.variant);
      }
      const { width, height, durationSeconds } = video;
      await record(deps, mediaId, { width, height, durationSeconds, variants });
    }
    // The original still carries what the variants dropped (EXIF, GPS): it is not kept.
    await deps.storage.deletePrefix(mediaKey(mediaId, 'original'));
    return 'ready';
  } catch (error) {
    if (error instanceof ImageUnreadable || error instanceof VideoUnusable) return fail(deps, mediaId, error.message);
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function copyOriginal(storage: MediaStorage, mediaId: string, to: string): Promise<boolean> {
  const found = await storage.read(mediaKey(mediaId, 'original'));
  if (!found) return false;
  await pipeline(found.body, createWriteStream(to));
  return true;
}

const systemContext = (deps: Pick<ProcessingDeps, 'clock'>, mediaId: string): CommandContext => ({
  actorId: null,
  correlationId: `media-processing:${mediaId}`,
  now: deps.clock(),
});

async function record(
  deps: ProcessingDeps,
  mediaId: string,
  result: { width: number; height: number; durationSeconds?: number; variants: MediaVariant[] },
): Promise<void> {
  const command = { type: 'RecordProcessed' as const, mediaId, ...result, at: deps.clock() };
  const { state } = await handleCommand(
    deps.store,
    mediaStream(mediaId),
    mediaDecider,
    command,
    systemContext(deps, mediaId),
  );
  // Deleted while it was processed: what was just stored goes too.
  if (state.status === 'deleted') await deps.storage.deletePrefix(mediaPrefix(mediaId));
}

/** Records that processing failed for good, with the reason the creator sees. */
export async function fail(deps: Pick<ProcessingDeps, 'store' | 'clock'>, mediaId: string, reason: string) {
  const command = { type: 'RecordProcessingFailed' as const, mediaId, reason, at: deps.clock() };
  await handleCommand(deps.store, mediaStream(mediaId), mediaDecider, command, systemContext(deps, mediaId));
  return 'failed' as const;
}
