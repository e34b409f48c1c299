import { Router, type Request } from 'express';
import { blockPartnerSchema, blockSchema, reportSchema } from '../../domain/contracts/chat';
import { refuse } from '../../domain/shared/errors';
import { blocksBy } from '../../projections/blocks';
import { recentChatsOf } from '../../projections/chat-sessions';
import { userExists } from '../../projections/users';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';
import { chatSessionOf, safetyCommands } from './safety';

/**
 * Blocks and reports around Lively Chat (the socket itself is the realtime service's). The block
 * and report routes are the chat's older names for the one block list and report queue of
 * `safety.ts` (same commands); they keep their paths and answers for the chat page.
 */
export function chatRoutes(api: Api): Router {
  const router = Router();
  const { db } = api.deps;
  const userOf = (req: Request) => req.userId as string;
  // Chat is for members with an active site subscription (SPEC §6).
  const member = requireActiveSubscription(db);
  const safety = safetyCommands(api);

  router.get('/chat/blocks', member, async (req, res) => {
    res.json(await blocksBy(db, userOf(req)));
  });

  router.post('/chat/blocks', member, async (req, res) => {
    const body = parseWith(blockSchema, req.body);
    if (body.userId !== userOf(req)) {
      if (!(await userExists(db, body.userId))) throw refuse.notFound('User not found');
    }
    await safety.block(req, body.userId, body.reason || null);
    res.status(201).json({ message: 'User blocked', userId: body.userId });
  });

  /** The member's recent chats, newest first (what a report refers to). */
  router.get('/chat/sessions', member, async (req, res) => {
    res.json(await recentChatsOf(db, userOf(req)));
  });

  router.post('/chat/sessions/:roomId/block', member, async (req, res) => {
    const roomId = String(req.params.roomId);
    const body = parseWith(blockPartnerSchema, req.body);
    const session = await chatSessionOf(api, roomId, userOf(req));
    await safety.block(req, session.partnerId, body.reason || null);
    res.status(201).json({ message: 'User blocked', roomId });
  });

  /** A report of the chat partner; its free text is the details of a report with reason `other`. */
  router.post('/chat/sessions/:roomId/report', member, async (req, res) => {
    const roomId = String(req.params.roomId);
    const body = parseWith(reportSchema, req.body);
    const session = await chatSessionOf(api, roomId, userOf(req));
    await safety.report(req, {
      reporterId: userOf(req),
      targetType: 'chat_session',
      targetId: roomId,
      targetUserId: session.partnerId,
      reason: 'other',
      details: body.reason,
    });
    res.status(201).json({ message: 'Report received', roomId });
  });

  return router;
}
