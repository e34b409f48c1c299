import { z } from 'zod';

/** HTTP payloads of in-app notifications (the top bar's bell), shared by API and web. */

/** What a notification is about; the bell picks its icon by kind. */
export type NotificationKind =
  | 'new_subscriber'
  | 'new_message'
  | 'message_unlocked'
  | 'tip_received'
  | 'payout_status'
  | 'conversion_completed'
  | 'membership_renewed'
  | 'membership_renewal_failed'
  | 'subscription_renewed'
  | 'subscription_renewal_failed'
  | 'subscription_changed'
  | 'subscription_ended'
  | 'data_export_ready';

export interface NotificationItem {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  /** An in-app path to open on click, e.g. `/messages?user=<id>`. */
  link: string;
  read: boolean;
  createdAt: string;
}

export interface NotificationsPage {
  items: NotificationItem[];
  unreadCount: number;
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

/** The answer of POST /api/notifications/read. */
export interface NotificationsReadResult {
  unreadCount: number;
}

/** One server-sent `notifications` event: the unread count and what arrived since the last one. */
export interface NotificationsPush {
  unreadCount: number;
  items: NotificationItem[];
}

export const NOTIFICATIONS_PAGE_SIZE = 20;
const MAX_IDS = 100;

/** Keyset cursor: the position of the last item of a page in the event log, `commit.prepare`. */
const CURSOR = /^\d{1,20}\.\d{1,20}$/;

export const notificationsQuerySchema = z.object({
  cursor: z.string().regex(CURSOR, 'Cursor is not valid').optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be between 1 and 50')
    .max(50, 'Limit must be between 1 and 50')
    .optional()
    .default(NOTIFICATIONS_PAGE_SIZE),
});

const notificationId = z.uuid({ error: 'Each id must be a notification id' });

/** No `ids`: mark every notification up to now read. */
export const markNotificationsReadSchema = z.strictObject(
  {
    ids: z
      .array(notificationId, { error: 'ids must be a list of notification ids' })
      .min(1, 'ids must not be empty; leave it out to mark all read')
      .max(MAX_IDS, `At most ${MAX_IDS} ids at once`)
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'Only ids may be given' : undefined) },
);
