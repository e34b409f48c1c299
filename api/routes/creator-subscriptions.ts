import { Router, type Request, type Response } from 'express';
import {
  changeTierSchema,
  renewalSourceSchema,
  type MemberSubscription,
} from '../../domain/contracts/creator-subscriptions';
import { subscribeSchema } from '../../domain/contracts/creators';
import { formatCents } from '../../domain/contracts/money';
import {
  cancelCreatorSubscription,
  changeCreatorSubscriptionRenewalSource,
  changeCreatorSubscriptionTier,
  claimMoneyBack,
  resumeCreatorSubscription,
  subscribeToCreator,
  type PaymentGateway,
} from '../../domain/creators/commands';
import type { Position } from '../../domain/event-store/port';
import { refuse } from '../../domain/shared/errors';
import {
  activeSubscription,
  memberSubscription,
  memberSubscriptions,
  subscriptionCheck,
} from '../../projections/creator-subscriptions';
import { findUserRow } from '../../projections/users';
import { requireActiveSubscription, requireSignedIn, signedInUser } from '../http/access';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/**
 * Creator tier subscriptions (SPEC §7, issue 21): subscribe on the card on file, renewed
 * monthly by the renewal process (on the card, or from the USD balance where the member chose
 * it); the member's list, cancel, resume, tier change from the next period, how renewals are
 * paid, and the 7-day money-back guarantee.
 */
export function creatorSubscriptionRoutes(api: Api): Router {
  const router = Router();
  // An answer shows the subscription as it now is.
  const shown = (position: Position | null) => api.readYourWritesShowing(position, ['creator-subscriptions']);
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db);
  const gateway = () => api.deps.ports.paymentGateway as PaymentGateway;
  const now = () => api.deps.clock();

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
        promotionId: body.promotionId, // a share link's offer (domain/creators/promotions.ts)
      },
      api.context(req),
    );
    await shown(result.position);
    const row = await activeSubscription(db, now(), req.userId!, body.creatorId);
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

  // A member whose site plan lapsed still sees and manages what they pay creators.
  api.pageRead('/subscriptions', [requireSignedIn(db)], async (_req, read) => ({
    subscriptions: await memberSubscriptions(read, now()),
  }));

  api.pageRead('/subscriptions/check/:creatorId', [member], async (req, read) => {
    const answer = await subscriptionCheck(read, now(), String(req.params.creatorId));
    if (!answer) throw refuse.notFound('Creator not found');
    return answer;
  });

  /** Runs a command on the member's own subscription `:id`, then answers with its view once applied. */
  const onOwn =
    (
      run: (
        ref: { subscriberId: string; creatorId: string; subscriptionId: string },
        req: Request,
      ) => Promise<{
        position: Position | null;
      }>,
    ) =>
    async (req: Request, res: Response) => {
      const user = await signedInUser(db, req);
      const id = String(req.params.id);
      const current = await memberSubscription(db, now(), user.id, id);
      if (!current) throw refuse.notFound('Subscription not found');
      const result = await run({ subscriberId: user.id, creatorId: current.creatorId, subscriptionId: id }, req);
      await shown(result.position);
      res.json((await memberSubscription(db, now(), user.id, id)) satisfies MemberSubscription | null);
    };

  router.post(
    '/subscriptions/:id/cancel',
    onOwn((ref, req) => cancelCreatorSubscription(store, ref, api.context(req))),
  );
  router.post(
    '/subscriptions/:id/resume',
    onOwn((ref, req) => resumeCreatorSubscription(store, ref, api.context(req))),
  );
  router.post(
    '/subscriptions/:id/tier',
    // The body is checked before the subscription is looked up: a wrong one is a 400 whatever the id.
    (req, _res, next) => {
      req.body = parseWith(changeTierSchema, req.body);
      next();
    },
    onOwn((ref, req) =>
      changeCreatorSubscriptionTier(
        store,
        { ...ref, tierId: (req.body as { tierId: string }).tierId },
        api.context(req),
      ),
    ),
  );
  router.post(
    '/subscriptions/:id/renewal-source',
    (req, _res, next) => {
      req.body = parseWith(renewalSourceSchema, req.body);
      next();
    },
    onOwn((ref, req) =>
      changeCreatorSubscriptionRenewalSource(
        store,
        { ...ref, source: (req.body as { source: 'card' | 'balance' }).source },
        api.context(req),
      ),
    ),
  );
  router.post(
    '/subscriptions/:id/refund',
    idempotency(db),
    onOwn((ref, req) => claimMoneyBack(store, gateway(), ref, api.context(req))),
  );

  return router;
}
