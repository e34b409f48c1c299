import { Router, type Request, type Response } from 'express';
import {
  moderationQuerySchema,
  resolveReportSchema,
  staffReasonSchema,
  suspendUserSchema,
  type ModerationResult,
  type ResolveReportResult,
} from '../../domain/contracts/safety';
import type { Position } from '../../domain/event-store/port';
import { changeStanding, resolveReport } from '../../domain/safety/commands';
import { DEACTIVATING_EVENTS, type StandingEvent } from '../../domain/safety/events';
import { refuse } from '../../domain/shared/errors';
import { findModerationReport, moderationPage, reportToResolve } from '../../projections/reports';
import { findUserRow, standingOf } from '../../projections/users';
import { requireRole } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

const deactivates = (events: StandingEvent[]) =>
  events.some((e) => (DEACTIVATING_EVENTS as readonly string[]).includes(e.type));

const MESSAGES = {
  dismiss: 'Report dismissed',
  remove_content: 'Content removed',
  warn: 'User warned',
  suspend: 'User suspended',
  ban: 'User banned',
} as const;

/**
 * The moderation console (staff, role admin): the report queue with what a moderator needs,
 * resolving a report, and suspending, banning or reinstating an account. Every action is an
 * event naming the staff member; a suspension or ban ends the account's sessions right after it
 * is written (its chat sockets close as the realtime service reads the event).
 */
export function moderationRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const staffOnly = requireRole(db, 'admin');
  const now = () => api.deps.clock();

  /**
   * After a standing change: sessions end for a suspension or ban; the read models catch up.
   * What the answer shows (the account's standing, the report) waits up to 10 s for its own
   * models, so a busy server never answers "Active" for an account it just suspended.
   */
  const enforce = async (userId: string, events: StandingEvent[], position: Position | null) => {
    if (deactivates(events)) await api.sessions.closeAllFor(userId);
    await api.readYourWritesShowing(position, ['users', 'reports']);
  };

  router.get('/admin/reports', staffOnly, async (req, res) => {
    const query = parseWith(moderationQuerySchema, req.query);
    res.json(await moderationPage(db, query, now()));
  });

  router.post('/admin/reports/:id/resolve', staffOnly, async (req, res) => {
    const body = parseWith(resolveReportSchema, req.body);
    const report = await reportToResolve(db, String(req.params.id));
    if (!report) throw refuse.notFound('Report not found');
    const result = await resolveReport(
      store,
      {
        reportId: report.id,
        targetUserId: report.targetUserId,
        target: { targetType: report.targetType, targetId: report.targetId, legacy: report.legacy },
        action: body.action,
        days: body.action === 'suspend' ? body.days! : null,
        reason: body.reason,
        staffId: req.userId!,
      },
      api.context(req),
    );
    await enforce(report.targetUserId, result.standing, result.position);
    const view = await findModerationReport(db, report.id, now());
    res.json({ message: MESSAGES[body.action], report: view! } satisfies ResolveReportResult);
  });

  /** A staff action on an account: 404 for an unknown account, then the command, then the account's standing. */
  const accountAction =
    (message: string, command: (req: Request, userId: string) => Parameters<typeof changeStanding>[1]) =>
    async (req: Request, res: Response) => {
      const userId = String(req.params.id);
      const staffCommand = command(req, userId);
      if (!(await findUserRow(db, userId))) throw refuse.notFound('User not found');
      const result = await changeStanding(store, staffCommand, api.context(req));
      await enforce(userId, result.events, result.position);
      const row = await findUserRow(db, userId);
      res.json({ message, userId, standing: standingOf(row ?? {}, now()) } satisfies ModerationResult);
    };

  router.post(
    '/admin/users/:id/suspend',
    staffOnly,
    accountAction('User suspended', (req, userId) => {
      const body = parseWith(suspendUserSchema, req.body);
      return { type: 'SuspendUser', userId, staffId: req.userId!, ...body, reportId: null, now: now() };
    }),
  );
  router.post(
    '/admin/users/:id/ban',
    staffOnly,
    accountAction('User banned', (req, userId) => {
      const body = parseWith(staffReasonSchema, req.body);
      return { type: 'BanUser', userId, staffId: req.userId!, reason: body.reason, reportId: null, now: now() };
    }),
  );
  router.post(
    '/admin/users/:id/reinstate',
    staffOnly,
    accountAction('User reinstated', (req, userId) => {
      const body = parseWith(staffReasonSchema, req.body);
      return { type: 'ReinstateUser', userId, staffId: req.userId!, reason: body.reason, now: now() };
    }),
  );

  return router;
}
