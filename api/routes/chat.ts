import { Router, type Request } from 'express';
import { blockPartnerSchema, blockSchema, reportSchema } from '../../domain/contracts/chat';
import { blockChatMember, chatSessionStarted, reportChatSession } from '../../domain/chat/commands';
import { refuse } from '../../domain/shared/errors';
import { blocksBy } from '../../projections/chat-blocks';
import { recentChatsOf } from '../../projections/chat-sessions';
import { userExists } from '../../projections/users';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

const ROOM_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Blocks and reports around Lively Chat (the socket itself is the realtime service's). */
export function chatRoutes(api: Api): Router {
  const router = Router();
  const { store, db } = api.deps;
  const userOf = (req: Request) => req.userId as string;
  // Chat is for members with an active site subscription (SPEC §6).
  const member = requireActiveSubscription(db);

  router.get('/chat/blocks', member, async (req, res) => {
    res.json(await blocksBy(db, userOf(req)));
  });

  router.post('/chat/blocks', member, async (req, res) => {
    const body = parseWith(blockSchema, req.body);
    if (body.userId !== userOf(req)) {
      if (!(await userExists(db, body.userId))) throw refuse.notFound('User not found');
    }
    const result = await blockChatMember(
      store,
      { userId: userOf(req), blockedId: body.userId, reason: body.reason || null },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.status(201).json({ message: 'User blocked', userId: body.userId });
  });

  /** The member's recent chats, newest first (what a report refers to). */
  router.get('/chat/sessions', member, async (req, res) => {
    res.json(await recentChatsOf(db, userOf(req)));
  });

  /**
   * The session a member refers to, once the realtime service has written it (it records a match
   * a few milliseconds after announcing it): 404 unless it exists and the member took part.
   */
  const sessionOf = async (roomId: string, me: string) => {
    if (!ROOM_ID.test(roomId)) throw refuse.notFound('Chat session not found');
    for (let waited = 0; ; waited += 50) {
      const started = await chatSessionStarted(store, roomId);
      if (started) {
        if (started.user1Id !== me && started.user2Id !== me) throw refuse.notFound('Chat session not found');
        return started;
      }
      if (waited >= 2000) throw refuse.notFound('Chat session not found');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  router.post('/chat/sessions/:roomId/block', member, async (req, res) => {
    const roomId = String(req.params.roomId);
    const body = parseWith(blockPartnerSchema, req.body);
    const me = userOf(req);
    const session = await sessionOf(roomId, me);
    const partnerId = session.user1Id === me ? session.user2Id : session.user1Id;
    const result = await blockChatMember(
      store,
      { userId: me, blockedId: partnerId, reason: body.reason || null },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.status(201).json({ message: 'User blocked', roomId });
  });

  router.post('/chat/sessions/:roomId/report', member, async (req, res) => {
    const roomId = String(req.params.roomId);
    const body = parseWith(reportSchema, req.body);
    await sessionOf(roomId, userOf(req));
    const result = await reportChatSession(
      store,
      { roomId, reporterId: userOf(req), reason: body.reason },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.status(201).json({ message: 'Report received', roomId });
  });

  return router;
}
