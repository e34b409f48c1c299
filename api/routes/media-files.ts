import { Router, type Request, type Response } from 'express';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import {
  mediaKey,
  type ByteRange,
  type MediaStorage,
  type MediaUrlSigner,
  type MediaVariant,
  type StoredObject,
  type Watermarks,
} from '../../domain/media/commands';
import { refuse } from '../../domain/shared/errors';
import { isPreviewVariant, mediaFileAccess } from '../../projections/media-access';
import { SESSION_COOKIE } from '../../projections/sessions';
import type { Api } from '../kit';

/** How long a browser or CDN may keep a blurred preview: it shows nothing worth protecting. */
const PREVIEW_MAX_AGE_SECONDS = 24 * 60 * 60;

/**
 * Delivery of media files (issue 18): `GET /api/media/:id/files/:variant?exp=&sig=`. The signed
 * URL is checked first, then the viewer's session and entitlement in one statement
 * (projections/media-access.ts), both before a byte is read; then the file streams from storage
 * with Range, ETag and caching headers. Mounted ahead of the session middleware (api/app.ts):
 * a gallery asks for many files, and each costs one round trip instead of two.
 */
export function mediaFileRoutes(api: Api): Router {
  const router = Router();
  const { db } = api.deps;
  const storage = () => api.deps.ports.mediaStorage as MediaStorage;
  const signer = () => api.deps.ports.mediaUrls as MediaUrlSigner;

  router.get('/media/:id/files/:variant', async (req, res) => {
    const mediaId = String(req.params.id);
    const variant = String(req.params.variant);
    const link = signer().verify(mediaId, variant, req.query.exp, req.query.sig);
    if (link === 'expired')
      throw refuse.forbidden('This media link has expired: reload the page for a new one', {
        code: 'MEDIA_LINK_EXPIRED',
      });
    if (link !== 'ok') throw refuse.forbidden('This media link is not valid', { code: 'MEDIA_LINK_INVALID' });

    const token = req.cookies?.[SESSION_COOKIE] as string | undefined;
    const grant = await mediaFileAccess(db, api.deps.clock(), token, mediaId, variant);
    if (grant === 'signed-out') throw refuse.unauthorized();
    if (!grant) throw refuse.notFound('Media not found');
    req.userId = grant.viewerId;
    const { access } = grant;
    const preview = isPreviewVariant(variant);
    if (access === 'none' || (access === 'preview' && !preview))
      throw refuse.forbidden('You do not have access to this media', { code: 'MEDIA_FORBIDDEN' });

    const key = mediaKey(mediaId, variant as MediaVariant);
    const watermarked = Boolean(grant.watermarkPageName) && WATERMARKED_VARIANT.test(variant);
    // A plain whole-file GET opens the file once; the others look at its metadata first.
    const plain = req.method === 'GET' && !req.headers.range && !req.headers['if-none-match'] && !watermarked;
    const opened = plain ? await storage().read(key) : null;
    const object = opened ? opened.object : await storage().stat(key);
    if (!object) throw refuse.notFound('Media not found');
    const expiresIn = Math.max(0, Number(req.query.exp) - Math.floor(api.deps.clock().getTime() / 1000));
    setFileHeaders(
      res,
      object,
      preview ? `public, max-age=${PREVIEW_MAX_AGE_SECONDS}, immutable` : `private, max-age=${expiresIn}`,
    );
    if (watermarked)
      return sendWatermarked(req, res, { mediaId, variant, key, object, pageName: grant.watermarkPageName! });
    if (notModified(req, object.etag)) return void res.status(304).end();

    const range = requestedRange(req, object);
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${object.size}`);
      res.removeHeader('Content-Type');
      return void res.status(416).end();
    }
    if (range) {
      res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${object.size}`);
      res.setHeader('Content-Length', range.end - range.start + 1);
    } else res.setHeader('Content-Length', object.size);
    if (req.method === 'HEAD' || object.size === 0) {
      opened?.body.destroy();
      return void res.end();
    }

    const found = opened ?? (await storage().read(key, range ?? undefined));
    if (!found) throw refuse.notFound('Media not found');
    // A viewer who stops watching closes the connection: the pipeline ends the read quietly.
    await pipeline(found.body, res).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
        api.deps.logger.warn({ err: error, mediaId }, 'media stream failed');
    });
  });

  /**
   * A copy marked for this viewer (page name and viewer code), rendered once and then served
   * from the watermark cache: whole (images are small), with an ETag of its own.
   */
  async function sendWatermarked(
    req: Request,
    res: Response,
    file: { mediaId: string; variant: string; key: string; object: StoredObject; pageName: string },
  ) {
    const watermarks = api.deps.ports.mediaWatermarks as Watermarks;
    const copy = await watermarks.marked(
      { mediaId: file.mediaId, variant: file.variant, etag: file.object.etag },
      async () => {
        const found = await storage().read(file.key);
        if (!found) throw refuse.notFound('Media not found');
        return { body: await buffer(found.body), contentType: file.object.contentType };
      },
      { pageName: file.pageName, code: watermarks.code(req.userId!) },
    );
    res.setHeader('ETag', `"${copy.etag}"`);
    res.removeHeader('Accept-Ranges');
    if (notModified(req, copy.etag)) return void res.status(304).end();
    res.setHeader('Content-Length', copy.body.length);
    res.end(req.method === 'HEAD' ? undefined : copy.body);
  }

  return router;
}

/** Image variants a watermark is drawn on (previews stay as they are: they show nothing). */
const WATERMARKED_VARIANT = /^w\d+\.(webp|jpg)$/;

function setFileHeaders(res: Response, object: StoredObject, cacheControl: string) {
  res.setHeader('Content-Type', object.contentType);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('ETag', `"${object.etag}"`);
  res.setHeader('Cache-Control', cacheControl);
}

/** If-None-Match names the served version (strong or weak form, or `*`). */
function notModified(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === `"${etag}"`);
}

/**
 * The one byte range asked for (`bytes=a-b`, `bytes=a-`, `bytes=-n`), null for the whole file
 * (no Range, several ranges, a stale If-Range, or a header this server does not read), or
 * 'unsatisfiable' when it starts past the end.
 */
function requestedRange(req: Request, object: StoredObject): ByteRange | null | 'unsatisfiable' {
  const header = req.headers.range;
  if (!header) return null;
  const ifRange = req.headers['if-range'];
  if (ifRange && ifRange !== `"${object.etag}"`) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const last = object.size - 1;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || object.size === 0) return 'unsatisfiable';
    return { start: Math.max(0, object.size - suffix), end: last };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? last : Math.min(Number(match[2]), last);
  if (start > last) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
