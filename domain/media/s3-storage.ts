import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { checkedKey, checkedPrefix } from './object-keys';
import type { MediaStorage, StoredObject } from './storage';

/**
 * Media in S3-compatible object storage (AWS S3, R2, MinIO, Ceph): how an installation that
 * outgrows one machine keeps media. An object appears whole or not at all, as S3 promises for a
 * PutObject and a completed multipart upload; a stream is sent in parts of PART_BYTES, so memory
 * stays bounded for a 2 GB video, and a failed upload is aborted.
 */
export interface S3StorageOptions {
  bucket: string;
  /** For anything but AWS itself (R2, MinIO, a local s3rver). */
  endpoint?: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (MinIO, s3rver). */
  forcePathStyle: boolean;
  /** Size of the parts a stream is sent in (default 8 MiB; S3's minimum is 5 MiB). */
  partBytes?: number;
}

const PART_BYTES = 8 * 1024 * 1024;

/** S3 quotes its ETags; the port's validator is the bare value. */
const bareEtag = (etag: string | undefined) => (etag ?? '').replace(/^(W\/)?"|"$/g, '');

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

/** Total size from `Content-Range: bytes 0-9/100`. */
function totalSize(contentRange: string | undefined, contentLength: number | undefined): number {
  const total = contentRange?.match(/\/(\d+)$/)?.[1];
  return total ? Number(total) : (contentLength ?? 0);
}

/** Chunks of a stream regrouped into parts of `size` bytes (the last one shorter). */
async function* partsOf(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending.push(chunk);
    pendingBytes += chunk.length;
    while (pendingBytes >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      pendingBytes = all.length - size;
    }
  }
  if (pendingBytes > 0 || pending.length === 0) yield Buffer.concat(pending);
}

export function createS3Storage(options: S3StorageOptions): MediaStorage {
  const { bucket } = options;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    credentials: options.credentials,
    forcePathStyle: options.forcePathStyle,
  });

  async function stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: checkedKey(key) }));
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? 'application/octet-stream',
        etag: bareEtag(head.ETag),
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function putStream(key: string, body: Readable, contentType: string): Promise<void> {
    const parts = partsOf(body, options.partBytes ?? PART_BYTES);
    const first = await parts.next();
    const second = first.done ? first : await parts.next();
    if (second.done) {
      const bytes = first.done ? Buffer.alloc(0) : first.value;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: contentType }));
      return;
    }
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
    );
    try {
      const uploaded: Array<{ ETag?: string; PartNumber: number }> = [];
      const upload = async (bytes: Buffer) => {
        const PartNumber = uploaded.length + 1;
        const part = await client.send(
          new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: bytes }),
        );
        uploaded.push({ ETag: part.ETag, PartNumber });
      };
      await upload(first.value as Buffer);
      await upload(second.value);
      for await (const bytes of parts) await upload(bytes);
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket: bucket,
          Key: key,
          UploadId,
          MultipartUpload: { Parts: uploaded },
        }),
      );
    } catch (error) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  return {
    async put(key, body, contentType) {
      checkedKey(key);
      if (Buffer.isBuffer(body))
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
      else await putStream(key, body, contentType);
      const stored = await stat(key);
      if (!stored) throw new Error(`Stored object ${key} is not readable back`);
      return stored;
    },

    stat,

    async read(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: checkedKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        const object = {
          size: totalSize(answer.ContentRange, answer.ContentLength),
          contentType: answer.ContentType ?? 'application/octet-stream',
          etag: bareEtag(answer.ETag),
        };
        return { object, body: answer.Body as Readable };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async deletePrefix(prefix) {
      checkedPrefix(prefix);
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
        const keys = (page.Contents ?? []).flatMap((entry) => (entry.Key ? [{ Key: entry.Key }] : []));
        if (keys.length > 0)
          await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
}
