import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { newId } from '../../domain/shared/ids';
import { DomainError, refuse } from '../../domain/shared/errors';
import { fileHead, writeCounted, type LimitFor, type ReceivedFile } from './multipart-upload';

/**
 * Resumable uploads with the tus protocol 1.0.0 (core, creation and termination; no OPTIONS
 * discovery, which same-origin clients do not need), as
 * tus-js-client speaks it: POST makes an upload of a declared length, HEAD tells how many bytes
 * the server has, PATCH appends from exactly there. What arrived is on disk with a small JSON
 * record beside it, so a dropped connection or a server restart loses nothing: the client asks
 * HEAD and goes on. When the last byte is in, `complete` takes the file in (the same path as a
 * multipart upload) and the answer carries the media item in `Media-Id`/`Media-Kind`/`Media-Status`.
 */

const TUS_VERSION = '1.0.0';
const HOUR = 3_600_000;
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface UploadRecord {
  id: string;
  ownerId: string;
  length: number;
  createdAt: string;
  /** Set once the file was taken in. */
  media?: { id: string; kind: string; status: string };
}

export interface ResumableOptions<Uploader extends { id: string }> {
  /** Where uploads in progress are kept (read per request: the folder can be set after start). */
  dir(): string;
  /** Where the router is mounted, for the Location of a new upload. */
  basePath: string;
  /** The uploader (throws 401/403 otherwise). */
  authorize(req: Request): Promise<Uploader>;
  /** The most an uploader may send. */
  maxBytes(uploader: Uploader): number;
  limitFor(uploader: Uploader): LimitFor;
  complete(req: Request, uploader: Uploader, file: ReceivedFile): Promise<{ id: string; kind: string; status: string }>;
}

/** Whether the client speaks our tus version; answers 412 when not. Checked in each handler, after the path was decoded. */
function speaksTus(req: Request, res: Response): boolean {
  res.setHeader('Tus-Resumable', TUS_VERSION);
  if (req.get('Tus-Resumable') === TUS_VERSION) return true;
  res
    .status(412)
    .setHeader('Tus-Version', TUS_VERSION)
    .json({
      error: `This endpoint speaks the tus protocol ${TUS_VERSION} (Tus-Resumable header)`,
      code: 'TUS_VERSION',
    });
  return false;
}

function declaredLength(req: Request): number {
  const value = req.get('Upload-Length');
  if (!value || !/^\d{1,15}$/.test(value))
    throw refuse.validation('Upload-Length is required (deferred lengths are not supported)');
  return Number(value);
}

export function resumableUploads<Uploader extends { id: string }>(options: ResumableOptions<Uploader>): Router {
  const router = Router();
  const dataPath = (id: string) => path.join(options.dir(), id);
  const recordPath = (id: string) => path.join(options.dir(), `${id}.json`);
  const busy = new Set<string>();

  async function ownRecord(req: Request, uploader: Uploader): Promise<UploadRecord> {
    const id = String(req.params.id);
    if (!UPLOAD_ID.test(id)) throw refuse.notFound('Upload not found'); // never a path outside the folder
    const record = await readFile(recordPath(id), 'utf8').then(
      (text) => JSON.parse(text) as UploadRecord,
      () => null,
    );
    if (!record || record.ownerId !== uploader.id) throw refuse.notFound('Upload not found');
    return record;
  }
  const offsetOf = (record: UploadRecord) =>
    record.media
      ? record.length
      : stat(dataPath(record.id)).then(
          (s) => s.size,
          () => 0,
        );

  // Uploads nobody finished within a day are removed (looked for at most hourly, on a new upload).
  let lastSweep = 0;
  const sweepAbandoned = async () => {
    if (Date.now() - lastSweep < HOUR) return;
    lastSweep = Date.now();
    for (const name of await readdir(options.dir()).catch(() => [] as string[])) {
      const id = name.replace(/\.json$/, '');
      const modified = await stat(dataPath(id)).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      if (name.endsWith('.json') && Date.now() - modified > 24 * HOUR) await forget(id);
    }
  };

  router.post('/', async (req, res) => {
    if (!speaksTus(req, res)) return;
    void sweepAbandoned().catch(() => undefined);
    const uploader = await options.authorize(req);
    const length = declaredLength(req);
    const max = options.maxBytes(uploader);
    if (length > max) {
      // The same words as the multipart refusal, through the limit the uploader would meet.
      throw options.limitFor(uploader)(null).refusal();
    }
    await mkdir(options.dir(), { recursive: true });
    const record: UploadRecord = { id: newId(), ownerId: uploader.id, length, createdAt: new Date().toISOString() };
    await writeFile(dataPath(record.id), Buffer.alloc(0));
    await writeFile(recordPath(record.id), JSON.stringify(record));
    res.setHeader('Location', `${options.basePath}/${record.id}`);
    res.status(201).end();
  });

  // HEAD asks how far an upload is (express answers HEAD with the GET route, without its body).
  router.get('/:id', async (req, res) => {
    if (!speaksTus(req, res)) return;
    const record = await ownRecord(req, await options.authorize(req));
    const offset = await offsetOf(record);
    res.setHeader('Upload-Offset', String(offset));
    res.setHeader('Upload-Length', String(record.length));
    res.json({ offset, length: record.length });
  });

  router.patch('/:id', async (req, res) => {
    if (!speaksTus(req, res)) return;
    const uploader = await options.authorize(req);
    const record = await ownRecord(req, uploader);
    if (req.get('Content-Type') !== 'application/offset+octet-stream')
      return void res
        .status(415)
        .json({ error: 'PATCH needs Content-Type: application/offset+octet-stream', code: 'TUS_CONTENT_TYPE' });
    const offset = await offsetOf(record);
    if (String(offset) !== req.get('Upload-Offset') || busy.has(record.id))
      return void res.status(409).json({ error: 'Upload-Offset does not match the upload', code: 'TUS_OFFSET' });
    busy.add(record.id);
    try {
      if (offset < record.length) {
        const head = offset > 0 ? await fileHead(dataPath(record.id)) : null;
        const kindLimit = options.limitFor(uploader);
        // The uploader's limit for the kind the first bytes show, and never past the declared length.
        const limitFor: LimitFor = (seen) => {
          const limit = kindLimit(seen);
          return limit.bytes < record.length ? limit : { bytes: record.length, refusal: tooMuch };
        };
        await writeCounted(req, dataPath(record.id), limitFor, { offset, head });
      }
      const now = await offsetOf(record);
      res.setHeader('Upload-Offset', String(now));
      if (now === record.length && !record.media) await finish(req, res, uploader, record);
      res.status(204).end();
    } catch (error) {
      // A refused file is over; anything else (storage down) keeps what arrived for a retry.
      if (isRefusal(error)) await forget(record.id);
      throw error;
    } finally {
      busy.delete(record.id);
    }
  });

  router.delete('/:id', async (req, res) => {
    if (!speaksTus(req, res)) return;
    const record = await ownRecord(req, await options.authorize(req));
    await forget(record.id);
    res.status(204).end();
  });

  async function finish(req: Request, res: Response, uploader: Uploader, record: UploadRecord) {
    const file = { path: dataPath(record.id), bytes: record.length };
    record.media = await options.complete(req, uploader, file);
    await writeFile(recordPath(record.id), JSON.stringify(record));
    await rm(file.path, { force: true });
    res.setHeader('Media-Id', record.media.id);
    res.setHeader('Media-Kind', record.media.kind);
    res.setHeader('Media-Status', record.media.status);
  }

  const forget = async (id: string) => {
    await rm(dataPath(id), { force: true });
    await rm(recordPath(id), { force: true });
  };

  return router;
}

const tooMuch = () => refuse.validation('More bytes than the Upload-Length declared');

const isRefusal = (error: unknown) =>
  error instanceof DomainError || typeof (error as { status?: unknown })?.status === 'number';
