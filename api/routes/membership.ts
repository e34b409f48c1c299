import { Router } from 'express';
import { refuse } from '../../domain/shared/errors';
import { currentUser } from '../http/access';
import type { Api } from '../kit';

/** The site membership over HTTP (SPEC §7). v1: the status; subscribe/cancel come later. */
export function membershipRoutes(api: Api): Router {
  const router = Router();

  router.get('/subscription-status', async (req, res) => {
    const user = await currentUser(api.deps.db, req.userId);
    if (!user) throw refuse.unauthorized();
    res.json({
      subscriptionStatus: user.subscriptionStatus,
      ageVerified: user.ageVerified,
      lastPaymentDate: user.lastPaymentDate,
      subscriptionEndDate: user.subscriptionEndDate,
    });
  });

  return router;
}
