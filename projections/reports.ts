import type { Knex } from 'knex';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { ChatSessionReported } from '../domain/chat/events';
import type {
  AccountAction,
  AccountActionEntry,
  ModerationAction,
  ModerationPage,
  ModerationQuery,
  ModerationReport,
  PersonRef,
  ReportContext,
  ReportTargetType,
} from '../domain/contracts/safety';
import type { RecordedEvent } from '../domain/event-store/port';
import type {
  ContentRemoved,
  ReportFiled,
  ReportResolved,
  UserBanned,
  UserReinstated,
  UserSuspended,
  UserWarned,
} from '../domain/safety/events';
import type { Projector } from './engine/projector';
import { decodeCursor, encodeCursor } from './posts';
import { displayName, standingOf } from './users';

/**
 * The moderation queue: `reports` (every report, open or resolved, with its resolution) and
 * `moderation_actions` (what was done to each account: the target's last actions). The chat's
 * older `ChatSessionReported` events are reports too (reason `other`, their text as details).
 */
export const reportsProjector: Projector = {
  name: 'reports',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['reports', 'moderation_actions'],
  eventTypes: [
    'ReportFiled',
    'ChatSessionReported',
    'ReportResolved',
    'ContentRemoved',
    'UserWarned',
    'UserSuspended',
    'UserBanned',
    'UserReinstated',
    'AccountDeleted',
  ],
  async createTables(db: Knex, schema: string) {
    await db.schema.withSchema(schema).createTable('reports', (t) => {
      t.uuid('id').primary();
      t.text('reporter_id').notNullable();
      t.text('target_type').notNullable();
      t.text('target_id').notNullable();
      t.text('target_user_id').notNullable().index();
      t.text('reason').notNullable();
      t.text('details');
      t.text('status').notNullable();
      /** Filed through the chat's older report route (not on a reports stream). */
      t.boolean('legacy').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.text('resolution_action');
      t.text('resolution_reason');
      t.integer('resolution_days');
      t.text('resolved_by');
      t.timestamp('resolved_at', { useTz: true });
      t.index(['status', 'created_at', 'id']);
      t.index(['reporter_id', 'target_type', 'target_id']);
    });
    await db.schema.withSchema(schema).createTable('moderation_actions', (t) => {
      t.text('event_id').primary();
      t.text('user_id').notNullable();
      t.text('action').notNullable();
      t.text('reason').notNullable();
      t.text('staff_id');
      t.integer('days');
      /** The post or message removed (remove_content). */
      t.text('target_id');
      t.timestamp('at', { useTz: true }).notNullable();
      t.index(['user_id', 'at']);
    });
  },
  async apply({ table }, event) {
    if (event.type === 'AccountDeleted') {
      // Issue 23: what a deleted reporter wrote goes (ReportFiled replays it as null once their key is gone).
      const { userId } = event.data as AccountDeletedData;
      await table('reports').where({ reporter_id: userId }).update({ details: null });
      return;
    }
    const report = reportRow(event);
    if (report) {
      await table('reports').insert(report).onConflict('id').ignore();
      return;
    }
    if (event.type === 'ReportResolved') {
      const d = (event as unknown as ReportResolved).data;
      await table('reports').where({ id: d.reportId }).update({
        status: 'resolved',
        resolution_action: d.action,
        resolution_reason: d.reason,
        resolution_days: d.days,
        resolved_by: d.staffId,
        resolved_at: d.resolvedAt,
      });
      return;
    }
    await table('moderation_actions').insert(actionRow(event)).onConflict('event_id').ignore();
  },
};

function reportRow(event: RecordedEvent) {
  if (event.type === 'ReportFiled') {
    const d = (event as unknown as ReportFiled).data;
    return {
      id: d.reportId,
      reporter_id: d.reporterId,
      target_type: d.targetType,
      target_id: d.targetId,
      target_user_id: d.targetUserId,
      reason: d.reason,
      details: d.details,
      status: 'open',
      created_at: d.filedAt,
    };
  }
  if (event.type === 'ChatSessionReported') {
    const d = (event as unknown as ChatSessionReported).data;
    return {
      id: event.eventId,
      reporter_id: d.reporterId,
      target_type: 'chat_session',
      target_id: d.roomId,
      target_user_id: d.reportedUserId,
      reason: 'other',
      details: d.reason,
      status: 'open',
      legacy: true,
      created_at: d.reportedAt,
    };
  }
  return null;
}

function actionRow(event: RecordedEvent) {
  const base = {
    event_id: event.eventId,
    staff_id: null as string | null,
    days: null as number | null,
    target_id: null as string | null,
  };
  switch (event.type) {
    case 'ContentRemoved': {
      const d = (event as unknown as ContentRemoved).data;
      const row = { user_id: d.targetUserId, action: 'remove_content', reason: d.reason, at: d.removedAt };
      return { ...base, ...row, staff_id: d.staffId, target_id: d.targetId };
    }
    case 'UserSuspended': {
      const d = (event as unknown as UserSuspended).data;
      const action = d.automatic ? 'auto_suspend' : 'suspend';
      return { ...base, user_id: d.userId, action, reason: d.reason, staff_id: d.staffId, days: d.days, at: d.at };
    }
    default: {
      const d = (event as unknown as UserWarned | UserBanned | UserReinstated).data;
      const action = ({ UserWarned: 'warn', UserBanned: 'ban', UserReinstated: 'reinstate' } as const)[
        event.type as 'UserWarned' | 'UserBanned' | 'UserReinstated'
      ];
      return { ...base, user_id: d.userId, action, reason: d.reason, staff_id: d.staffId, at: d.at };
    }
  }
}

// ---- Queries ----

/** Whether the member has an open report of this target (also the chat's older ones). */
export async function hasOpenReport(db: Knex, reporterId: string, targetType: ReportTargetType, targetId: string) {
  const row = await db('reports')
    .where({ reporter_id: reporterId, target_type: targetType, target_id: targetId, status: 'open' })
    .first('id');
  return Boolean(row);
}

/** What resolving a report needs to know of it; null when unknown. */
export async function reportToResolve(db: Knex, reportId: string) {
  const row = await db('reports').where({ id: reportId }).first();
  if (!row) return null;
  return {
    id: row.id as string,
    targetType: row.target_type as ReportTargetType,
    targetId: row.target_id as string,
    targetUserId: row.target_user_id as string,
    legacy: row.legacy as boolean,
  };
}

const QUEUE_SQL = `
SELECT r.*,
  coalesce(rp.display_name, '') AS reporter_display, ru.first_name AS reporter_first, ru.last_name AS reporter_last,
  coalesce(tp.display_name, '') AS target_display, tu.first_name AS target_first, tu.last_name AS target_last,
  tu.standing, tu.suspended_until, tu.pending_review,
  su.first_name AS staff_first, su.last_name AS staff_last,
  (SELECT count(*)::int FROM reports e WHERE e.target_user_id = r.target_user_id AND (e.created_at, e.id) < (r.created_at, r.id)) AS earlier_reports,
  EXISTS (SELECT 1 FROM moderation_actions a WHERE a.action = 'remove_content' AND a.target_id = r.target_id) AS removed,
  p.title AS post_title, p.content AS post_content, p.created_at AS post_created_at,
  m.content AS message_content, m.created_at AS message_sent_at, m.receiver_id AS message_receiver_id,
  mu.first_name AS receiver_first, mu.last_name AS receiver_last,
  cs.user1_id, cs.user2_id, cs.mode AS chat_mode, cs.started_at AS chat_started_at, cs.ended_at AS chat_ended_at,
  cs.duration_seconds AS chat_duration,
  coalesce(c1p.display_name, '') AS user1_display, c1.first_name AS user1_first, c1.last_name AS user1_last,
  coalesce(c2p.display_name, '') AS user2_display, c2.first_name AS user2_first, c2.last_name AS user2_last
FROM reports r
LEFT JOIN users ru ON ru.id = r.reporter_id::uuid
LEFT JOIN user_profiles rp ON rp.user_id = r.reporter_id
LEFT JOIN users tu ON tu.id = r.target_user_id::uuid
LEFT JOIN user_profiles tp ON tp.user_id = r.target_user_id
LEFT JOIN users su ON su.id = r.resolved_by::uuid
LEFT JOIN posts p ON r.target_type = 'post' AND p.id = r.target_id
LEFT JOIN messages m ON r.target_type = 'message' AND m.id = r.target_id
LEFT JOIN users mu ON mu.id = m.receiver_id::uuid
LEFT JOIN chat_sessions cs ON r.target_type = 'chat_session' AND cs.room_id = r.target_id
LEFT JOIN users c1 ON c1.id = cs.user1_id::uuid
LEFT JOIN user_profiles c1p ON c1p.user_id = cs.user1_id
LEFT JOIN users c2 ON c2.id = cs.user2_id::uuid
LEFT JOIN user_profiles c2p ON c2p.user_id = cs.user2_id`;

type QueueRow = Record<string, unknown> & {
  id: string;
  standing: string | null;
  suspended_until: Date | null;
  pending_review: boolean | null;
  created_at: Date;
  target_user_id: string;
};

const person = (id: string, display: unknown, first: unknown, last: unknown): PersonRef => ({
  id,
  name: (display as string) || displayName({ first_name: first as string | null, last_name: last as string | null }),
});
const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);

function contextOf(row: QueueRow): ReportContext {
  switch (row.target_type) {
    case 'user':
      return { kind: 'user' };
    case 'post':
      if (row.post_content === null) return { kind: 'missing' };
      return {
        kind: 'post',
        title: row.post_title as string,
        content: row.post_content as string,
        createdAt: iso(row.post_created_at)!,
        removed: row.removed as boolean,
      };
    case 'message':
      if (row.message_content === null) return { kind: 'missing' };
      return {
        kind: 'message',
        content: row.message_content as string,
        sentAt: iso(row.message_sent_at)!,
        recipient: person(row.message_receiver_id as string, '', row.receiver_first, row.receiver_last),
        removed: row.removed as boolean,
      };
    default:
      if (row.user1_id === null) return { kind: 'missing' };
      return {
        kind: 'chat_session',
        participants: [
          person(row.user1_id as string, row.user1_display, row.user1_first, row.user1_last),
          person(row.user2_id as string, row.user2_display, row.user2_first, row.user2_last),
        ],
        mode: row.chat_mode as 'standard' | 'random',
        startedAt: iso(row.chat_started_at)!,
        endedAt: iso(row.chat_ended_at),
        durationSeconds: (row.chat_duration as number | null) ?? null,
      };
  }
}

function reportView(row: QueueRow, actions: AccountActionEntry[], now: Date): ModerationReport {
  return {
    id: row.id,
    status: row.status as ModerationReport['status'],
    targetType: row.target_type as ReportTargetType,
    targetId: row.target_id as string,
    reason: row.reason as ModerationReport['reason'],
    details: (row.details as string | null) ?? null,
    createdAt: iso(row.created_at)!,
    reporter: person(row.reporter_id as string, row.reporter_display, row.reporter_first, row.reporter_last),
    targetUser: {
      ...person(row.target_user_id, row.target_display, row.target_first, row.target_last),
      standing: standingOf(row, now),
      earlierReports: row.earlier_reports as number,
      lastActions: actions,
    },
    context: contextOf(row),
    resolution: row.resolved_at
      ? {
          action: row.resolution_action as ModerationAction,
          reason: row.resolution_reason as string,
          days: (row.resolution_days as number | null) ?? null,
          staff: person(row.resolved_by as string, '', row.staff_first, row.staff_last),
          resolvedAt: iso(row.resolved_at)!,
        }
      : null,
  };
}

const LAST_ACTIONS = 5;

/** The last actions on each of these accounts, newest first. */
async function lastActionsOf(db: Knex, userIds: string[]): Promise<Map<string, AccountActionEntry[]>> {
  const byUser = new Map<string, AccountActionEntry[]>();
  if (userIds.length === 0) return byUser;
  const { rows } = await db.raw(
    `SELECT a.*, u.first_name, u.last_name FROM (
       SELECT *, row_number() OVER (PARTITION BY user_id ORDER BY at DESC, event_id) AS n
       FROM moderation_actions WHERE user_id = ANY(?)) a
     LEFT JOIN users u ON u.id = a.staff_id::uuid
     WHERE a.n <= ? ORDER BY a.at DESC, a.event_id`,
    [userIds, LAST_ACTIONS],
  );
  for (const row of rows) {
    const list = byUser.get(row.user_id) ?? [];
    list.push({
      action: row.action as AccountAction,
      reason: row.reason,
      staff: row.staff_id ? person(row.staff_id, '', row.first_name, row.last_name) : null,
      days: row.days,
      at: iso(row.at)!,
    });
    byUser.set(row.user_id, list);
  }
  return byUser;
}

async function views(db: Knex, rows: QueueRow[], now: Date): Promise<ModerationReport[]> {
  const actions = await lastActionsOf(db, [...new Set(rows.map((r) => r.target_user_id))]);
  return rows.map((row) => reportView(row, actions.get(row.target_user_id) ?? [], now));
}

/** The moderation queue, newest first, filtered by status and target type, keyset-paginated. */
export async function moderationPage(db: Knex, query: ModerationQuery, now: Date): Promise<ModerationPage> {
  const where: string[] = [];
  const values: Knex.RawBinding[] = [];
  const filter = (condition: string, ...bindings: Knex.RawBinding[]) => {
    where.push(condition);
    values.push(...bindings);
  };
  if (query.status) filter('r.status = ?', query.status);
  if (query.targetType) filter('r.target_type = ?', query.targetType);
  const cursor = decodeCursor(query.cursor);
  if (cursor) filter('(r.created_at, r.id::text) < (?::timestamptz, ?)', cursor.at, cursor.id);
  const sql = `${QUEUE_SQL} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY r.created_at DESC, r.id DESC LIMIT ?`;
  const { rows } = await db.raw(sql, [...values, query.limit + 1]);
  const page = (rows as QueueRow[]).slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    reports: await views(db, page, now),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ at: iso(last.created_at)!, id: last.id }) : null,
  };
}

/** One report as the queue shows it; null when unknown. */
export async function findModerationReport(db: Knex, reportId: string, now: Date): Promise<ModerationReport | null> {
  const { rows } = await db.raw(`${QUEUE_SQL} WHERE r.id = ?`, [reportId]);
  return rows.length ? (await views(db, rows, now))[0] : null;
}

/** Who wrote a post (removed or hidden ones too: they can still be reported); null when unknown. */
export async function postAuthor(db: Knex, postId: string): Promise<string | null> {
  return (await db('posts').where({ id: postId }).first('creator_id'))?.creator_id ?? null;
}

/** Who sent a message, when `partyId` is one of its two parties; null otherwise. */
export async function messageSender(db: Knex, messageId: string, partyId: string): Promise<string | null> {
  const row = await db('messages').where({ id: messageId }).first('sender_id', 'receiver_id');
  return row && (row.sender_id === partyId || row.receiver_id === partyId) ? row.sender_id : null;
}
