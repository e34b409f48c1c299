import { Router } from 'express';
import { sendMessageSchema, type Message } from '../../domain/contracts/messaging';
import { formatCents } from '../../domain/contracts/money';
import { BLOCKED_MESSAGE } from '../../domain/contracts/safety';
import { sendMessage, unlockMessage, type MessageState } from '../../domain/messaging/commands';
import { refuse } from '../../domain/shared/errors';
import { newId } from '../../domain/shared/ids';
import { blockedBetween } from '../../projections/blocks';
import { isCreator } from '../../projections/creators';
import { isUserId } from '../../projections/users';
import { attachmentViews, mediaByIds, unusableMedia, type MediaLinks } from '../../projections/media-access';
import { chatUser, conversations, findMessage, thread } from '../../projections/messages';
import { requireActiveSubscription } from '../http/access';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import { requireVerifiedIdentity } from '../http/identity-gate';
import type { Api } from '../kit';

/** Direct messages, paid ones locked until their receiver unlocks them (SPEC §2 Messages, §7). */
export function messagingRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db);
  const links = () => api.deps.ports.mediaUrls as MediaLinks;

  const userOr404 = async (id: string) => {
    const user = isUserId(id) ? await chatUser(db, id) : null;
    if (!user) throw refuse.notFound('User not found');
    return user;
  };

  /** A message as one of its two parties sees it, from the write side (the read model may lag). */
  const fromState = async (messageId: string, state: MessageState, viewerId: string): Promise<Message> => {
    const locked = state.priceCents !== null && !state.unlocked && state.receiverId === viewerId;
    return {
      id: messageId,
      senderId: state.senderId!,
      receiverId: state.receiverId!,
      content: locked ? null : state.content,
      mediaUrl: null,
      isPaid: state.priceCents !== null,
      price: state.priceCents === null ? null : formatCents(state.priceCents),
      isUnlocked: state.priceCents === null || state.unlocked,
      locked,
      createdAt: state.sentAt!,
      media: attachmentViews(await mediaByIds(db, state.mediaIds), !locked, links()),
    };
  };

  router.post('/messages', member, async (req, res) => {
    const body = parseWith(sendMessageSchema, req.body);
    const receiver = await userOr404(body.receiverId);
    const senderId = req.userId!;
    if (await blockedBetween(db, senderId, receiver.id)) throw refuse.forbidden(BLOCKED_MESSAGE, { code: 'BLOCKED' });
    if (body.price != null) await requireVerifiedIdentity(db, senderId, 'send paid messages');
    const unusable = await unusableMedia(db, senderId, body.mediaIds);
    if (unusable) throw refuse.unprocessable(unusable, { code: 'MEDIA_NOT_USABLE' });
    const messageId = newId();
    const senderIsCreator = await isCreator(db, senderId);
    const result = await sendMessage(
      store,
      {
        messageId,
        senderId,
        senderIsCreator,
        receiverId: receiver.id,
        content: body.content,
        priceCents: body.price ?? null,
        mediaIds: body.mediaIds,
      },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res
      .status(201)
      .json(
        (await findMessage(db, senderId, messageId, links())) ?? (await fromState(messageId, result.state, senderId)),
      );
  });

  api.pageRead('/conversations', [member], async (_req, read) => conversations(read));

  // The other person of a conversation not started yet (opened from a profile or a link).
  router.get('/conversations/:userId', member, async (req, res) => {
    res.json({ user: await userOr404(String(req.params.userId)) });
  });

  api.pageRead('/messages/:userId', [member], async (req, read) => {
    const messages = await thread(read, String(req.params.userId), links());
    if (!messages) throw refuse.notFound('User not found');
    return messages;
  });

  router.post('/messages/:id/unlock', member, idempotency(db), async (req, res) => {
    const messageId = String(req.params.id);
    if (!isUserId(messageId)) throw refuse.notFound('Message not found');
    const current = await findMessage(db, req.userId!, messageId, links());
    if (current?.removed) throw refuse.conflict("This message was removed by Lively moderation and can't be unlocked.");
    const result = await unlockMessage(store, req.userId!, messageId, api.context(req));
    // The answer shows the message with its files' links, which are checked against the messages
    // read model: a busy server must not answer links that still say 403.
    await api.readYourWritesShowing(result.position, ['messages', 'wallet_balances']);
    const view = await findMessage(db, req.userId!, messageId, links());
    res.json(view && !view.locked ? view : await fromState(messageId, result.state, req.userId!));
  });

  return router;
}
