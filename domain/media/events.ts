import type { MediaKind, MediaVariant } from './variants';

/** Facts of uploaded media: a photo or video, its processing and its deletion. Stream `media-<mediaId>`. */

export interface MediaUploadedData {
  mediaId: string;
  ownerId: string;
  kind: MediaKind;
  /** The type its content showed (never its name or the client's header). */
  mime: string;
  bytes: number;
  at: string;
}
export interface MediaProcessedData {
  mediaId: string;
  width: number;
  height: number;
  durationSeconds?: number;
  /** What was stored under `mediaKey(mediaId, variant)`. */
  variants: MediaVariant[];
  at: string;
}
export interface MediaProcessingFailedData {
  mediaId: string;
  /** Shown to the creator as is. */
  reason: string;
  at: string;
}
export interface MediaDeletedData {
  mediaId: string;
  at: string;
}

export type MediaEvent =
  | { type: 'MediaUploaded'; data: MediaUploadedData }
  | { type: 'MediaProcessed'; data: MediaProcessedData }
  | { type: 'MediaProcessingFailed'; data: MediaProcessingFailedData }
  | { type: 'MediaDeleted'; data: MediaDeletedData };

export const mediaStream = (mediaId: string) => `media-${mediaId}`;
