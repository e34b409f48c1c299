import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { checkedKey, checkedPrefix } from './object-keys';
import type { ByteRange, MediaStorage, StoredObject } from './storage';

/**
 * Media on the local filesystem: the embedded default, under LIVELY_DATA_DIR/media.
 *
 * Each object is one file: a fixed-size header (content type and a SHA-256 etag, as JSON padded
 * with spaces) followed by the bytes. One file per object means one rename publishes it whole:
 * the body is written to a temporary file in `<root>/.incoming` (same filesystem), its header
 * filled in once the hash is known, then renamed over the key. A reader opens the file once and
 * reads header and bytes through that handle, so a concurrent overwrite never mixes versions.
 */
const HEADER_BYTES = 512;
const MAGIC = 'lively-media/1\n';
/** A read this short (an image variant, a player's range) is one read into memory, not a stream. */
const WHOLE_READ_BYTES = 256 * 1024;
/** Longer reads stream in chunks this big: a 1 MB range in one read, not sixteen of 64 kB. */
const STREAM_CHUNK_BYTES = 1024 * 1024;

interface Header {
  contentType: string;
  etag: string;
}

function encodeHeader(header: Header): Buffer {
  const text = `${MAGIC}${JSON.stringify(header)}\n`;
  const bytes = Buffer.alloc(HEADER_BYTES, ' ');
  if (Buffer.byteLength(text) > HEADER_BYTES) throw new Error('Content type too long for a stored object');
  bytes.write(text);
  return bytes;
}

function decodeHeader(bytes: Buffer): Header {
  const text = bytes.toString('utf8');
  if (!text.startsWith(MAGIC)) throw new Error('Not a stored media object');
  return JSON.parse(text.slice(MAGIC.length, text.indexOf('\n', MAGIC.length))) as Header;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export function createFsStorage(rootDir: string): MediaStorage {
  const root = resolve(rootDir);
  const incoming = join(root, '.incoming');

  /** The file of a key, refused unless it lies inside the root. */
  const pathOf = (key: string) => {
    const path = resolve(root, checkedKey(key));
    if (!path.startsWith(root + sep)) throw new Error(`Refused storage key ${JSON.stringify(key)}`);
    return path;
  };

  /** Opens a stored object: its handle and metadata, or null when there is none. */
  async function openObject(key: string): Promise<{ handle: FileHandle; object: StoredObject } | null> {
    let handle: FileHandle;
    try {
      handle = await open(pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const headerBytes = Buffer.alloc(HEADER_BYTES);
      await handle.read(headerBytes, 0, HEADER_BYTES, 0);
      const { size } = await handle.stat();
      return { handle, object: { ...decodeHeader(headerBytes), size: size - HEADER_BYTES } };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  return {
    async put(key, body, contentType) {
      const target = pathOf(key);
      await mkdir(incoming, { recursive: true });
      const temporary = join(incoming, randomUUID());
      const handle = await open(temporary, 'w');
      try {
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of Buffer.isBuffer(body) ? [body] : (body as AsyncIterable<Buffer>)) {
          hash.update(chunk);
          await handle.write(chunk, 0, chunk.length, HEADER_BYTES + size);
          size += chunk.length;
        }
        const header = { contentType, etag: hash.digest('base64url') };
        await handle.write(encodeHeader(header), 0, HEADER_BYTES, 0);
        await handle.sync();
        await handle.close();
        await mkdir(dirname(target), { recursive: true });
        await rename(temporary, target);
        return { ...header, size };
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(temporary, { force: true });
        throw error;
      }
    },

    async stat(key) {
      const opened = await openObject(key);
      if (!opened) return null;
      await opened.handle.close();
      return opened.object;
    },

    async read(key, range?: ByteRange) {
      const opened = await openObject(key);
      if (!opened) return null;
      const { handle, object } = opened;
      const start = HEADER_BYTES + (range?.start ?? 0);
      const end = HEADER_BYTES + Math.min(range?.end ?? object.size - 1, object.size - 1);
      if (end < start) {
        await handle.close();
        return { object, body: Readable.from([]) };
      }
      const length = end - start + 1;
      if (length <= WHOLE_READ_BYTES) {
        try {
          const bytes = Buffer.allocUnsafe(length);
          const { bytesRead } = await handle.read(bytes, 0, length, start);
          return { object, body: Readable.from([bytes.subarray(0, bytesRead)]) };
        } finally {
          await handle.close();
        }
      }
      const highWaterMark = Math.min(length, STREAM_CHUNK_BYTES);
      return { object, body: createReadStream('', { fd: handle, start, end, highWaterMark }) };
    },

    async deletePrefix(prefix) {
      checkedPrefix(prefix);
      if (prefix.endsWith('/')) return void (await rm(pathOf(prefix.slice(0, -1)), { recursive: true, force: true }));
      const folder = dirname(pathOf(prefix));
      const name = prefix.slice(prefix.lastIndexOf('/') + 1);
      let entries: string[];
      try {
        entries = await readdir(folder);
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      await Promise.all(
        entries
          .filter((entry) => entry.startsWith(name))
          .map((entry) => rm(join(folder, entry), { recursive: true, force: true })),
      );
    },
  };
}
