import { Router } from 'express';
import {
  creatorSearchSchema,
  registerCreatorSchema,
  tierSchema,
  watermarkSettingSchema,
  type Creator,
  type Tier,
  type WatermarkSetting,
} from '../../domain/contracts/creators';
import { formatCents } from '../../domain/contracts/money';
import { createTier, registerCreator, setWatermark, updateTier } from '../../domain/creators/commands';
import { refuse } from '../../domain/shared/errors';
import { newId } from '../../domain/shared/ids';
import {
  NO_TIERS_PRICE,
  creatorStats,
  creatorTiers,
  findCreator,
  listCreators,
  watermarkEnabled,
} from '../../projections/creators';
import type { MediaLinks } from '../../projections/media-access';
import { readAs } from '../../projections/page-reads';
import { creatorPosts } from '../../projections/posts';
import { displayName, findUserRow, isUserId } from '../../projections/users';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Creators: registration, list and search, profile, tiers, posts, stats (SPEC §2, §7). */
export function creatorRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db);
  const now = () => api.deps.clock();

  /** A creator page's read: its value, or 404 when the id is no creator's (null). */
  const found = <T>(value: T | null): T => {
    if (value === null) throw refuse.notFound('Creator not found');
    return value;
  };

  // What the creator list and page load: each answer is one statement that resolves the session
  // too (api.pageRead); a malformed id is passed on to the module routes.
  api.pageRead('/creators', [member], async (req, read) => {
    const query = parseWith(creatorSearchSchema, req.query);
    return listCreators(read, now(), { q: query.q, limit: query.limit });
  });

  api.pageRead('/creators/:id', [member], async (req, read) =>
    found(await findCreator(read, now(), String(req.params.id))),
  );

  api.pageRead('/creators/:id/tiers', [member], async (req, read) =>
    found(await creatorTiers(read, String(req.params.id))),
  );

  api.pageRead('/creators/:id/posts', [member], async (req, read) => {
    const links = api.deps.ports.mediaUrls as MediaLinks;
    return found(await creatorPosts(read, now(), String(req.params.id), links));
  });

  // The owner's only: 404 for no creator, then 403 for another's. Computed before the check: the
  // viewer is known only once the statement (which resolves the session) has run.
  api.pageRead('/creators/:id/stats', [member], async (req, read) => {
    const creatorId = String(req.params.id);
    const stats = found(await creatorStats(read, now(), creatorId));
    if (creatorId !== req.userId) throw refuse.forbidden('Only the creator can see these stats');
    return stats;
  });

  router.post('/creators/register', member, async (req, res) => {
    const body = parseWith(registerCreatorSchema, req.body);
    const userId = req.userId!;
    const result = await registerCreator(
      store,
      { userId, bio: body.bio, coverImageUrl: body.coverImageUrl ?? null },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    // The read model answers; if it lags beyond the bounded wait, the answer comes from the event.
    const creator = await findCreator(readAs(db, userId), now(), userId);
    const user = creator ? null : await findUserRow(db, userId);
    const fallback: Creator | null = user && {
      id: userId,
      name: displayName(user, 'Creator'),
      firstName: user.first_name,
      lastName: user.last_name,
      bio: body.bio,
      coverImageUrl: body.coverImageUrl ?? null,
      profileImageUrl: user.profile_image_url,
      price: NO_TIERS_PRICE,
      postCount: 0,
      subscriberCount: 0,
      verified: false, // a new creator has not verified their identity yet
    };
    res.status(201).json(creator ?? fallback);
  });

  // The viewer watermark on the creator's images (issue 18; applied by api/routes/media-files.ts).
  router.get('/creators/me/watermark', member, async (req, res) => {
    const setting: WatermarkSetting = { enabled: await watermarkEnabled(db, req.userId!) };
    res.json(setting);
  });

  router.put('/creators/me/watermark', member, async (req, res) => {
    const body = parseWith(watermarkSettingSchema, req.body);
    const result = await setWatermark(store, { creatorId: req.userId!, enabled: body.enabled }, api.context(req));
    await api.readYourWrites(result.position);
    const setting: WatermarkSetting = { enabled: result.state.watermark };
    res.json(setting);
  });

  const tierView = (
    creatorId: string,
    tierId: string,
    body: { name: string; description: string; price: number; features: string[] },
  ): Tier => ({
    id: tierId,
    creatorId,
    name: body.name,
    description: body.description,
    price: formatCents(body.price),
    features: body.features,
    popular: false,
    isDefault: false,
  });

  // Tier management: the creator's own tiers only.
  const ownTiers = (req: { userId: string | null; params: Record<string, unknown> }) => {
    const creatorId = String(req.params.id);
    if (!isUserId(creatorId)) throw refuse.notFound('Creator not found');
    if (creatorId !== req.userId) throw refuse.forbidden('You can only manage your own tiers');
    return creatorId;
  };

  router.post('/creators/:id/tiers', member, async (req, res) => {
    const creatorId = ownTiers(req);
    const body = parseWith(tierSchema, req.body);
    const tierId = newId();
    const result = await createTier(
      store,
      {
        creatorId,
        tierId,
        name: body.name,
        description: body.description,
        priceCents: body.price,
        features: body.features,
      },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.status(201).json(tierView(creatorId, tierId, body));
  });

  router.put('/creators/:id/tiers/:tierId', member, async (req, res) => {
    const creatorId = ownTiers(req);
    const body = parseWith(tierSchema, req.body);
    const tierId = String(req.params.tierId);
    const result = await updateTier(
      store,
      {
        creatorId,
        tierId,
        name: body.name,
        description: body.description,
        priceCents: body.price,
        features: body.features,
      },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.json(tierView(creatorId, tierId, body));
  });

  return router;
}
