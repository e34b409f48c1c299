import type { MediaKind } from './variants';

/** What one upload may be (issue 18). Tests lower them; production uses the defaults. */
export interface MediaLimits {
  imageBytes: number;
  imagePixels: number;
  videoBytes: number;
  videoSeconds: number;
}

export const MEDIA_LIMITS: MediaLimits = {
  imageBytes: 50 * 1024 * 1024,
  imagePixels: 100_000_000,
  videoBytes: 2 * 1024 * 1024 * 1024,
  videoSeconds: 60 * 60,
};

/** The largest file an uploader may send before its type is known. */
export function largestUpload(limits: MediaLimits, kinds: readonly MediaKind[]): number {
  return Math.max(...kinds.map((kind) => bytesLimit(limits, kind)));
}

export const bytesLimit = (limits: MediaLimits, kind: MediaKind) =>
  kind === 'image' ? limits.imageBytes : limits.videoBytes;

/** "50 MB", "2 GB", "100 kB": the limit as a person reads it. */
export function formatBytes(bytes: number): string {
  const units: Array<[string, number]> = [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['kB', 1024],
  ];
  for (const [unit, size] of units) if (bytes >= size) return `${+(bytes / size).toFixed(1)} ${unit}`;
  return `${bytes} bytes`;
}

/**
 * Why an upload is refused, with its HTTP status: 413 too large, 415 not a type we take,
 * 400 a file that would take too much to decode (a decompression bomb), 403 a kind the
 * uploader may not send. The route answers `{ error: message, code }`.
 */
export class MediaRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 413 | 415,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MediaRefusal';
  }
}

export const refuseMedia = {
  unsupported: () => new MediaRefusal(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported file type'),
  tooLarge: (kind: MediaKind | 'file', limit: number) =>
    new MediaRefusal(
      413,
      'MEDIA_TOO_LARGE',
      `File too large: ${kind === 'file' ? 'uploads' : `${kind}s`} may be at most ${formatBytes(limit)}`,
    ),
  tooLong: (seconds: number) =>
    new MediaRefusal(
      413,
      'MEDIA_TOO_LARGE',
      `Video too long: videos may be at most ${seconds / 60} minute${seconds === 60 ? '' : 's'}`,
    ),
  tooManyPixels: (pixels: number) =>
    new MediaRefusal(
      400,
      'IMAGE_TOO_MANY_PIXELS',
      `Image too large to process: images may be at most ${pixels / 1_000_000} megapixels`,
    ),
  videoDisabled: () =>
    new MediaRefusal(
      415,
      'VIDEO_DISABLED',
      'Video uploads are disabled on this server (ffmpeg is not installed); images only',
    ),
  videoNotAllowed: () =>
    new MediaRefusal(403, 'CREATOR_REQUIRED', 'Only creators may upload videos; members may upload images'),
};
