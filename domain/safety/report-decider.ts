import { DUPLICATE_REPORT, type ModerationAction, type ReportReason, type ReportTargetType } from '../contracts/safety';
import type { Decider } from '../shared/command-handler';
import { refuse } from '../shared/errors';
import type { ReportEvent } from './events';

/**
 * The reports about one account (`reportsAgainst-<userId>`): one open report per reporter and
 * target; the report that brings the distinct reporters within the window to the policy's count
 * also says so (ReportThresholdReached), once per crossing.
 */

interface KnownReport {
  reporterId: string;
  targetType: ReportTargetType;
  targetId: string;
  open: boolean;
  filedAt: string;
}

export interface ReportsState {
  reports: Map<string, KnownReport>;
  /** Reports resolved on this stream that it did not file (the chat's older reports). */
  resolvedElsewhere: Set<string>;
}

/** Reports from this many distinct members within this window suspend the account pending review. */
export interface AutoSuspendPolicy {
  count: number;
  windowMs: number;
}

export interface FileReport {
  type: 'FileReport';
  reportId: string;
  reporterId: string;
  targetType: ReportTargetType;
  targetId: string;
  targetUserId: string;
  reason: ReportReason;
  details: string | null;
  policy: AutoSuspendPolicy;
  now: Date;
}

export interface ResolveReport {
  type: 'ResolveReport';
  reportId: string;
  targetUserId: string;
  /** What the report is about (from the queue): a chat report from before this context is not on the stream. */
  target: { targetType: ReportTargetType; targetId: string; legacy: boolean };
  action: ModerationAction;
  days: number | null;
  reason: string;
  staffId: string;
  now: Date;
}

export type ReportCommand = FileReport | ResolveReport;

const duplicate = () => refuse.conflict(DUPLICATE_REPORT, { code: 'DUPLICATE_REPORT' });

/** Distinct reporters of reports filed within the window that ends at `now`. */
function recentReporters(state: ReportsState, now: Date, windowMs: number): Set<string> {
  const since = now.getTime() - windowMs;
  const reporters = new Set<string>();
  for (const report of state.reports.values()) if (Date.parse(report.filedAt) > since) reporters.add(report.reporterId);
  return reporters;
}

function fileReport(command: FileReport, state: ReportsState): ReportEvent[] {
  const { reportId, reporterId, targetType, targetId, targetUserId, now } = command;
  if (reporterId === targetUserId)
    throw refuse.validation('You cannot report yourself', { targetId: 'You cannot report yourself' });
  for (const report of state.reports.values())
    if (
      report.open &&
      report.reporterId === reporterId &&
      report.targetType === targetType &&
      report.targetId === targetId
    )
      throw duplicate();
  const at = now.toISOString();
  const events: ReportEvent[] = [
    {
      type: 'ReportFiled',
      data: {
        reportId,
        reporterId,
        targetType,
        targetId,
        targetUserId,
        reason: command.reason,
        details: command.details,
        filedAt: at,
      },
    },
  ];
  const before = recentReporters(state, now, command.policy.windowMs);
  const after = new Set(before).add(reporterId);
  if (before.size < command.policy.count && after.size >= command.policy.count)
    events.push({
      type: 'ReportThresholdReached',
      data: {
        targetUserId,
        reportId,
        reporterIds: [...after].sort(),
        windowHours: Math.round((command.policy.windowMs / 3_600_000) * 100) / 100,
        at,
      },
    });
  return events;
}

function resolveReport(command: ResolveReport, state: ReportsState): ReportEvent[] {
  const known = state.reports.get(command.reportId);
  if (!known && !command.target.legacy) throw refuse.notFound('Report not found');
  if ((known && !known.open) || state.resolvedElsewhere.has(command.reportId))
    throw refuse.conflict('This report is already resolved');
  const { targetType, targetId } = known ?? command.target;
  if (command.action === 'remove_content' && targetType !== 'post' && targetType !== 'message')
    throw refuse.validation('Only a post or a message can be removed', {
      action: 'Only a post or a message can be removed',
    });
  const at = command.now.toISOString();
  const { reportId, targetUserId, staffId, reason } = command;
  const events: ReportEvent[] = [
    {
      type: 'ReportResolved',
      data: { reportId, targetUserId, action: command.action, days: command.days, reason, staffId, resolvedAt: at },
    },
  ];
  if (command.action === 'remove_content')
    events.push({
      type: 'ContentRemoved',
      data: {
        targetType: targetType as 'post' | 'message',
        targetId,
        targetUserId,
        reportId,
        staffId,
        reason,
        removedAt: at,
      },
    });
  return events;
}

export const reportsDecider: Decider<ReportCommand, ReportsState, ReportEvent> = {
  initialState: { reports: new Map(), resolvedElsewhere: new Set() },
  evolve(state, event) {
    switch (event.type) {
      case 'ReportFiled': {
        const { reportId, reporterId, targetType, targetId, filedAt } = event.data;
        const reports = new Map(state.reports).set(reportId, { reporterId, targetType, targetId, open: true, filedAt });
        return { ...state, reports };
      }
      case 'ReportResolved': {
        const report = state.reports.get(event.data.reportId);
        if (!report) return { ...state, resolvedElsewhere: new Set(state.resolvedElsewhere).add(event.data.reportId) };
        return { ...state, reports: new Map(state.reports).set(event.data.reportId, { ...report, open: false }) };
      }
      default:
        return state;
    }
  },
  decide(command, state) {
    return command.type === 'FileReport' ? fileReport(command, state) : resolveReport(command, state);
  },
};
