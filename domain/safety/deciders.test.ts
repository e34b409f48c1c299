import { DUPLICATE_REPORT } from '../contracts/safety';
import { deciderSpec } from '../shared/testing/decider-spec';
import { blockListDecider } from './block-decider';
import type { ReportEvent, StandingEvent } from './events';
import { reportsDecider, type FileReport } from './report-decider';
import { standingDecider, standingAt } from './standing-decider';

const now = new Date('2026-01-01T10:00:00Z');
const hours = (h: number) => new Date(now.getTime() + h * 3_600_000);
const blocks = deciderSpec(blockListDecider);
const reports = deciderSpec(reportsDecider);
const standing = deciderSpec(standingDecider);

describe('block list decider', () => {
  const block = { type: 'BlockUser' as const, userId: 'a', blockedId: 'b', reason: null, now };
  const blocked = {
    type: 'UserBlocked' as const,
    data: { blockerId: 'a', blockedId: 'b', reason: null, blockedAt: now.toISOString() },
  };

  it('blocks once, never oneself, and unblocks only a block', () => {
    blocks.given().when(block).then([blocked]);
    blocks.given([blocked]).when(block).thenNothing();
    blocks
      .given()
      .when({ ...block, blockedId: 'a' })
      .thenThrows('You cannot block yourself');
    blocks.given().when({ type: 'UnblockUser', userId: 'a', blockedId: 'b', now }).thenThrows({ kind: 'not_found' });
    blocks
      .given([blocked])
      .when({ type: 'UnblockUser', userId: 'a', blockedId: 'b', now })
      .then([{ type: 'UserUnblocked', data: { blockerId: 'a', blockedId: 'b', unblockedAt: now.toISOString() } }]);
  });

  it("counts the chat's older blocks as blocks", () => {
    const legacy = {
      type: 'ChatUserBlocked' as const,
      data: { blockerId: 'a', blockedId: 'b', reason: 'x', blockedAt: now.toISOString() },
    };
    blocks.given([legacy]).when(block).thenNothing();
    blocks
      .given([legacy])
      .when({ type: 'UnblockUser', userId: 'a', blockedId: 'b', now })
      .thenMatch([{ type: 'UserUnblocked' }]);
  });
});

describe('reports decider', () => {
  const policy = { count: 3, windowMs: 24 * 3_600_000 };
  const file = (
    reporterId: string,
    at: Date,
    targetId = 't',
    reportId = `r-${reporterId}-${at.getTime()}`,
  ): FileReport => ({
    type: 'FileReport',
    reportId,
    reporterId,
    targetType: 'user',
    targetId,
    targetUserId: 't',
    reason: 'spam',
    details: null,
    policy,
    now: at,
  });
  const filed = (command: FileReport): ReportEvent[] => reports.given().when(command).events.slice(0, 1);

  it('refuses a second open report of the same target by the same member, and self-reports', () => {
    const first = filed(file('a', now));
    reports
      .given(first)
      .when(file('a', hours(1)))
      .thenThrows({ kind: 'conflict', message: DUPLICATE_REPORT });
    reports
      .given(first)
      .when({ ...file('a', hours(1)), targetType: 'post', targetId: 'p1' })
      .thenMatch([{ type: 'ReportFiled' }]);
    reports.given().when(file('t', now)).thenThrows('You cannot report yourself');
  });

  it('a resolved report can be reported again', () => {
    const first = filed(file('a', now));
    const resolve = {
      type: 'ResolveReport' as const,
      reportId: (first[0].data as { reportId: string }).reportId,
      targetUserId: 't',
      target: { targetType: 'user' as const, targetId: 't', legacy: false },
      action: 'dismiss' as const,
      days: null,
      reason: 'No issue',
      staffId: 's',
      now,
    };
    const resolved = reports
      .given(first)
      .when(resolve)
      .then([
        {
          type: 'ReportResolved',
          data: {
            reportId: resolve.reportId,
            targetUserId: 't',
            action: 'dismiss',
            days: null,
            reason: 'No issue',
            staffId: 's',
            resolvedAt: now.toISOString(),
          },
        },
      ]);
    reports
      .given([...first, ...resolved])
      .when(resolve)
      .thenThrows('This report is already resolved');
    reports
      .given([...first, ...resolved])
      .when(file('a', hours(1)))
      .thenMatch([{ type: 'ReportFiled' }]);
    reports
      .given(first)
      .when({ ...resolve, action: 'remove_content' })
      .thenThrows('Only a post or a message can be removed');
    reports
      .given()
      .when({ ...resolve, reportId: 'nope' })
      .thenThrows({ kind: 'not_found' });
  });

  it('says so once when distinct reporters within the window reach the count, not for one reporter many times', () => {
    const events = [...filed(file('a', now)), ...filed(file('a', hours(1), 'p', 'r2')), ...filed(file('b', hours(2)))];
    // Three reports, two reporters: below the count.
    expect(reports.given(events).state.reports.size).toBe(3);
    const third = reports.given(events).when(file('c', hours(3))).events;
    expect(third.map((e) => e.type)).toEqual(['ReportFiled', 'ReportThresholdReached']);
    expect(third[1].data).toMatchObject({ targetUserId: 't', reporterIds: ['a', 'b', 'c'], windowHours: 24 });
    // A fourth reporter crosses nothing new.
    reports
      .given([...events, ...third])
      .when(file('d', hours(4)))
      .thenMatch([{ type: 'ReportFiled' }]);
    // Reports older than the window do not count.
    reports
      .given(events)
      .when(file('c', hours(25)))
      .thenMatch([{ type: 'ReportFiled' }]);
  });
});

describe('standing decider', () => {
  const staff = { userId: 'u', staffId: 's', reason: 'Rules', now };
  const suspended = standing.given().when({ type: 'SuspendUser', ...staff, days: 3, reportId: null })
    .events as StandingEvent[];

  it('suspends for N days, after which the account is active again', () => {
    expect(suspended[0].data).toMatchObject({
      userId: 'u',
      staffId: 's',
      until: hours(72).toISOString(),
      automatic: false,
    });
    const state = standing.fold(suspended);
    expect(standingAt(state, hours(71)).status).toBe('suspended');
    expect(standingAt(state, hours(72))).toEqual({ status: 'active', suspendedUntil: null, pendingReview: false });
    standing
      .given(suspended)
      .when({ type: 'ReinstateUser', ...staff, now: hours(73) })
      .thenThrows('This account is not suspended or banned');
  });

  it('bans once, refuses a suspension of a banned account, reinstates, and never acts on oneself', () => {
    const banned = standing.given().when({ type: 'BanUser', ...staff, reportId: null }).events;
    standing
      .given(banned)
      .when({ type: 'BanUser', ...staff, reportId: null })
      .thenNothing();
    standing
      .given(banned)
      .when({ type: 'SuspendUser', ...staff, days: 1, reportId: null })
      .thenThrows({ kind: 'conflict' });
    standing
      .given(banned)
      .when({ type: 'ReinstateUser', ...staff })
      .thenMatch([{ type: 'UserReinstated', data: { staffId: 's' } }]);
    standing
      .given()
      .when({ type: 'BanUser', ...staff, staffId: 'u', reportId: null })
      .thenThrows({ kind: 'forbidden' });
  });

  it('suspends automatically only an active account, pending review', () => {
    const auto = { type: 'SuspendAutomatically' as const, userId: 'u', reason: 'Reported', reportId: 'r', now };
    const events = standing
      .given()
      .when(auto)
      .thenMatch([{ type: 'UserSuspended', data: { staffId: null, until: null, automatic: true, reportId: 'r' } }]);
    expect(standingAt(standing.fold(events), hours(1000))).toEqual({
      status: 'suspended',
      suspendedUntil: null,
      pendingReview: true,
    });
    standing.given(events).when(auto).thenNothing();
    standing.given(suspended).when(auto).thenNothing();
  });
});
