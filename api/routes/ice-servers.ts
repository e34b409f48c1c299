import { Router } from 'express';
import type { IceServers } from '../../domain/contracts/ice-servers';
import { requireActiveSubscription, requireAgeVerified } from '../http/access';
import type { Api } from '../kit';

/** Where the answer comes from: the launcher's TURN relay or STUN only (`ports.iceServers`, ops/turn.ts). */
interface IceServerSource {
  forUser(userId: string, now: Date): IceServers;
}

/**
 * GET /api/chat/ice-servers: STUN, and TURN with credentials of at most an hour, for the chat
 * page's peer connections. Same access as the chat itself: subscribed and age-verified.
 */
export function iceServerRoutes(api: Api): Router {
  const router = Router();
  const { db, clock } = api.deps;
  const source = () => api.deps.ports.iceServers as IceServerSource;

  router.get('/chat/ice-servers', requireActiveSubscription(db, clock), requireAgeVerified(db), (req, res) => {
    res.json(source().forUser(req.userId as string, clock()));
  });

  return router;
}
