import { Router, type Request } from 'express';
import { analyticsQuerySchema, subscribersQuerySchema } from '../../domain/contracts/creator-insights';
import { refuse } from '../../domain/shared/errors';
import { creatorAnalytics } from '../../projections/creator-analytics';
import { creatorSubscribers, parseSubscriberCursor } from '../../projections/creator-subscriptions';
import { isCreator } from '../../projections/creators';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** A creator's insights (issue 19): their subscribers and their analytics, for the creator alone. */
export function creatorInsightsRoutes(api: Api): Router {
  const router = Router();
  const { db } = api.deps;
  const member = requireActiveSubscription(db);

  /** The creator of the path when it is the signed-in user: 404 for no such creator, 403 for anyone else. */
  const ownCreatorId = async (req: Request) => {
    const creatorId = String(req.params.id);
    if (!(await isCreator(db, creatorId))) throw refuse.notFound('Creator not found');
    if (creatorId !== req.userId) throw refuse.forbidden('Only the creator can see their subscribers and analytics');
    return creatorId;
  };

  router.get('/creators/:id/subscribers', member, async (req, res) => {
    const creatorId = await ownCreatorId(req);
    const query = parseWith(subscribersQuerySchema, req.query);
    const after = query.cursor ? parseSubscriberCursor(query.cursor) : null;
    if (query.cursor && !after) throw refuse.validation('Invalid cursor', { cursor: 'Invalid cursor' });
    res.json(
      await creatorSubscribers(db, api.deps.clock(), creatorId, {
        q: query.q,
        status: query.status,
        after,
        limit: query.limit,
      }),
    );
  });

  router.get('/creators/:id/analytics', member, async (req, res) => {
    const creatorId = await ownCreatorId(req);
    const { days } = parseWith(analyticsQuerySchema, req.query);
    res.json(await creatorAnalytics(db, api.deps.clock(), creatorId, days));
  });

  return router;
}
