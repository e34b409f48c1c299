import type { Readable } from 'node:stream';

/**
 * The media storage port: where uploaded originals and their processed variants live. Two
 * adapters held to one contract suite (testing/storage-contract.ts): the filesystem under
 * LIVELY_DATA_DIR (the embedded default) and S3-compatible object storage (S3_BUCKET,
 * S3_ENDPOINT and credentials), which is how an installation that outgrows one machine keeps
 * media. Keys are the ones `mediaKey` (variants.ts) makes.
 */
export interface StoredObject {
  /** Size in bytes of the whole object. */
  size: number;
  contentType: string;
  /** A strong validator of the content, stable across reads (for ETag). */
  etag: string;
}

/** An inclusive byte range, as an HTTP Range header names it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface MediaStorage {
  /** Stores an object whole; a reader never sees a half-written object under `key`. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<StoredObject>;
  /** Metadata of an object, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** The object's bytes (all, or one range of them), or null when there is none. */
  read(key: string, range?: ByteRange): Promise<{ object: StoredObject; body: Readable } | null>;
  /** Deletes every object whose key starts with `prefix` (a media item's folder). Idempotent. */
  deletePrefix(prefix: string): Promise<void>;
}
