import { Router, type Request } from 'express';
import type { BlockResult, ReportReceipt, ReportRequest } from '../../domain/contracts/safety';
import { blockUserSchema, DUPLICATE_REPORT, reportRequestSchema } from '../../domain/contracts/safety';
import { chatSessionStarted } from '../../domain/chat/commands';
import {
  blockUser,
  DEFAULT_AUTO_SUSPEND_POLICY,
  fileReport,
  unblockUser,
  type AutoSuspendPolicy,
  type ReportInput,
} from '../../domain/safety/commands';
import { refuse } from '../../domain/shared/errors';
import { blocksBy } from '../../projections/blocks';
import { hasOpenReport, messageSender, postAuthor } from '../../projections/reports';
import { userExists } from '../../projections/users';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

const ROOM_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The chat session a member refers to, once the realtime service has written it (it records a
 * match a few milliseconds after announcing it): 404 unless it exists and the member took part.
 */
export async function chatSessionOf(api: Api, roomId: string, me: string) {
  if (!ROOM_ID.test(roomId)) throw refuse.notFound('Chat session not found');
  for (let waited = 0; ; waited += 50) {
    const started = await chatSessionStarted(api.deps.store, roomId);
    if (started) {
      if (started.user1Id !== me && started.user2Id !== me) throw refuse.notFound('Chat session not found');
      return { ...started, partnerId: started.user1Id === me ? started.user2Id : started.user1Id };
    }
    if (waited >= 2000) throw refuse.notFound('Chat session not found');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The commands behind the block and report routes, shared with the chat's older routes (thin aliases). */
export function safetyCommands(api: Api) {
  const { store, db } = api.deps;
  const policy = () => (api.deps.ports.safetyPolicy as AutoSuspendPolicy | undefined) ?? DEFAULT_AUTO_SUSPEND_POLICY;

  return {
    async block(req: Request, blockedId: string, reason: string | null): Promise<BlockResult> {
      const result = await blockUser(store, { userId: req.userId!, blockedId, reason }, api.context(req));
      await api.readYourWrites(result.position);
      return { message: 'User blocked', userId: blockedId };
    },

    /**
     * Files a report; when it suspends the account (N distinct reporters within the window), the
     * account's sessions end here, right after the suspension was written.
     */
    async report(req: Request, input: ReportInput): Promise<ReportReceipt> {
      if (await hasOpenReport(db, input.reporterId, input.targetType, input.targetId))
        throw refuse.conflict(DUPLICATE_REPORT, { code: 'DUPLICATE_REPORT' });
      const result = await fileReport(store, input, policy(), api.context(req));
      if (result.suspended) await api.sessions.closeAllFor(input.targetUserId);
      await api.readYourWrites(result.position);
      return { message: 'Report received', reportId: result.reportId };
    },
  };
}

/** Blocks and reports for every signed-in member (profiles, posts, messages, chat): SPEC §3 user_blocks, issue 20. */
export function safetyRoutes(api: Api): Router {
  const router = Router();
  const { store, db } = api.deps;
  const commands = safetyCommands(api);

  /** The account a report is about: 404 when the target is unknown (or not the reporter's to report). */
  const reportedAccount = async (req: Request, body: ReportRequest): Promise<string> => {
    const me = req.userId!;
    switch (body.targetType) {
      case 'user':
        if (!(await userExists(db, body.targetId))) throw refuse.notFound('User not found');
        return body.targetId;
      case 'post':
        return (await postAuthor(db, body.targetId)) ?? Promise.reject(refuse.notFound('Post not found'));
      case 'message':
        return (await messageSender(db, body.targetId, me)) ?? Promise.reject(refuse.notFound('Message not found'));
      case 'chat_session':
        return (await chatSessionOf(api, body.targetId, me)).partnerId;
    }
  };

  router.get('/blocks', api.requireUser, async (req, res) => {
    res.json(await blocksBy(db, req.userId!));
  });

  router.post('/blocks', api.requireUser, async (req, res) => {
    const body = parseWith(blockUserSchema, req.body);
    if (body.userId !== req.userId && !(await userExists(db, body.userId))) throw refuse.notFound('User not found');
    res.status(201).json(await commands.block(req, body.userId, body.reason || null));
  });

  router.delete('/blocks/:userId', api.requireUser, async (req, res) => {
    const blockedId = String(req.params.userId);
    const result = await unblockUser(store, { userId: req.userId!, blockedId }, api.context(req));
    await api.readYourWrites(result.position);
    res.json({ message: 'User unblocked', userId: blockedId } satisfies BlockResult);
  });

  router.post('/reports', api.requireUser, async (req, res) => {
    const body = parseWith(reportRequestSchema, req.body);
    const targetUserId = await reportedAccount(req, body);
    const receipt = await commands.report(req, {
      reporterId: req.userId!,
      targetType: body.targetType,
      targetId: body.targetId,
      targetUserId,
      reason: body.reason,
      details: body.details || null,
    });
    res.status(201).json(receipt);
  });

  return router;
}
