import { Router } from 'express';
import type { Response } from 'express';
import {
  subscribeWithCryptoSchema,
  verifyAgeSchema,
  type MembershipActionResult,
} from '../../domain/contracts/membership';
import { SIX_MONTH_PLAN } from '../../domain/contracts/money';
import { markConversionsUsed } from '../../domain/crypto/commands';
import {
  cancelMembership,
  subscribeWithBalance,
  subscribeWithCard,
  verifyAge,
  type ActionResult,
  type PaymentGateway,
} from '../../domain/membership/commands';
import type { CommandContext } from '../../domain/shared/command-handler';
import { unusedConversionsOf } from '../../projections/crypto-conversions';
import { idempotency } from '../http/idempotency';
import { parseWith } from '../http/validate';
import { refuse } from '../../domain/shared/errors';
import { requestUser } from '../http/access';
import type { Api } from '../kit';

/** The site membership over HTTP (SPEC §7). v1: the status; subscribe/cancel come later. */
export function membershipRoutes(api: Api): Router {
  const router = Router();

  router.get('/subscription-status', async (req, res) => {
    const user = await requestUser(api.deps.db, req);
    if (!user) throw refuse.unauthorized();
    res.json({
      subscriptionStatus: user.subscriptionStatus,
      ageVerified: user.ageVerified,
      lastPaymentDate: user.lastPaymentDate,
      subscriptionEndDate: user.subscriptionEndDate,
    });
  });

  // Member money: subscribe by card, the 6-month plan from the USD balance, cancel, age verification.
  const { db, store } = api.deps;
  const gateway = api.deps.ports.paymentGateway as PaymentGateway;
  // The answer waits for what the membership pages show next: status, balance, conversions used.
  const answer = async (res: Response, result: ActionResult, failedStatus = 402) => {
    await api.readYourWritesShowing(result.position, ['users', 'wallet_balances', 'crypto_conversions']);
    const body: MembershipActionResult = { success: result.success, message: result.message };
    res
      .status(result.success ? 200 : failedStatus)
      .json(result.success ? body : { ...body, error: result.message, code: 'PAYMENT_DECLINED' });
  };

  router.post('/subscribe', api.requireUser, idempotency(db), async (req, res) => {
    await answer(res, await subscribeWithCard({ store, gateway }, req.userId!, api.context(req)));
  });

  router.post('/subscribe/crypto', api.requireUser, idempotency(db), async (req, res) => {
    const body = parseWith(subscribeWithCryptoSchema, req.body);
    const userId = req.userId!;
    const unused = await unusedConversionsOf(db, userId);
    // conversionId is the conversion's public number; only the member's own unused ones count.
    const chosen = (row: { number: string | null }) =>
      body.conversionId !== undefined && row.number !== null && Number(row.number) === body.conversionId;
    if (body.conversionId !== undefined && !unused.some(chosen))
      throw refuse.notFound('Conversion not found or already used');
    // The conversions that pay for the plan: the chosen one first, then the oldest, until $11.94 is covered.
    const ordered = [...unused.filter(chosen), ...unused.filter((row) => !chosen(row))];
    const paying: string[] = [];
    let covered = 0;
    for (const row of ordered) {
      if (covered >= SIX_MONTH_PLAN.priceCents) break;
      paying.push(row.transaction_id);
      covered += Number(row.net_amount_cents);
    }
    const markConversions = (purchaseId: string, context: CommandContext) =>
      markConversionsUsed(store, paying, purchaseId, SIX_MONTH_PLAN.months, context);
    await answer(res, await subscribeWithBalance({ store, markConversions }, userId, api.context(req)), 422);
  });

  router.post('/cancel-subscription', api.requireUser, async (req, res) => {
    await answer(res, await cancelMembership(store, req.userId!, api.context(req)), 409);
  });

  router.post('/verify-age', api.requireUser, async (req, res) => {
    const body = parseWith(verifyAgeSchema, req.body);
    await answer(res, await verifyAge({ store, gateway }, req.userId!, body.paymentToken, api.context(req)));
  });

  return router;
}
