import { Router, type Response } from 'express';
import type { CurrentUser } from '../../domain/contracts/accounts';
import { formatCents, parseCents } from '../../domain/contracts/money';
import {
  createPromotionSchema,
  discountedCents,
  type PromotionOffer,
  type PromotionView,
} from '../../domain/contracts/promotions';
import { createPromotion, endPromotion } from '../../domain/creators/commands';
import { refuse } from '../../domain/shared/errors';
import { creatorTiers, findCreator } from '../../projections/creators';
import { readAs } from '../../projections/page-reads';
import { findPromotion, promotionsOfCreator } from '../../projections/promotions';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/**
 * Promotions (issue 21): the creator creates, lists and ends their trials and first-month
 * discounts; any member reads the offer behind a share link (`/creator/:id?promo=<id>`).
 * Subscribing through one is `POST /api/subscriptions` with `promotionId`.
 */
export function promotionRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db);

  /** The signed-in creator (the member gate left the user in `res.locals`); a member is refused. */
  const creatorId = (res: Response): string => {
    const user = res.locals.currentUser as CurrentUser;
    if (!user.isCreator) throw refuse.forbidden('Only creators can manage promotions', { code: 'CREATOR_REQUIRED' });
    return user.id;
  };

  /** The promotion once the read model has it (read-your-writes waited); 202 with its id if it lags further. */
  const answer = async (res: Response, id: string, code: number) => {
    const view: PromotionView | null = await findPromotion(db, id, api.deps.clock());
    if (view) res.status(code).json(view);
    else res.status(202).json({ id, status: 'pending', message: 'Recorded; it will show in a moment.' });
  };

  router.get('/creators/me/promotions', member, async (req, res) => {
    res.json(await promotionsOfCreator(db, creatorId(res), api.deps.clock()));
  });

  router.post('/creators/me/promotions', member, async (req, res) => {
    const owner = creatorId(res);
    const body = parseWith(createPromotionSchema, req.body);
    const result = await createPromotion(
      store,
      {
        creatorId: owner,
        tierId: body.tierId,
        kind: body.kind,
        trialDays: body.kind === 'trial' ? body.trialDays : null,
        percentOff: body.kind === 'discount' ? body.percentOff : null,
        maxRedemptions: body.maxRedemptions,
        endsAt: new Date(body.endsAt),
      },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    await answer(res, result.events[0].data.promotionId, 201);
  });

  router.post('/creators/me/promotions/:id/end', member, async (req, res) => {
    const owner = creatorId(res);
    const promotionId = String(req.params.id);
    const result = await endPromotion(store, { promotionId, creatorId: owner }, api.context(req));
    await api.readYourWrites(result.position);
    await answer(res, promotionId, 200);
  });

  router.get('/promotions/:id', member, async (req, res) => {
    const now = api.deps.clock();
    const promotion = await findPromotion(db, String(req.params.id), now);
    if (!promotion) throw refuse.notFound('This offer does not exist');
    const read = readAs(db, req.userId);
    const creator = await findCreator(read, now, promotion.creatorId);
    const tier = (await creatorTiers(read, promotion.creatorId))?.find(
      (candidate) => candidate.id === promotion.tierId,
    );
    if (!creator || !tier) throw refuse.notFound('This offer is no longer available');
    const priceCents = parseCents(tier.price) ?? 0;
    const offer: PromotionOffer = {
      id: promotion.id,
      creatorId: creator.id,
      creatorName: creator.name,
      tierId: tier.id,
      tierName: tier.name,
      kind: promotion.kind,
      trialDays: promotion.trialDays,
      percentOff: promotion.percentOff,
      price: tier.price,
      firstPeriodPrice: formatCents(
        promotion.kind === 'trial' ? 0 : discountedCents(priceCents, promotion.percentOff ?? 0),
      ),
      remaining: promotion.remaining,
      endsAt: promotion.endsAt,
      status: promotion.status,
    };
    res.json(offer);
  });

  return router;
}
