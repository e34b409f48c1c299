import { Router, type Request } from 'express';
import { pipeline } from 'node:stream/promises';
import {
  chatImageOrderSchema,
  profileImageSchema,
  type ProfileImageResult,
} from '../../domain/contracts/profile-media';
import {
  mediaKey,
  removeChatProfileImage,
  reorderChatProfileImages,
  setProfileImage,
  type MediaIngest,
  type ProfileImageSlot,
  type MediaStorage,
  type MediaVariant,
} from '../../domain/media/commands';
import { refuse } from '../../domain/shared/errors';
import { publicMediaFile } from '../../projections/profile-media';
import { findProfile } from '../../projections/user-profiles';
import { requestUser, requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** A public item's files never change under their URL (a new avatar is a new item). */
const PUBLIC_CACHE = 'public, max-age=31536000, immutable';

/**
 * Avatar and cover from one's own media (issue 18): `PUT /api/me/avatar` (anyone signed in)
 * and `PUT /api/creators/me/cover` (creators) take `{ mediaId, crop? }` and answer
 * ProfileImageResult, as does `POST /api/profile/images` (201), which adds an image to the chat
 * profile (up to six; `DELETE /api/profile/images/:id` takes one off, `PUT /api/profile/images/order`
 * `{ mediaIds }` puts them in a new order, 204); `GET /api/media/:id/public/:variant` serves the files of those public
 * items to anyone, signed out too, with no signature and a year's caching.
 */
export function profileMediaRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const ingest = () => {
    const ports = api.deps.ports.mediaIngest as MediaIngest | undefined;
    if (!ports) throw new Error('media ingest is not wired (ops/wiring.ts startMedia)');
    return ports;
  };
  const storage = () => api.deps.ports.mediaStorage as MediaStorage;

  async function setImage(req: Request, slot: ProfileImageSlot): Promise<ProfileImageResult> {
    const user = await requestUser(db, req);
    if (!user) throw refuse.unauthorized();
    if (slot === 'cover' && !user.isCreator)
      throw refuse.forbidden('Only creators have a cover image', { code: 'CREATOR_REQUIRED' });
    const body = parseWith(profileImageSchema, req.body);
    const { uploadDir, limits } = ingest();
    const set = await setProfileImage(
      { store, storage: storage(), workDir: uploadDir, imagePixels: limits.imagePixels },
      { userId: user.id, slot, sourceMediaId: body.mediaId, crop: body.crop },
      api.context(req),
    );
    await api.readYourWrites(set.position);
    return { mediaId: set.mediaId, url: set.url, width: set.width, height: set.height };
  }

  router.put('/me/avatar', async (req, res) => {
    res.json(await setImage(req, 'avatar'));
  });

  router.put('/creators/me/cover', async (req, res) => {
    res.json(await setImage(req, 'cover'));
  });

  // The Lively Chat profile's images (members with site access, like the rest of the chat profile).
  const member = requireActiveSubscription(db);
  router.post('/profile/images', member, async (req, res) => {
    if (!(await findProfile(db, req.userId!)))
      throw refuse.notFound('Set up your chat profile before adding images to it');
    res.status(201).json(await setImage(req, 'chat'));
  });

  router.put('/profile/images/order', member, async (req, res) => {
    const { mediaIds } = parseWith(chatImageOrderSchema, req.body);
    const result = await reorderChatProfileImages(store, { userId: req.userId!, mediaIds }, api.context(req));
    if (result.position) await api.readYourWrites(result.position);
    res.status(204).end();
  });

  router.delete('/profile/images/:id', member, async (req, res) => {
    const input = { userId: req.userId!, mediaId: String(req.params.id) };
    const result = await removeChatProfileImage(store, input, api.context(req));
    await api.readYourWrites(result.position);
    res.status(204).end();
  });

  router.get('/media/:id/public/:variant', async (req, res) => {
    const mediaId = String(req.params.id);
    const variant = String(req.params.variant);
    if (!(await publicMediaFile(db, mediaId, variant))) throw refuse.notFound('Media not found');
    const key = mediaKey(mediaId, variant as MediaVariant);
    const ifNoneMatch = req.headers['if-none-match'];
    const object = await storage().stat(key);
    if (!object) throw refuse.notFound('Media not found');
    res.setHeader('Content-Type', object.contentType);
    res.setHeader('ETag', `"${object.etag}"`);
    res.setHeader('Cache-Control', PUBLIC_CACHE);
    if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === `"${object.etag}"`))
      return void res.status(304).end();
    res.setHeader('Content-Length', object.size);
    if (req.method === 'HEAD') return void res.end();
    const found = await storage().read(key);
    if (!found) throw refuse.notFound('Media not found');
    await pipeline(found.body, res).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE')
        api.deps.logger.warn({ err: error, mediaId }, 'public media stream failed');
    });
  });

  return router;
}
