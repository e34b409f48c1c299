import { createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { refuse } from '../../domain/shared/errors';
import { newId } from '../../domain/shared/ids';

/**
 * Receiving an uploaded file: streamed to a temporary file (never held in memory), bytes
 * counted, and stopped at the limit (`limitFor` the first bytes: an image's limit once they
 * show an image). Used by POST /api/media (multipart) and the resumable uploads.
 */

export interface ReceivedFile {
  path: string;
  bytes: number;
}

/** The limit for a file that starts with `head` (null: nothing seen yet), and what to refuse with past it. */
export type LimitFor = (head: Buffer | null) => { bytes: number; refusal: () => Error };

const HEAD_BYTES = 64;

/** Where a write continues an existing file: its size and first bytes. */
export interface Continuation {
  offset: number;
  head: Buffer | null;
}

/** A pass-through that counts the file's bytes (from `from.offset`) and fails past the limit. */
export function byteCounter(limitFor: LimitFor, from: Continuation = { offset: 0, head: null }) {
  let seen = from.head ?? Buffer.alloc(0);
  const known = () => (seen.length >= 16 || (from.offset > 0 && from.head) ? seen : null);
  let limit = limitFor(known());
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (counter.bytes < HEAD_BYTES) {
        seen = Buffer.concat([seen, chunk]).subarray(0, HEAD_BYTES);
        limit = limitFor(known());
      }
      counter.bytes += chunk.length;
      if (counter.bytes > limit.bytes) return done(limit.refusal());
      done(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = from.offset;
  return counter;
}

/**
 * Writes `source` to `target` through a byte counter (appending after `from`); the bytes the
 * file then has. On a refusal the rest of `source` is drained.
 */
export async function writeCounted(source: Readable, target: string, limitFor: LimitFor, from?: Continuation) {
  const counter = byteCounter(limitFor, from);
  // A dropped connection ends the file where it stopped (a resumable upload continues from there).
  source.once('close', () => void (counter.writableEnded || counter.end()));
  source.once('error', (error) => counter.destroy(error));
  source.pipe(counter);
  try {
    await pipeline(counter, createWriteStream(target, { flags: from ? 'a' : 'w' }));
  } catch (error) {
    source.unpipe(counter);
    source.resume();
    throw error;
  }
  return counter.bytes;
}

/** The first bytes of a file (what its type is told by). */
export async function fileHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const notMultipart = () =>
  refuse.validation('Send the file as multipart/form-data in the field "file"', { file: 'A file is required' });

/** The form field `file` of a multipart/form-data request, written under `dir`. */
export async function receiveMultipartFile(req: Request, dir: string, limitFor: LimitFor): Promise<ReceivedFile> {
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, `upload-${newId()}`);
  try {
    return await new Promise<ReceivedFile>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers, limits: { files: 1, fields: 20, parts: 30 } });
      } catch {
        return reject(notMultipart());
      }
      let written: Promise<number> | null = null;
      parser.on('file', (name, stream) => {
        if (name !== 'file' || written) return void stream.resume();
        written = writeCounted(stream, target, limitFor);
        written.catch(() => undefined); // settled below, once the whole request is read
      });
      parser.on('error', () => reject(refuse.validation('The upload was cut off or is not valid multipart/form-data')));
      parser.on('close', () => {
        if (!written) return reject(notMultipart());
        written.then((bytes) => resolve({ path: target, bytes }), reject);
      });
      req.on('aborted', () => reject(refuse.validation('The upload was cut off')));
      req.pipe(parser);
    });
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
}
