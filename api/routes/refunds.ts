import { Router } from 'express';
import { refundRequestSchema, type RefundResponse } from '../../domain/contracts/admin';
import { formatCents } from '../../domain/contracts/money';
import { refundCharge, type PaymentGateway } from '../../domain/payments/commands';
import { refuse } from '../../domain/shared/errors';
import { waitForProjections } from '../../projections/engine/read-your-writes';
import { chargeLocation } from '../../projections/payments';
import { requireRole } from '../http/access';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/**
 * Finance staff refund a card charge: `POST /api/admin/payments/:id/refund` `{ amountCents?, reason }`.
 * `:id` is the charge's row in the payments table: a site-plan payment's id, or a creator-tier
 * charge's subscription id (first period) or renewal id. No amount: all that is left.
 */
/** Payment, subscription and renewal ids: anything else names no charge. */
const CHARGE_ID = /^[A-Za-z0-9_:-]{1,100}$/;

export function refundRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;

  router.post('/admin/payments/:id/refund', requireRole(db, 'admin'), idempotency(db), async (req, res) => {
    const { amountCents, reason } = parseWith(refundRequestSchema, req.body);
    const id = String(req.params.id);
    const location = CHARGE_ID.test(id) ? await chargeLocation(db, id) : null;
    if (!location) throw refuse.notFound('Payment not found');
    const gateway = api.deps.ports.paymentGateway as PaymentGateway;
    const context = api.context(req);
    const refund = await refundCharge(
      store,
      gateway,
      { ...location, amountCents: amountCents ?? null, reason },
      context,
    );
    await waitForProjections(db, ['payments', 'ledger'], refund.position, 10_000);
    const body: RefundResponse = {
      paymentId: refund.charge.chargeId,
      sequence: refund.sequence,
      amount: formatCents(refund.amountCents),
      refundedTotal: formatCents(refund.refundedTotalCents),
      full: refund.full,
      gatewayRefundId: refund.gatewayRefundId,
    };
    res.json(body);
  });

  return router;
}
