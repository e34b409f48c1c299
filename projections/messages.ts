import type { Knex } from 'knex';
import { PAID_MESSAGE_LABEL, type ChatUser, type Conversation, type Message } from '../domain/contracts/messaging';
import { formatCents } from '../domain/contracts/money';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { MessageSent, MessageUnlocked } from '../domain/messaging/events';
import { REMOVED } from '../domain/privacy/personal-data';
import type { ContentRemoved } from '../domain/safety/events';
import { bulkInsert } from './engine/bulk-insert';
import type { ProjectionContext, Projector } from './engine/projector';
import type { PageRead, PageStatement } from './page-reads';
import { attachedMediaSql, attachmentViews, type AttachedMedia, type MediaLinks } from './media-access';
import { displayName, isUserId } from './users';
import { forgettingAccounts } from './engine/forgetting-accounts';

const rowOf = (data: MessageSent['data']) => ({
  id: data.messageId,
  sender_id: data.senderId,
  receiver_id: data.receiverId,
  content: data.content,
  media_url: data.mediaUrl,
  is_paid: data.priceCents !== null,
  price_cents: data.priceCents,
  is_unlocked: data.priceCents === null,
  created_at: data.sentAt,
  unlocked_at: null as string | null,
  // Uploaded media in order (jsonb: bulk inserts take the value; knex inserts take JSON text).
  media_ids: data.mediaIds?.length ? data.mediaIds : null,
});

type Row = ReturnType<typeof rowOf>;

const unlock = (table: ProjectionContext['table'], data: MessageUnlocked['data']) =>
  table('messages').where({ id: data.messageId }).update({ is_unlocked: true, unlocked_at: data.unlockedAt });

/** Ids of the messages staff removed in these events (trust and safety; posts are the posts model's). */
const removedMessageIds = (events: Array<{ type: string; data: unknown }>) =>
  events
    .filter((event) => event.type === 'ContentRemoved')
    .map((event) => event.data as ContentRemoved['data'])
    .filter((data) => data.targetType === 'message')
    .map((data) => data.targetId);

const markRemoved = (context: ProjectionContext, ids: string[]) =>
  ids.length === 0 ? undefined : context.table('messages').whereIn('id', ids).update({ removed: true });

/**
 * Issue 23: what a deleted person sent reads REMOVED, without media (as MessageSent replays once
 * their key is gone; their media items are gone too). What they received stays: it is its sender's.
 */
const forgetSender = (context: ProjectionContext, userId: string) =>
  context.table('messages').where({ sender_id: userId }).update({ content: REMOVED, media_url: null, media_ids: null });

/** Direct messages between two users, paid ones with their lock state. */
export const messagesProjector: Projector = {
  name: 'messages',
  // 4: AccountDeleted (issue 23).
  // 5: the thread's index, (sender, receiver, time) in place of (sender, time) (issue 24).
  // 6: a sender's sold messages by price, from an index alone (issue 24: a creator's stats).
  version: 6,
  tables: ['messages'],
  eventTypes: ['MessageSent', 'MessageUnlocked', 'ContentRemoved', 'AccountDeleted'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('messages', (t) => {
      t.text('id').primary();
      t.text('sender_id').notNullable();
      t.text('receiver_id').notNullable();
      t.text('content').notNullable();
      t.text('media_url');
      t.boolean('is_paid').notNullable();
      t.integer('price_cents');
      t.boolean('is_unlocked').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.timestamp('unlocked_at', { useTz: true });
      /** Ids of the uploaded media (issue 18) in order; null without. */
      t.jsonb('media_ids');
      /** Removed by staff (trust and safety): its text and media are no longer shown. */
      t.boolean('removed').notNullable().defaultTo(false);
      // A thread is read in order from its two directions without the parties' other messages;
      // its prefix serves the lookups by sender.
      t.index(['sender_id', 'receiver_id', 'created_at', 'id']);
      t.index(['receiver_id', 'created_at']);
    });
    // A creator's stats count the messages they sold per price; a few of each sender's messages.
    await db.raw(`CREATE INDEX ON "${schema}"."messages" (sender_id) INCLUDE (price_cents)
      WHERE is_paid AND is_unlocked AND receiver_id <> sender_id`);
  },
  async apply(context, event) {
    const { table } = context;
    if (event.type === 'ContentRemoved') await markRemoved(context, removedMessageIds([event]));
    else if (event.type === 'AccountDeleted') await forgetSender(context, (event.data as AccountDeletedData).userId);
    else if (event.type === 'MessageSent') {
      const row = rowOf(event.data as MessageSent['data']);
      await table('messages')
        .insert({ ...row, media_ids: row.media_ids && JSON.stringify(row.media_ids) })
        .onConflict('id')
        .ignore();
    } else await unlock(table, event.data as MessageUnlocked['data']);
  },
  // A batch is cut at each AccountDeleted (rare), which then sees the messages before it.
  applyAll: forgettingAccounts(applyMessages, forgetSender).applyAll,
};

/**
 * A batch without AccountDeleted. Sent messages go in as one bulk insert, unlocked already when
 * the batch unlocks them, then the page's other unlocks as one update: an update makes a new row
 * version, several times the cost of the insert (an unlock only ever follows its message). When
 * the insert met a stored id (a replay), which changes nothing, every unlock is updated, skipping
 * rows already so.
 */
async function applyMessages(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const rows = new Map<string, Row>();
  const unlocks = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'ContentRemoved') continue;
    if (event.type === 'MessageSent') {
      const row = rowOf(event.data as MessageSent['data']);
      if (!rows.has(row.id)) rows.set(row.id, row);
      continue;
    }
    const { messageId, unlockedAt } = event.data as MessageUnlocked['data'];
    unlocks.set(messageId, unlockedAt);
    const sent = rows.get(messageId);
    if (sent) rows.set(messageId, { ...sent, is_unlocked: true, unlocked_at: unlockedAt });
  }
  const allNew = await bulkInsert(context, 'messages', [...rows.values()], { conflict: ['id'], distinct: true });
  const pending = [...unlocks].filter(([id]) => !(allNew && rows.has(id)));
  if (pending.length > 0) await updateUnlocks(context, pending);
  // A removal only ever follows its message, so it runs after this page's inserts.
  await markRemoved(context, removedMessageIds(events));
}

function updateUnlocks(context: ProjectionContext, pending: Array<[string, string]>) {
  return context.trx.raw(
    `UPDATE ${context.ref('messages')} m SET is_unlocked = true, unlocked_at = v.at FROM unnest(?::text[], ?::timestamptz[]) v(id, at)
        WHERE m.id = v.id AND (NOT m.is_unlocked OR m.unlocked_at IS DISTINCT FROM v.at)`,
    [pending.map(([id]) => id), pending.map(([, at]) => at)],
  );
}

// Queries: conversations, threads and one message as a viewer sees them (locked for the receiver until unlocked).

interface MessageRow {
  id: string;
  sender_id: string;
  receiver_id: string;
  content: string;
  media_url: string | null;
  is_paid: boolean;
  price_cents: number | null;
  is_unlocked: boolean;
  created_at: Date;
  removed: boolean;
  /** Uploaded media in order (the media read model's items attached to the message). */
  media: AttachedMedia[];
}

/** Locked for the viewer: a paid message not yet unlocked, and the viewer is its receiver. */
const lockedFor = (row: Pick<MessageRow, 'is_paid' | 'is_unlocked' | 'receiver_id'>, viewerId: string) =>
  row.is_paid && !row.is_unlocked && row.receiver_id === viewerId;

/** What both parties see in place of a message staff removed. */
export const REMOVED_MESSAGE_TEXT = 'This message was removed by Lively moderation.';

export function messageView(row: MessageRow, viewerId: string, links: MediaLinks): Message {
  if (row.removed) {
    const { is_paid: isPaid, price_cents: price } = row;
    return {
      id: row.id,
      senderId: row.sender_id,
      receiverId: row.receiver_id,
      content: REMOVED_MESSAGE_TEXT,
      mediaUrl: null,
      isPaid,
      price: price === null ? null : formatCents(price),
      isUnlocked: row.is_unlocked,
      locked: false,
      removed: true,
      createdAt: new Date(row.created_at).toISOString(),
      media: [],
    };
  }
  const locked = lockedFor(row, viewerId);
  return {
    id: row.id,
    senderId: row.sender_id,
    receiverId: row.receiver_id,
    content: locked ? null : row.content,
    mediaUrl: locked ? null : row.media_url,
    isPaid: row.is_paid,
    price: row.price_cents === null ? null : formatCents(row.price_cents),
    isUnlocked: row.is_unlocked,
    locked,
    createdAt: new Date(row.created_at).toISOString(),
    media: attachmentViews(row.media, !locked, links),
  };
}

/** Message rows with their media (`m` is the messages alias). */
const withMedia = (db: Knex) =>
  db('messages as m').select('m.*', db.raw(`${attachedMediaSql('m.media_ids')} AS media`));

export async function chatUser(db: Knex, userId: string): Promise<ChatUser | null> {
  const row = await db('users')
    .where({ id: userId })
    .first('id', 'email', 'first_name', 'last_name', 'profile_image_url', 'is_creator');
  return row
    ? { id: row.id, name: displayName(row), profileImageUrl: row.profile_image_url, isCreator: row.is_creator }
    : null;
}

/**
 * The viewer's (`$1`) conversations, most recent first: the last message with each person (as
 * the viewer sees it: text, lock and removal) and that person's card, each row with the
 * viewer's id (a message is locked for its receiver).
 */
const CONVERSATIONS: PageStatement = {
  name: 'message-conversations',
  text: `SELECT m.content, m.is_paid, m.is_unlocked, m.receiver_id, m.removed, m.created_at,
    u.id AS other_id, u.first_name, u.last_name, u.profile_image_url, u.is_creator, $1 AS viewer_id
  FROM (
    SELECT DISTINCT ON (other) *
    FROM (SELECT CASE WHEN sender_id = $1 THEN receiver_id ELSE sender_id END AS other, * FROM messages
      WHERE sender_id = $1 OR receiver_id = $1) x
    ORDER BY other, created_at DESC, id DESC
  ) m
  JOIN users u ON u.id = m.other::uuid
  ORDER BY m.created_at DESC`,
};

interface ConversationRow {
  content: string;
  is_paid: boolean;
  is_unlocked: boolean;
  receiver_id: string;
  removed: boolean;
  created_at: Date;
  other_id: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  is_creator: boolean;
  viewer_id: string;
}

/** One row per person the viewer exchanged messages with, most recent conversation first. */
export async function conversations(read: PageRead): Promise<Conversation[]> {
  const rows = await read<ConversationRow>(CONVERSATIONS, []);
  return rows.map((row) => ({
    user: {
      id: row.other_id,
      name: displayName(row),
      profileImageUrl: row.profile_image_url,
      isCreator: row.is_creator,
    },
    lastMessage: row.removed ? REMOVED_MESSAGE_TEXT : lockedFor(row, row.viewer_id) ? PAID_MESSAGE_LABEL : row.content,
    lastMessageAt: new Date(row.created_at).toISOString(),
  }));
}

/**
 * The thread between the viewer (`$1`) and user `$2` (text), oldest first, with each message's
 * media and the viewer's id: one row per message under `$2`'s id, one row of nulls when they
 * exchanged none, no row when `$2` is no user. Each direction is read in order from the index (a
 * note to oneself only once).
 */
const THREAD: PageStatement = {
  name: 'message-thread',
  text: `SELECT u.id AS other_id, $1 AS viewer_id, m.*
  FROM users u
  LEFT JOIN LATERAL (
    SELECT m.id, m.sender_id, m.receiver_id, m.content, m.media_url, m.is_paid, m.price_cents, m.is_unlocked,
      m.created_at, m.removed, ${attachedMediaSql('m.media_ids')} AS media
    FROM (
      (SELECT * FROM messages WHERE sender_id = $1 AND receiver_id = $2::text ORDER BY created_at, id LIMIT 1000)
      UNION ALL
      (SELECT * FROM messages WHERE sender_id = $2::text AND receiver_id = $1 AND $1 <> $2::text
        ORDER BY created_at, id LIMIT 1000)
    ) m
    ORDER BY m.created_at, m.id
    LIMIT 1000
  ) m ON true
  WHERE u.id = $2::text::uuid
  ORDER BY m.created_at, m.id`,
};

/**
 * The thread between the viewer and another user, oldest first; null when `otherId` is no
 * user. One round trip: the messages page asks on every load.
 */
export async function thread(read: PageRead, otherId: string, links: MediaLinks): Promise<Message[] | null> {
  if (!isUserId(otherId)) return null;
  const rows = await read<MessageRow & { other_id: string; viewer_id: string }>(THREAD, [otherId]);
  if (rows.length === 0) return null;
  return rows.filter((row) => row.id !== null).map((row) => messageView(row, row.viewer_id, links));
}

export async function findMessage(
  db: Knex,
  viewerId: string,
  messageId: string,
  links: MediaLinks,
): Promise<Message | null> {
  const row = (await withMedia(db).where('m.id', messageId).first()) as MessageRow | undefined;
  return row && (row.sender_id === viewerId || row.receiver_id === viewerId) ? messageView(row, viewerId, links) : null;
}
