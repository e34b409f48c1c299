import { Router } from 'express';
import { sendMassMessageSchema } from '../../domain/contracts/mass-messages';
import type { MassMessageSegment } from '../../domain/messaging/events';
import { sendMassMessage } from '../../domain/messaging/commands';
import { refuse } from '../../domain/shared/errors';
import { deterministicId, newId } from '../../domain/shared/ids';
import { isCreator } from '../../projections/creators';
import { massMessagesOf, segmentRecipients } from '../../projections/mass-messages';
import { unusableMedia } from '../../projections/media-access';
import { requireActiveSubscription } from '../http/access';
import { requireVerifiedIdentity } from '../http/identity-gate';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Mass messages (issue 21): a creator sends one message to a segment of their subscribers. */
export function massMessageRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db);

  const creatorOnly = async (userId: string) => {
    if (!(await isCreator(db, userId))) throw refuse.forbidden('Only creators can send mass messages');
  };

  router.post('/mass-messages', member, idempotency(db), async (req, res) => {
    const body = parseWith(sendMassMessageSchema, req.body);
    const creatorId = req.userId!;
    await creatorOnly(creatorId);
    if (body.price != null) await requireVerifiedIdentity(db, creatorId, 'send paid messages');
    const unusable = await unusableMedia(db, creatorId, body.mediaIds);
    if (unusable) throw refuse.unprocessable(unusable, { code: 'MEDIA_NOT_USABLE' });
    const segment: MassMessageSegment =
      body.segment === 'tier' ? { kind: 'tier', tierId: body.tierId! } : { kind: body.segment };
    const key = req.get('Idempotency-Key');
    const massMessageId = key ? deterministicId('massMessage', creatorId, key) : newId();
    const result = await sendMassMessage(
      store,
      {
        massMessageId,
        creatorId,
        senderIsCreator: true,
        segment,
        content: body.content,
        priceCents: body.price ?? null,
        mediaIds: body.mediaIds,
        recipientIds: await segmentRecipients(db, api.deps.clock(), creatorId, segment),
      },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    const view = (await massMessagesOf(db, creatorId)).find((summary) => summary.id === massMessageId);
    res.status(201).json(view ?? { id: massMessageId, recipients: result.state.recipients });
  });

  router.get('/mass-messages', member, async (req, res) => {
    await creatorOnly(req.userId!);
    res.json(await massMessagesOf(db, req.userId!));
  });

  return router;
}
