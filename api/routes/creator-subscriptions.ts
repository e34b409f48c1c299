import { Router } from 'express';
import { subscribeSchema, type SubscriptionCheck } from '../../domain/contracts/creators';
import { formatCents } from '../../domain/contracts/money';
import { subscribeToCreator, type PaymentGateway } from '../../domain/creators/commands';
import { refuse } from '../../domain/shared/errors';
import { activeSubscription } from '../../projections/creator-subscriptions';
import { findCreator } from '../../projections/creators';
import { findUserRow } from '../../projections/users';
import { requireActiveSubscription } from '../http/access';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Creator tier subscriptions: charged to the card on file, one month each (SPEC §7). */
export function creatorSubscriptionRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db);
  const gateway = () => api.deps.ports.paymentGateway as PaymentGateway;

  router.post('/subscriptions', member, idempotency(db), async (req, res) => {
    const body = parseWith(subscribeSchema, req.body);
    // The creator and the tier are checked on the write side (404s), never on a lagging read model.
    const user = await findUserRow(db, req.userId!);
    const customerId = (user?.gateway_customer_id as string | null | undefined) ?? null;
    const result = await subscribeToCreator(
      store,
      gateway(),
      {
        subscriberId: req.userId!,
        creatorId: body.creatorId,
        tierId: body.tierId,
        customerId,
        promotionId: body.promotionId,
      },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    const row = await activeSubscription(db, api.deps.clock(), req.userId!, body.creatorId);
    if (!row) throw refuse.conflict('The subscription is still being recorded; please reload');
    res.status(result.outcome === 'started' ? 201 : 200).json({
      id: row.id,
      subscriberId: row.subscriber_id,
      creatorId: row.creator_id,
      tierId: row.tier_id,
      price: formatCents(row.price_cents),
      status: row.status,
      startDate: new Date(row.start_date).toISOString(),
      endDate: new Date(row.end_date).toISOString(),
    });
  });

  router.get('/subscriptions/check/:creatorId', member, async (req, res) => {
    const creator = await findCreator(db, api.deps.clock(), String(req.params.creatorId));
    if (!creator) throw refuse.notFound('Creator not found');
    const row = await activeSubscription(db, api.deps.clock(), req.userId!, creator.id);
    const answer: SubscriptionCheck = row
      ? { subscribed: true, tierId: row.tier_id, endDate: new Date(row.end_date).toISOString() }
      : { subscribed: false, tierId: null, endDate: null };
    res.json(answer);
  });

  return router;
}
