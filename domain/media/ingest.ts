import { createReadStream } from 'node:fs';
import type { MediaUploadResult } from '../contracts/media';
import type { EventStore } from '../event-store/port';
import { handleCommand, type CommandContext, type CommandResult } from '../shared/command-handler';
import { newId } from '../shared/ids';
import { mediaDecider } from './decider';
import { mediaStream, type MediaEvent } from './events';
import { probe } from './ffmpeg';
import type { MediaJobs } from './job-queue';
import { bytesLimit, refuseMedia, type MediaLimits } from './limits';
import type { MediaProgress } from './progress';
import { imageHeader, readHead, sniffHead, type Sniffed } from './sniff';
import type { MediaStorage } from './storage';
import { mediaKey, type MediaKind } from './variants';

/**
 * Taking an uploaded file in (multipart or resumable, same path): its type from its content,
 * the limits, the original stored, MediaUploaded appended, then a processing job queued.
 * Refusals are MediaRefusal (413, 415, 400, 403) with the message the uploader reads.
 */

/** What the API needs to take uploads in: the composition root builds it (ports.mediaIngest). */
export interface MediaIngest {
  storage: MediaStorage;
  jobs: MediaJobs;
  progress: MediaProgress;
  limits: MediaLimits;
  /** False without ffmpeg on PATH: images only. */
  videoEnabled: boolean;
  /** Where uploads are written while they arrive (under LIVELY_DATA_DIR). */
  uploadDir: string;
}

export interface Uploader {
  id: string;
  /** The kinds this uploader may send: creators images and videos, members images. */
  kinds: readonly MediaKind[];
}

export interface UploadedFile {
  path: string;
  bytes: number;
}

/** Checks a received file against type and limits; the sniffed type when it may be taken in. */
export async function checkUpload(
  ingest: MediaIngest,
  uploader: Uploader,
  file: UploadedFile,
): Promise<Sniffed & { durationSeconds?: number }> {
  const sniffed = sniffHead(await readHead(file.path));
  if (!sniffed) throw refuseMedia.unsupported();
  const { limits } = ingest;
  if (sniffed.kind === 'video' && !uploader.kinds.includes('video')) throw refuseMedia.videoNotAllowed();
  if (sniffed.kind === 'video' && !ingest.videoEnabled) throw refuseMedia.videoDisabled();
  if (file.bytes > bytesLimit(limits, sniffed.kind))
    throw refuseMedia.tooLarge(sniffed.kind, bytesLimit(limits, sniffed.kind));
  if (sniffed.kind === 'image') {
    const header = await imageHeader(file.path, sniffed.mime);
    if (!header) throw refuseMedia.unsupported();
    if (header.width * header.height > limits.imagePixels) throw refuseMedia.tooManyPixels(limits.imagePixels);
  } else {
    // A video ffprobe cannot read is still taken: processing fails it with a reason the creator sees.
    const duration = await probe(file.path).then(
      (p) => p.durationSeconds,
      () => 0,
    );
    if (duration > limits.videoSeconds) throw refuseMedia.tooLong(limits.videoSeconds);
    return { ...sniffed, durationSeconds: duration };
  }
  return sniffed;
}

/**
 * Time a job may run before the supervisor takes it for dead (and hands it to another worker):
 * generous, as a long 1080p video on a small machine transcodes slower than real time.
 */
export function expiryFor(kind: MediaKind, bytes: number, durationSeconds = 0): number {
  if (kind === 'image') return 15 * 60;
  return Math.min(20 * 3600, 30 * 60 + Math.max(Math.ceil(bytes / (256 * 1024)), 8 * Math.ceil(durationSeconds)));
}

export async function ingestUpload(
  ingest: MediaIngest,
  store: EventStore,
  uploader: Uploader,
  file: UploadedFile,
  context: CommandContext,
): Promise<MediaUploadResult & { result: CommandResult<MediaEvent> }> {
  const { kind, mime, durationSeconds } = await checkUpload(ingest, uploader, file);
  const mediaId = newId();
  // The original first: the job the event leads to must find it.
  await ingest.storage.put(mediaKey(mediaId, 'original'), createReadStream(file.path), mime);
  const command = { type: 'RecordUpload' as const, mediaId, ownerId: uploader.id, kind, mime, bytes: file.bytes };
  const result = await handleCommand(
    store,
    mediaStream(mediaId),
    mediaDecider,
    { ...command, at: context.now },
    context,
  );
  await ingest.progress.set(mediaId, 0);
  await ingest.jobs.enqueue(mediaId, { expireInSeconds: expiryFor(kind, file.bytes, durationSeconds) });
  return { id: mediaId, kind, status: 'processing', result };
}
