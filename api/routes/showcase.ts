import { Router } from 'express';
import { SHOWCASE_SIZE, type Showcase } from '../../domain/contracts/showcase';
import { showcaseCreators } from '../../projections/showcase';
import type { Api } from '../kit';

/** Browsers and shared caches may keep the showcase this long: it is public and changes slowly. */
const MAX_AGE_SECONDS = 300;

/**
 * `GET /api/showcase` (issue 18): a few creators with their public cover and avatar, for the
 * landing page of anyone signed out. Public and cacheable, unlike the rest of the API.
 */
export function showcaseRoutes(api: Api): Router {
  const router = Router();
  router.get('/showcase', async (_req, res) => {
    const body: Showcase = { creators: await showcaseCreators(api.deps.db, api.deps.clock(), SHOWCASE_SIZE) };
    res.setHeader('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
    res.json(body);
  });
  return router;
}
