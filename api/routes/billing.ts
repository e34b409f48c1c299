import { Router } from 'express';
import { billingHistoryQuerySchema } from '../../domain/contracts/billing';
import { refuse } from '../../domain/shared/errors';
import { billingHistoryPage, decodeBillingCursor, findReceipt } from '../../projections/billing-history';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/**
 * A member's own billing history and receipts. Open to every signed-in member, subscribed or
 * not: a lapsed member still needs their receipts.
 */
export function billingRoutes(api: Api): Router {
  const router = Router();
  const { db } = api.deps;

  router.get('/billing/history', api.requireUser, async (req, res) => {
    const query = parseWith(billingHistoryQuerySchema, req.query);
    const cursor = query.cursor ? decodeBillingCursor(query.cursor) : null;
    if (query.cursor && !cursor) throw refuse.validation('Invalid cursor', { cursor: 'Invalid cursor' });
    res.json(await billingHistoryPage(db, req.userId!, { cursor, limit: query.limit }));
  });

  // Another member's receipt is answered exactly like one that does not exist.
  router.get('/billing/receipts/:id', api.requireUser, async (req, res) => {
    const receipt = await findReceipt(db, req.userId!, String(req.params.id));
    if (!receipt) throw refuse.notFound('Receipt not found');
    res.json(receipt);
  });

  return router;
}
