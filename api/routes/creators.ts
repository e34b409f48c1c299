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
  isCreator,
  listCreators,
  watermarkEnabled,
} from '../../projections/creators';
import type { MediaLinks } from '../../projections/media-access';
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

  const creatorOr404 = async (id: string) => {
    const creator = await findCreator(db, now(), id);
    if (!creator) throw refuse.notFound('Creator not found');
    return creator;
  };
  /** The id of a creator, checked to exist (without the card's counts). */
  const creatorIdOr404 = async (id: string) => {
    if (!(await isCreator(db, id))) throw refuse.notFound('Creator not found');
    return id;
  };

  router.get('/creators', member, async (req, res) => {
    const query = parseWith(creatorSearchSchema, req.query);
    res.json(await listCreators(db, now(), { q: query.q, limit: query.limit }));
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
    const creator = await findCreator(db, now(), userId);
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

  router.get('/creators/:id', member, async (req, res) => {
    res.json(await creatorOr404(String(req.params.id)));
  });

  router.get('/creators/:id/tiers', member, async (req, res) => {
    const tiers = await creatorTiers(db, String(req.params.id));
    if (!tiers) throw refuse.notFound('Creator not found');
    res.json(tiers);
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

  // The creator page's hot paths: one statement each after the session's, that 404s an unknown creator too.
  router.get('/creators/:id/posts', member, async (req, res) => {
    const links = api.deps.ports.mediaUrls as MediaLinks;
    const posts = await creatorPosts(db, now(), req.userId!, String(req.params.id), links);
    if (!posts) throw refuse.notFound('Creator not found');
    res.json(posts);
  });

  router.get('/creators/:id/stats', member, async (req, res) => {
    const creatorId = String(req.params.id);
    if (creatorId !== req.userId) {
      // Another's stats: 404 for no creator, 403 otherwise, without computing them.
      await creatorIdOr404(creatorId);
      throw refuse.forbidden('Only the creator can see these stats');
    }
    const stats = await creatorStats(db, now(), creatorId);
    if (!stats) throw refuse.notFound('Creator not found');
    res.json(stats);
  });

  return router;
}
