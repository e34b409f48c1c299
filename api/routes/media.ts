import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Router, type ErrorRequestHandler, type Request } from 'express';
import type { CurrentUser } from '../../domain/contracts/accounts';
import type { MediaItem, MediaKind, MediaUploadResult, MediaVaultPage } from '../../domain/contracts/media';
import { hasSiteAccess } from '../../domain/contracts/membership';
import {
  bytesLimit,
  deleteMedia,
  ingestUpload,
  largestUpload,
  MediaRefusal,
  refuseMedia,
  sniffHead,
  type MediaIngest,
  type UploadedFile,
  type Uploader,
} from '../../domain/media/commands';
import { refuse } from '../../domain/shared/errors';
import { findMedia, mediaInUse, mediaItem, ownerVault, type MediaRecord } from '../../projections/media';
import { requestUser } from '../http/access';
import { receiveMultipartFile, type LimitFor } from '../http/multipart-upload';
import { resumableUploads } from '../http/resumable-uploads';
import type { Api } from '../kit';

/**
 * Media (issue 18): uploads (multipart, or resumable with tus at /api/media/uploads), the
 * owner's vault, one item with its processing progress, deletion. Who uploads: creators
 * (images and videos) and members with an active site subscription (images: avatar, chat
 * profile). The file's type comes from its content; processing runs in the job queue.
 */

const UPLOADS_PATH = '/api/media/uploads';

/** The part of delivery's URL signer (`ports.mediaUrls`) the vault uses. */
interface ThumbnailSigner {
  url(mediaId: string, variant: 'w320.webp' | 'poster.jpg'): string;
}
const MEDIA_KINDS: readonly MediaKind[] = ['image', 'video'];

/** Refusals of a file answer with their own status (413, 415, 400, 403). */
const mediaRefusals: ErrorRequestHandler = (error, _req, res, next) => {
  if (!(error instanceof MediaRefusal)) return next(error);
  res.status(error.status).json({ error: error.message, code: error.code });
};

export function mediaRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const ingest = () => {
    const ports = api.deps.ports.mediaIngest as MediaIngest | undefined;
    if (!ports) throw new Error('media ingest is not wired (ops/wiring.ts startMedia)');
    return ports;
  };

  async function signedIn(req: Request): Promise<CurrentUser> {
    const user = await requestUser(db, req);
    if (!user) throw refuse.unauthorized();
    return user;
  }

  /** Creators upload images and videos; members with site access, images; others 403. */
  async function uploader(req: Request): Promise<Uploader> {
    const user = await signedIn(req);
    if (user.isCreator) return { id: user.id, kinds: MEDIA_KINDS };
    if (hasSiteAccess(user, api.deps.clock())) return { id: user.id, kinds: ['image'] };
    throw refuse.forbidden('Uploading needs an active subscription (images) or a creator account', {
      code: 'SUBSCRIPTION_REQUIRED',
    });
  }

  /** Before the type is known, the largest file the uploader may send; then that kind's limit. */
  const limitFor =
    (who: Uploader): LimitFor =>
    (head) => {
      const { limits } = ingest();
      const kind = head ? sniffHead(head)?.kind : undefined;
      if (kind && who.kinds.includes(kind))
        return { bytes: bytesLimit(limits, kind), refusal: () => refuseMedia.tooLarge(kind, bytesLimit(limits, kind)) };
      const largest = largestUpload(limits, who.kinds);
      return { bytes: largest, refusal: () => refuseMedia.tooLarge(who.kinds.length > 1 ? 'file' : 'image', largest) };
    };

  async function takeIn(req: Request, who: Uploader, file: UploadedFile): Promise<MediaUploadResult> {
    const { id, kind, status, result } = await ingestUpload(ingest(), store, who, file, api.context(req));
    // GET /api/media/:id right after must find it (a 404 would read as a failed upload): wait for
    // the one read model it reads, longer than for all of them, as a busy server may lag.
    await api.readYourWrites(result.position, { projections: ['media'], timeoutMs: 10_000 });
    return { id, kind, status };
  }

  router.use(
    '/media/uploads',
    resumableUploads({
      dir: () => path.join(ingest().uploadDir, 'resumable'),
      basePath: UPLOADS_PATH,
      authorize: uploader,
      maxBytes: (who) => largestUpload(ingest().limits, who.kinds),
      limitFor,
      complete: takeIn,
    }),
  );

  router.post('/media', async (req, res) => {
    const who = await uploader(req);
    const file = await receiveMultipartFile(req, ingest().uploadDir, limitFor(who));
    try {
      res.status(201).json(await takeIn(req, who, file));
    } finally {
      await rm(file.path, { force: true });
    }
  });

  /** The item, seen by its owner or finance staff; anyone else learns nothing (404). */
  async function visibleMedia(req: Request): Promise<MediaRecord> {
    const user = await signedIn(req);
    const record = await findMedia(db, String(req.params.id));
    if (!record || (record.ownerId !== user.id && user.role !== 'admin')) throw refuse.notFound('Media not found');
    return record;
  }

  /** The item as its owner sees it: progress while processing, a small signed thumbnail once ready. */
  async function ownerView(record: MediaRecord): Promise<MediaItem> {
    const item = mediaItem(record);
    if (record.status === 'processing') return { ...item, progress: (await ingest().progress.get(record.id)) ?? 0 };
    const urls = api.deps.ports.mediaUrls as ThumbnailSigner | undefined;
    const thumbnail = record.kind === 'image' ? 'w320.webp' : 'poster.jpg';
    if (record.status !== 'ready' || !urls || !record.variants.includes(thumbnail)) return item;
    return { ...item, thumbnailUrl: urls.url(record.id, thumbnail) };
  }

  router.get('/media/:id', async (req, res) => {
    res.json(await ownerView(await visibleMedia(req)));
  });

  router.get('/media', async (req, res) => {
    const user = await signedIn(req);
    const kind = req.query.kind;
    if (kind !== undefined && !MEDIA_KINDS.includes(kind as MediaKind))
      throw refuse.validation('kind must be image or video', { kind: 'kind must be image or video' });
    const limit = req.query.limit === undefined ? 24 : Number(req.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw refuse.validation('limit must be between 1 and 100', { limit: 'limit must be between 1 and 100' });
    const cursor = typeof req.query.cursor === 'string' ? req.query.cursor : undefined;
    const page = await ownerVault(db, user.id, { kind: kind as MediaKind | undefined, cursor, limit });
    const body: MediaVaultPage = {
      items: await Promise.all(page.items.map(ownerView)),
      nextCursor: page.nextCursor,
    };
    res.json(body);
  });

  router.delete('/media/:id', async (req, res) => {
    const user = await signedIn(req);
    const mediaId = String(req.params.id);
    const inUse = await mediaInUse(db, mediaId);
    const result = await deleteMedia(
      { store, storage: ingest().storage },
      { mediaId, actorId: user.id, inUse },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.status(204).end();
  });

  router.use(mediaRefusals);
  return router;
}
