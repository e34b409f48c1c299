import type { RecordedEvent } from '../domain/event-store/port';
import type { NotificationsReadData } from '../domain/notifications/events';
import { bulkInsert } from './engine/bulk-insert';
import type { ProjectionContext } from './engine/projector';

/** A notification row as `rowOf` makes it (the columns the batch reads, and the others). */
export interface NotificationRowIn extends Record<string, unknown> {
  id: string;
  user_id: string;
  read: boolean;
  created_at: unknown;
}

const instant = (value: unknown) => new Date(value as string).getTime();

/** Whether a read mark reaches a row, as the WHERE of the one-by-one update: the user's, unread, listed or old enough. */
function reaches(mark: NotificationsReadData, row: NotificationRowIn): boolean {
  if (row.read) return false;
  if (mark.ids) return mark.ids.includes(row.id);
  return mark.upTo !== null && instant(row.created_at) <= instant(mark.upTo);
}

/**
 * The read marks of a run on the rows stored before it, in one statement per kind of mark (a
 * mark only sets `read`, so their order does not matter). Run before the run's rows go in, so
 * it reaches only rows that were there, as the marks one by one would.
 */
async function markStoredRows({ trx, ref }: ProjectionContext, marks: NotificationsReadData[]): Promise<void> {
  const listed = marks.flatMap((mark) => (mark.ids ?? []).map((id) => [mark.userId, id]));
  if (listed.length)
    await trx.raw(
      `UPDATE ${ref('notifications')} n SET read = true FROM unnest(?::text[], ?::text[]) m(user_id, id)
        WHERE n.id = m.id AND n.user_id = m.user_id AND NOT n.read`,
      [listed.map(([userId]) => userId), listed.map(([, id]) => id)],
    );
  const upTo = marks.filter((mark) => !mark.ids && mark.upTo !== null);
  if (upTo.length)
    await trx.raw(
      `UPDATE ${ref('notifications')} n SET read = true FROM unnest(?::text[], ?::timestamptz[]) m(user_id, up_to)
        WHERE n.user_id = m.user_id AND NOT n.read AND n.created_at <= m.up_to`,
      [upTo.map((mark) => mark.userId), upTo.map((mark) => mark.upTo!)],
    );
}

/**
 * A run of notifications and read marks (no AccountDeleted) in at most three statements: new
 * rows are kept in memory (the first of an id wins, as ON CONFLICT DO NOTHING one by one), each
 * mark is applied to the kept rows before it, then to the stored rows in one update, and the
 * new rows go in by one bulk insert.
 */
export async function applyNotificationsRun(
  context: ProjectionContext,
  events: RecordedEvent[],
  rowOf: (event: RecordedEvent) => NotificationRowIn | null,
): Promise<void> {
  const rows = new Map<string, NotificationRowIn>();
  const byUser = new Map<string, NotificationRowIn[]>();
  const marks: NotificationsReadData[] = [];
  for (const event of events) {
    if (event.type === 'NotificationsRead') {
      const mark = event.data as NotificationsReadData;
      for (const row of byUser.get(mark.userId) ?? []) if (reaches(mark, row)) row.read = true;
      marks.push(mark);
      continue;
    }
    const row = rowOf(event);
    if (!row || rows.has(row.id)) continue;
    rows.set(row.id, row);
    const ofUser = byUser.get(row.user_id);
    if (ofUser) ofUser.push(row);
    else byUser.set(row.user_id, [row]);
  }
  if (marks.length) await markStoredRows(context, marks);
  await bulkInsert(context, 'notifications', [...rows.values()], { conflict: ['id'], distinct: true });
}
