import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ByteRange, MediaStorage, StoredObject } from '../storage';

/** A MediaStorage in memory, for tests of the media side before (or without) a real adapter. */
export interface MemoryStorage extends MediaStorage {
  /** Every stored key, sorted. */
  keys(): string[];
  /** The bytes of one object (undefined when absent). */
  bytes(key: string): Buffer | undefined;
}

async function collect(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export function createMemoryStorage(): MemoryStorage {
  const objects = new Map<string, { bytes: Buffer; object: StoredObject }>();
  return {
    async put(key, body, contentType) {
      const bytes = await collect(body);
      const object = { size: bytes.length, contentType, etag: `"${createHash('sha1').update(bytes).digest('hex')}"` };
      objects.set(key, { bytes, object });
      return object;
    },
    async stat(key) {
      return objects.get(key)?.object ?? null;
    },
    async read(key, range?: ByteRange) {
      const found = objects.get(key);
      if (!found) return null;
      const bytes = range ? found.bytes.subarray(range.start, range.end + 1) : found.bytes;
      return { object: found.object, body: Readable.from([bytes]) };
    },
    async deletePrefix(prefix) {
      for (const key of [...objects.keys()]) if (key.startsWith(prefix)) objects.delete(key);
    },
    keys: () => [...objects.keys()].sort(),
    bytes: (key) => objects.get(key)?.bytes,
  };
}
