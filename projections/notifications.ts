import type { Knex } from 'knex';
import type { NotificationItem, NotificationKind, NotificationsPage } from '../domain/contracts/notifications';
import { formatCents } from '../domain/contracts/money';
import type {
  CreatorSubscriptionCanceled,
  CreatorSubscriptionChargeGivenBack,
  CreatorSubscriptionExpired,
  CreatorSubscriptionRefunded,
  CreatorSubscriptionRenewalDeclined,
  CreatorSubscriptionRenewed,
  CreatorSubscriptionResumed,
  CreatorSubscriptionStarted,
  CreatorSubscriptionTierChanged,
} from '../domain/creators/events';
import type { AccountExportReadyData } from '../domain/accounts/events';
import type { CryptoConversionCompletedData } from '../domain/crypto/events';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { MembershipPastDueData, MembershipRenewedData } from '../domain/membership/events';
import type { MessageSent, MessageUnlocked } from '../domain/messaging/events';
import type { NotificationsReadData } from '../domain/notifications/events';
import type {
  PayoutCancelledData,
  PayoutCompletedData,
  PayoutFailedData,
  PayoutProcessingStartedData,
} from '../domain/payouts/events';
import { deterministicId } from '../domain/shared/ids';
import type { TipGiven } from '../domain/tips/events';
import { readCheckpoint } from './engine/checkpoints';
import { forgettingAccounts } from './engine/forgetting-accounts';
import type { ProjectionContext, Projector } from './engine/projector';
import { applyNotificationsRun } from './notifications-batch';
import type { PageRead, PageStatement } from './page-reads';
import { displayName, isUserId } from './users';

/** Stands in a body for the name of the person who caused the notification, filled in when read. */
const ACTOR = '{actor}';

/** What one event tells one user. */
interface Notice {
  userId: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  /** Whose name replaces {actor} in the body. */
  actorId?: string;
}

/** Where a tip's message starts in its body. */
const TIP_MESSAGE_START = ': “';

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const dateOf = (iso: string) => day.format(new Date(iso));

const payoutNotice = (data: { creatorId: string }, title: string, body: string): Notice => ({
  userId: data.creatorId,
  kind: 'payout_status',
  title,
  body,
  link: '/payouts',
});

const subscriptionNotice = (
  data: { subscriberId: string; creatorId: string },
  kind: NotificationKind,
  title: string,
  body: string,
): Notice => ({ userId: data.subscriberId, kind, title, body, link: '/subscriptions', actorId: data.creatorId });

/**
 * The events that notify someone, each mapped to its notification. Adding a kind is one line
 * here (and the kind in domain/contracts/notifications.ts): the projector reads these event types.
 */
const NOTIFICATION_SOURCES = {
  CreatorSubscriptionStarted: (d: CreatorSubscriptionStarted['data']): Notice => ({
    userId: d.creatorId,
    kind: 'new_subscriber',
    title: 'New subscriber',
    body: `${ACTOR} subscribed to ${d.tierName}`,
    link: '/dashboard',
    actorId: d.subscriberId,
  }),
  MessageSent: (d: MessageSent['data']): Notice => ({
    userId: d.receiverId,
    kind: 'new_message',
    title: 'New message',
    body:
      d.priceCents === null
        ? `${ACTOR} sent you a message`
        : `${ACTOR} sent you a paid message ($${formatCents(d.priceCents)})`,
    link: `/messages?user=${d.senderId}`,
    actorId: d.senderId,
  }),
  MessageUnlocked: (d: MessageUnlocked['data']): Notice => ({
    userId: d.senderId,
    kind: 'message_unlocked',
    title: 'Message unlocked',
    body: `${ACTOR} unlocked your message ($${formatCents(d.priceCents)})`,
    link: `/messages?user=${d.receiverId}`,
    actorId: d.receiverId,
  }),
  TipGiven: (d: TipGiven['data']): Notice => ({
    userId: d.creatorId,
    kind: 'tip_received',
    title: 'New tip',
    body: `${ACTOR} tipped you $${formatCents(d.amountCents)}${d.message ? `${TIP_MESSAGE_START}${d.message}”` : ''}`,
    link: '/dashboard/analytics',
    actorId: d.tipperId,
  }),
  PayoutProcessingStarted: (d: PayoutProcessingStartedData) =>
    payoutNotice(d, 'Payout processing', 'Your payout is being processed'),
  PayoutCompleted: (d: PayoutCompletedData) => payoutNotice(d, 'Payout completed', 'Your payout was sent'),
  PayoutFailed: (d: PayoutFailedData) => payoutNotice(d, 'Payout failed', `Your payout failed: ${d.reason}`),
  PayoutCancelled: (d: PayoutCancelledData) => payoutNotice(d, 'Payout cancelled', 'Your payout was cancelled'),
  AccountExportReady: (d: AccountExportReadyData): Notice => ({
    userId: d.userId,
    kind: 'data_export_ready',
    title: 'Your data is ready',
    body: 'The copy of your data you asked for is ready to download',
    link: `/account?export=${d.exportId}`,
  }),
  CryptoConversionCompleted: (d: CryptoConversionCompletedData): Notice => ({
    userId: d.userId,
    kind: 'conversion_completed',
    title: 'Conversion completed',
    body: `$${formatCents(d.netCents)} was added to your balance`,
    link: '/wallet',
  }),
  MembershipRenewed: (d: MembershipRenewedData): Notice => ({
    userId: d.userId,
    kind: 'membership_renewed',
    title: 'Membership renewed',
    body: `Your membership now runs until ${dateOf(d.periodEnd)}`,
    link: '/subscribe',
  }),
  MembershipPastDue: (d: MembershipPastDueData): Notice => ({
    userId: d.userId,
    kind: 'membership_renewal_failed',
    title: 'Membership renewal failed',
    body: `We could not charge your card. Your access continues until ${dateOf(d.graceEndsAt)}`,
    link: '/subscribe',
  }),
  // A member's creator subscription over time (issue 21): {actor} is the creator.
  CreatorSubscriptionRenewed: (d: CreatorSubscriptionRenewed['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_renewed',
      'Subscription renewed',
      `Your ${d.tierName} subscription to ${ACTOR} renewed for $${formatCents(d.priceCents)} until ${dateOf(d.periodEnd)}`,
    ),
  CreatorSubscriptionRenewalDeclined: (d: CreatorSubscriptionRenewalDeclined['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_renewal_failed',
      'Subscription renewal failed',
      `${d.paidFrom ? `Your USD balance did not cover the renewal of ${ACTOR}` : `We could not charge your card for ${ACTOR}`}. ${d.nextAttemptAt ? `We will try again on ${dateOf(d.nextAttemptAt)}; your` : 'Your'} access continues until ${dateOf(d.graceEndsAt)}`,
    ),
  CreatorSubscriptionCanceled: (d: CreatorSubscriptionCanceled['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_changed',
      'Subscription canceled',
      `Your subscription to ${ACTOR} will not renew. Access until ${dateOf(d.accessUntil)}`,
    ),
  CreatorSubscriptionResumed: (d: CreatorSubscriptionResumed['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_changed',
      'Subscription resumed',
      `Your subscription to ${ACTOR} renews again on ${dateOf(d.periodEnd)}`,
    ),
  CreatorSubscriptionTierChanged: (d: CreatorSubscriptionTierChanged['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_changed',
      'Tier changed',
      `From ${dateOf(d.effectiveAt)} your subscription to ${ACTOR} renews at ${d.tierName} ($${formatCents(d.priceCents)} a month)`,
    ),
  CreatorSubscriptionExpired: (d: CreatorSubscriptionExpired['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_ended',
      'Subscription ended',
      `Your subscription to ${ACTOR} has ended${d.reason === 'unpaid' ? ': the renewal could not be charged' : ''}`,
    ),
  CreatorSubscriptionRefunded: (d: CreatorSubscriptionRefunded['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_ended',
      'Subscription refunded',
      `$${formatCents(d.amountCents)} for ${ACTOR} is on its way back to your card; access has ended`,
    ),
  CreatorSubscriptionChargeGivenBack: (d: CreatorSubscriptionChargeGivenBack['data']): Notice =>
    subscriptionNotice(
      d,
      'subscription_ended',
      'Subscription ended',
      `Your subscription to ${ACTOR} has ended: its payment was ${d.cause === 'refund' ? 'refunded' : 'charged back'}`,
    ),
} satisfies Record<string, (data: never) => Notice>;

type SourceType = keyof typeof NOTIFICATION_SOURCES;
const isSource = (type: string): type is SourceType => Object.hasOwn(NOTIFICATION_SOURCES, type);

/** A notification's id follows from the event that caused it, so a rebuild makes the same one. */
export const notificationId = (eventId: string) => deterministicId('notification', eventId);

function rowOf(event: RecordedEvent) {
  if (!isSource(event.type)) return null;
  const notice = (NOTIFICATION_SOURCES[event.type] as (data: unknown) => Notice)(event.data);
  return {
    id: notificationId(event.eventId),
    user_id: notice.userId,
    kind: notice.kind,
    title: notice.title,
    body: notice.body,
    link: notice.link,
    actor_id: notice.actorId ?? null,
    read: false,
    created_at: event.metadata.occurredAt ?? event.createdAt,
    // Where its event stands in the log: the order of the list and of the live stream.
    pos_commit: event.position.commit.toString(),
    pos_prepare: event.position.prepare.toString(),
  };
}

async function markRead({ table }: ProjectionContext, data: NotificationsReadData) {
  const unread = table('notifications').where({ user_id: data.userId, read: false });
  if (data.ids) await unread.whereIn('id', data.ids).update({ read: true });
  else if (data.upTo) await unread.where('created_at', '<=', data.upTo).update({ read: true });
}

/**
 * Issue 23: a deleted person's own notifications go. Where they are the actor, their name is
 * filled in when read ("Deleted user" then), but a tip's body quotes its message: cut, as TipGiven
 * replays without it once their key is gone.
 */
async function forget({ table, trx }: ProjectionContext, userId: string) {
  await table('notifications').where({ user_id: userId }).delete();
  await table('notifications')
    .where({ actor_id: userId, kind: 'tip_received' })
    .update({ body: trx.raw('split_part(body, ?, 1)', [TIP_MESSAGE_START]) });
}

/** Each user's notifications, derived from the events that concern them, with their read marks. */
export const notificationsProjector: Projector = {
  name: 'notifications',
  // 2: AccountDeleted (issue 23).
  version: 3,
  tables: ['notifications'],
  eventTypes: [...Object.keys(NOTIFICATION_SOURCES), 'NotificationsRead', 'AccountDeleted'],
  // A batch's read marks find a user's rows through the (user_id, …) indexes: without them each
  // batch with a mark would scan the whole table, a cost that grows with the square of the log.
  appliesThroughIndexes: true,
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('notifications', (t) => {
      t.text('id').primary();
      t.text('user_id').notNullable();
      t.text('kind').notNullable();
      t.text('title').notNullable();
      t.text('body').notNullable();
      t.text('link').notNullable();
      t.text('actor_id');
      t.boolean('read').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.decimal('pos_commit', 20, 0).notNullable();
      t.decimal('pos_prepare', 20, 0).notNullable();
      t.index(['user_id', 'pos_commit', 'pos_prepare']);
    });
    await db.raw(
      `CREATE INDEX ON "${schema}"."notifications" (user_id) WHERE NOT read`, // the badge's count
    );
  },
  async apply(context, event) {
    if (event.type === 'NotificationsRead') return markRead(context, event.data as NotificationsReadData);
    if (event.type === 'AccountDeleted') return forget(context, (event.data as AccountDeletedData).userId);
    const row = rowOf(event);
    if (row) await context.table('notifications').insert(row).onConflict('id').ignore();
  },
  // Nearly every event inserts one row (a rebuild makes hundreds of thousands): a batch's rows
  // go in by one bulk insert and its read marks in one update; a batch is cut at each
  // AccountDeleted, which goes alone in its place.
  applyAll: forgettingAccounts((context, events) => applyNotificationsRun(context, events, rowOf), forget).applyAll,
};

// Queries: a user's page (newest first), the unread count, and what is new for the live stream.

interface NotificationRow {
  id: string;
  user_id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  actor_id: string | null;
  read: boolean;
  created_at: Date | string;
  pos_commit: string;
  pos_prepare: string;
}

const cursorOf = (row: NotificationRow) => `${row.pos_commit}.${row.pos_prepare}`;
const NEWEST_FIRST = 'pos_commit DESC, pos_prepare DESC';

/** Names of the people the rows name, in one lookup. */
async function actorNames(db: Knex, rows: NotificationRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((row) => row.actor_id).filter(isUserId))];
  if (ids.length === 0) return new Map();
  const users = await db('users').whereIn('id', ids).select('id', 'first_name', 'last_name');
  return new Map(users.map((user) => [user.id, displayName(user)]));
}

export function notificationView(row: NotificationRow, names: Map<string, string>): NotificationItem {
  const actor = (row.actor_id && names.get(row.actor_id)) || 'Someone';
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body.replaceAll(ACTOR, actor),
    link: row.link,
    read: row.read,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function unreadNotificationCount(db: Knex, userId: string): Promise<number> {
  const row = await db('notifications')
    .where({ user_id: userId, read: false })
    .count<{ count: string }>('* as count')
    .first();
  return Number(row?.count ?? 0);
}

/** Before every position: numeric(20,0) has at most 20 digits (the cursor of a first page). */
const BEFORE_ALL = ['100000000000000000000', '0'];

/**
 * The viewer's (`$1`) unread count on every row, beside their page: `$4` notifications before
 * (`$2`, `$3`), newest first, each with the users row of its actor when that is a user id (as
 * `isUserId`: users.id is a uuid); one row of nulls but the count without any.
 */
const NOTIFICATIONS_PAGE: PageStatement = {
  name: 'notifications-page',
  text: `SELECT u.unread, n.id, n.kind, n.title, n.body, n.link, n.actor_id, n.read, n.created_at,
    n.pos_commit, n.pos_prepare, a.id AS actor_user_id, a.first_name AS actor_first_name, a.last_name AS actor_last_name
  FROM (SELECT count(*) AS unread FROM notifications WHERE user_id = $1 AND NOT read) u
  LEFT JOIN (SELECT * FROM notifications WHERE user_id = $1 AND (pos_commit, pos_prepare) < ($2::numeric, $3::numeric)
    ORDER BY ${NEWEST_FIRST} LIMIT $4) n ON true
  LEFT JOIN users a ON a.id = CASE WHEN pg_input_is_valid(n.actor_id, 'uuid') THEN n.actor_id::uuid END
  ORDER BY n.pos_commit DESC, n.pos_prepare DESC`,
};

interface PageRow extends NotificationRow {
  unread: string;
  actor_user_id: string | null;
  actor_first_name: string | null;
  actor_last_name: string | null;
}

/** Names of the actors the page's rows were joined with (as `actorNames` looks them up). */
function joinedActorNames(rows: PageRow[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const row of rows)
    if (row.actor_id && row.actor_user_id)
      names.set(row.actor_id, displayName({ first_name: row.actor_first_name, last_name: row.actor_last_name }));
  return names;
}

/**
 * One page of the viewer's notifications, newest first, after the keyset `cursor` of the page
 * before. One round trip: the top bar asks on every page load.
 */
export async function notificationsPage(
  read: PageRead,
  options: { cursor?: string; limit: number },
): Promise<NotificationsPage> {
  const [commit, prepare] = options.cursor ? options.cursor.split('.') : BEFORE_ALL;
  const found = await read<PageRow>(NOTIFICATIONS_PAGE, [commit, prepare, options.limit + 1]);
  const rows = found.filter((row) => row.id !== null);
  const page = rows.slice(0, options.limit);
  const names = joinedActorNames(page);
  return {
    items: page.map((row) => notificationView(row, names)),
    unreadCount: Number(found[0]?.unread ?? 0),
    nextCursor: rows.length > options.limit ? cursorOf(page[page.length - 1]) : null,
  };
}

/** Of these ids, the ones that are the user's and still unread. */
export async function unreadNotificationIds(db: Knex, userId: string, ids: string[]): Promise<string[]> {
  const rows = await db('notifications').where({ user_id: userId, read: false }).whereIn('id', ids).select('id');
  return rows.map((row) => row.id);
}

/** Where the live stream of a user starts: after their newest notification (null: they have none). */
export async function newestNotificationCursor(db: Knex, userId: string): Promise<string | null> {
  const row = await db('notifications').where({ user_id: userId }).orderByRaw(NEWEST_FIRST).first<NotificationRow>();
  return row ? cursorOf(row) : null;
}

export interface NotificationWatch {
  userId: string;
  /** The newest notification already sent (a cursor), or null. */
  after: string | null;
}

export interface NotificationNews {
  unreadCount: number;
  /** Newest first; empty when nothing arrived. */
  items: NotificationItem[];
  /** The cursor of the newest notification now sent (unchanged when none arrived). */
  after: string | null;
}

const MAX_NEWS = 20;

/**
 * For many watchers at once (one per open stream), in one query: each one's unread count and
 * the notifications that arrived after what it was last sent.
 */
export async function notificationNews(db: Knex, watches: NotificationWatch[]): Promise<NotificationNews[]> {
  if (watches.length === 0) return [];
  const bound = (index: 0 | 1) => watches.map((watch) => (watch.after ? watch.after.split('.')[index] : '-1'));
  const { rows } = await db.raw(
    `SELECT w.ord,
       (SELECT count(*) FROM notifications n WHERE n.user_id = w.user_id AND NOT n.read)::int AS unread,
       COALESCE((SELECT json_agg(x) FROM (
         SELECT n.id, n.kind, n.title, n.body, n.link, n.actor_id, n.read, n.created_at,
           n.pos_commit::text AS pos_commit, n.pos_prepare::text AS pos_prepare FROM notifications n
         WHERE n.user_id = w.user_id AND (n.pos_commit, n.pos_prepare) > (w.after_commit, w.after_prepare)
         ORDER BY n.pos_commit DESC, n.pos_prepare DESC LIMIT ${MAX_NEWS}) x), '[]'::json) AS items
     FROM unnest(?::text[], ?::numeric[], ?::numeric[]) WITH ORDINALITY AS w(user_id, after_commit, after_prepare, ord)
     ORDER BY w.ord`,
    [watches.map((watch) => watch.userId), bound(0), bound(1)],
  );
  const found = rows as Array<{ unread: number; items: NotificationRow[] }>;
  const names = await actorNames(
    db,
    found.flatMap((row) => row.items),
  );
  return found.map((row, index) => ({
    unreadCount: row.unread,
    items: row.items.map((item) => notificationView(item, names)),
    after: row.items[0] ? cursorOf(row.items[0]) : watches[index].after,
  }));
}

/** How far the notifications read model has applied the log ("commit.prepare"); moves with every event. */
export async function notificationsProgress(db: Knex): Promise<string | null> {
  const row = await readCheckpoint(db, notificationsProjector.name);
  return row ? `${row.commit_position}.${row.prepare_position}` : null;
}
