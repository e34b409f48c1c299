import { Router, type NextFunction, type Request, type Response } from 'express';
import {
  ADMIN_RESOURCES,
  adminListQuerySchema,
  PAYOUT_ACTIONS,
  payoutActionSchema,
  REASON_REQUIRED,
  revenueQuerySchema,
  type AdminPage,
  type AdminResource,
  type PayoutAction,
  type StreamEventView,
} from '../../domain/contracts/admin';
import { decidePayout, processPayout, type PayoutGateway } from '../../domain/payouts/commands';
import { PAYOUT_HELD_REASON } from '../../domain/contracts/safety';
import { refuse } from '../../domain/shared/errors';
import { adminPage, adminRow, adminRows, type AdminTable } from '../../projections/admin-tables';
import { conversionsAdminTable } from '../../projections/crypto-transactions';
import { ledgerAdminTable, revenueDays } from '../../projections/ledger';
import { paymentsAdminTable } from '../../projections/payments';
import { findPayoutRow, payoutsAdminTable } from '../../projections/payouts';
import { emailsOf, isBanned } from '../../projections/users';
import { requireRole } from '../http/access';
import { redactEventData, redactEventMetadata } from '../http/event-redaction';
import { waitForProjections } from '../../projections/engine/read-your-writes';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';
import { streamCsv } from './admin-csv';
import { PAYOUT_READ_MODELS } from './payouts';

/** The finance console's API: role admin only (401 without a session, 403 for everyone else). */

const STREAM_NAME = /^[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9_:.-]{1,200}$/;
const DAY_MS = 86_400_000;
const EXPORT_BATCH = 500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each table has a view type of its own
const ADMIN_TABLES: Record<AdminResource, AdminTable<any>> = {
  payouts: payoutsAdminTable,
  conversions: conversionsAdminTable,
  payments: paymentsAdminTable,
  ledger: ledgerAdminTable,
};

const isResource = (value: string): value is AdminResource => (ADMIN_RESOURCES as readonly string[]).includes(value);

export function adminRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const staffOnly = requireRole(db, 'admin');
  const gateway = () => api.deps.ports.payoutGateway as PayoutGateway;

  router.get('/admin/revenue', staffOnly, async (req, res) => {
    const query = parseWith(revenueQuerySchema, req.query);
    const to = query.to ?? api.deps.clock();
    const from = query.from ?? new Date(to.getTime() - 29 * DAY_MS);
    res.json(await revenueDays(db, from, to));
  });

  router.get('/admin/streams/:streamName/events', staffOnly, async (req, res) => {
    const streamName = String(req.params.streamName);
    if (!STREAM_NAME.test(streamName))
      throw refuse.validation('Invalid stream name', { streamName: 'Invalid stream name' });
    const related = typeof req.query.related === 'string' && req.query.related.length <= 100 ? req.query.related : null;
    const recorded = await store.readStream(streamName);
    if (recorded.length === 0) throw refuse.notFound('Stream not found');
    // Redacted before the search: `related` must not probe a masked value letter by letter.
    const shown = recorded.map((event) => ({
      ...event,
      data: redactEventData(event.type, event.data),
      metadata: redactEventMetadata(event.metadata),
    }));
    const events = related ? shown.filter((event) => JSON.stringify(event.data).includes(related)) : shown;
    const actorIds = [
      ...new Set(
        events
          .map((e) => e.metadata.actorId)
          .filter((id): id is string => typeof id === 'string' && /^[0-9a-f-]{36}$/i.test(id)),
      ),
    ];
    const emails = await emailsOf(db, actorIds);
    const body: StreamEventView[] = events.map((event) => {
      const actorId = typeof event.metadata.actorId === 'string' ? event.metadata.actorId : null;
      return {
        eventId: event.eventId,
        type: event.type,
        revision: event.revision.toString(),
        data: event.data,
        metadata: event.metadata,
        actor: actorId ? { id: actorId, email: emails.get(actorId) ?? null } : null,
        createdAt: event.createdAt,
      };
    });
    res.json({ streamName, events: body });
  });

  router.post('/admin/payouts/:id/:action', staffOnly, async (req, res) => {
    const action = String(req.params.action) as PayoutAction;
    if (!PAYOUT_ACTIONS.includes(action)) throw refuse.notFound(`Unknown payout action: ${action}`);
    const { reason } = parseWith(payoutActionSchema, req.body);
    if (REASON_REQUIRED.includes(action) && !reason)
      throw refuse.validation('A reason is required', { reason: 'A reason is required' });
    const payout = await findPayoutRow(db, String(req.params.id));
    if (!payout) throw refuse.notFound('Payout not found');
    // A banned creator's money stays until staff reinstate them (cancelling or failing still returns it).
    if ((action === 'process' || action === 'complete') && (await isBanned(db, payout.creator_id)))
      throw refuse.conflict(PAYOUT_HELD_REASON, { code: 'PAYOUT_HELD' });
    const context = api.context(req);
    const result =
      action === 'process'
        ? await processPayout(store, gateway(), payout.creator_id, payout.id, context)
        : await decidePayout(
            store,
            payout.creator_id,
            payout.id,
            action === 'complete' ? { action } : { action, reason: reason! },
            context,
          );
    await waitForProjections(db, [...PAYOUT_READ_MODELS, 'ledger'], result.position, 10_000);
    res.json(await adminRow(db, ADMIN_TABLES.payouts, payout.id));
  });

  router.get('/admin/:resource/export.csv', staffOnly, async (req: Request, res: Response, next: NextFunction) => {
    const resource = String(req.params.resource);
    if (!isResource(resource)) return next();
    const query = parseWith(adminListQuerySchema(resource), req.query);
    const table = ADMIN_TABLES[resource];
    // One snapshot for the whole file: rows written while exporting neither repeat nor go missing.
    await db.transaction(
      async (trx) => {
        const stamp = api.deps.clock().toISOString().slice(0, 10);
        await streamCsv(
          res,
          `${resource}-${stamp}.csv`,
          table.csv.map(([header]) => header),
          adminRows(trx, table, query, EXPORT_BATCH),
          (view) => table.csv.map(([, cell]) => cell(view)),
        );
      },
      { isolationLevel: 'repeatable read', readOnly: true },
    );
  });

  router.get('/admin/:resource', staffOnly, async (req: Request, res: Response, next: NextFunction) => {
    const resource = String(req.params.resource);
    if (!isResource(resource)) return next();
    const query = parseWith(adminListQuerySchema(resource), req.query);
    const table = ADMIN_TABLES[resource];
    const body: AdminPage<unknown> = await adminPage(db, table, query);
    res.json(body);
  });

  return router;
}
