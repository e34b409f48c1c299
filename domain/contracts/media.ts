/** Media as the client sees it (issue 18): a creator's or member's uploaded photo or video. */
export type MediaKind = 'image' | 'video';
export type MediaStatus = 'processing' | 'ready' | 'failed';

/** One item of the owner's vault: `GET /api/media/:id`, `GET /api/media`. */
export interface MediaItem {
  id: string;
  kind: MediaKind;
  status: MediaStatus;
  width: number | null;
  height: number | null;
  durationSeconds?: number;
  bytes: number;
  createdAt: string;
  failureReason?: string;
  /** 0..100 while processing, for the uploader's progress bar. */
  progress?: number;
  /** A signed URL of a small variant, for the vault grid (owner only). */
  thumbnailUrl?: string;
}

/** The answer of `POST /api/media`. */
export interface MediaUploadResult {
  id: string;
  kind: MediaKind;
  status: MediaStatus;
}

/**
 * Media attached to a post or a message. `url` (and `posterUrl` at full size) only where the
 * viewer is entitled; otherwise `previewUrl` is the server-made blurred preview. URLs are
 * signed and expire.
 */
export interface MediaAttachment {
  id: string;
  kind: MediaKind;
  width: number;
  height: number;
  durationSeconds?: number;
  previewUrl: string;
  url?: string;
  posterUrl?: string;
}

/** A page of the owner's vault: `GET /api/media?kind=&cursor=&limit=`. */
export interface MediaVaultPage {
  items: MediaItem[];
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
}
