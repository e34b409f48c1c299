import { Router } from 'express';
import { formatCents } from '../../domain/contracts/money';
import { BLOCKED_TIP, tipSchema, type Tip } from '../../domain/contracts/tips';
import { refuse } from '../../domain/shared/errors';
import { deterministicId, newId } from '../../domain/shared/ids';
import { tipCreator, type PaymentGateway } from '../../domain/tips/commands';
import { blockedBetween } from '../../projections/blocks';
import type { MediaLinks } from '../../projections/media-access';
import { findPost } from '../../projections/posts';
import { findUserRow } from '../../projections/users';
import { requireActiveSubscription } from '../http/access';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Tips (issue 21): a member tips a creator, on a post, their page or in a thread, by card or from the balance. */
export function tipRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db);
  const gateway = () => api.deps.ports.paymentGateway as PaymentGateway;

  router.post('/tips', member, idempotency(db), async (req, res) => {
    const body = parseWith(tipSchema, req.body);
    const tipperId = req.userId!;
    if (body.creatorId === tipperId) throw refuse.unprocessable('You cannot tip yourself');
    if (await blockedBetween(db, tipperId, body.creatorId)) throw refuse.forbidden(BLOCKED_TIP, { code: 'BLOCKED' });
    const postId = body.postId || null;
    if (postId) {
      const post = await findPost(db, api.deps.clock(), tipperId, postId, api.deps.ports.mediaUrls as MediaLinks);
      if (!post) throw refuse.notFound('Post not found');
      if (post.creatorId !== body.creatorId) throw refuse.unprocessable('This post is not by that creator');
    }
    // The same Idempotency-Key is the same tip, so a retry never pays twice (the key's answer is replayed too).
    const key = req.get('Idempotency-Key');
    const tipId = key ? deterministicId('tip', tipperId, key) : newId();
    const user = await findUserRow(db, tipperId);
    const result = await tipCreator(
      store,
      gateway(),
      {
        tipId,
        tipperId,
        creatorId: body.creatorId,
        amountCents: body.amountCents,
        postId,
        message: body.message || null,
        source: body.source,
        customerId: (user?.gateway_customer_id as string | null | undefined) ?? null,
      },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    const terms = result.state.terms!;
    const tip: Tip = {
      id: terms.tipId,
      creatorId: terms.creatorId,
      amount: formatCents(terms.amountCents),
      postId: terms.postId,
      message: terms.message,
      source: terms.source,
      createdAt: api.deps.clock().toISOString(),
    };
    res.status(201).json(tip);
  });

  return router;
}
