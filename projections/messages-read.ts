import type { Knex } from 'knex';
import { PAID_MESSAGE_LABEL, type ChatUser, type Conversation, type Message } from '../domain/contracts/messages';
import { formatCents } from '../domain/payouts/money';
import { displayName } from './users';

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
}

/** Locked for the viewer: a paid message not yet unlocked, and the viewer is its receiver. */
const lockedFor = (row: MessageRow, viewerId: string) => row.is_paid && !row.is_unlocked && row.receiver_id === viewerId;

export function messageView(row: MessageRow, viewerId: string): Message {
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
  };
}

export async function chatUser(db: Knex, userId: string): Promise<ChatUser | null> {
  const row = await db('users').where({ id: userId }).first('id', 'email', 'first_name', 'last_name', 'profile_image_url', 'is_creator');
  return row ? { id: row.id, name: displayName(row), profileImageUrl: row.profile_image_url, isCreator: row.is_creator } : null;
}

/** One row per person the viewer exchanged messages with, most recent conversation first. */
export async function conversations(db: Knex, viewerId: string): Promise<Conversation[]> {
  const result = await db.raw(
    `SELECT m.*, u.id AS other_id, u.email, u.first_name, u.last_name, u.profile_image_url, u.is_creator
     FROM (
       SELECT DISTINCT ON (other) *
       FROM (SELECT CASE WHEN sender_id = ? THEN receiver_id ELSE sender_id END AS other, * FROM messages WHERE sender_id = ? OR receiver_id = ?) x
       ORDER BY other, created_at DESC, id DESC
     ) m
     JOIN users u ON u.id = m.other::uuid
     ORDER BY m.created_at DESC`,
    [viewerId, viewerId, viewerId],
  );
  return (result.rows as Array<MessageRow & { other_id: string; email: string; first_name: string | null; last_name: string | null; profile_image_url: string | null; is_creator: boolean }>).map((row) => ({
    user: { id: row.other_id, name: displayName(row), profileImageUrl: row.profile_image_url, isCreator: row.is_creator },
    lastMessage: lockedFor(row, viewerId) ? PAID_MESSAGE_LABEL : row.content,
    lastMessageAt: new Date(row.created_at).toISOString(),
  }));
}

/** The thread between the viewer and another user, oldest first. */
export async function thread(db: Knex, viewerId: string, otherId: string): Promise<Message[]> {
  const rows = (await db('messages')
    .where((where) => where.where({ sender_id: viewerId, receiver_id: otherId }).orWhere({ sender_id: otherId, receiver_id: viewerId }))
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(1000)) as MessageRow[];
  return rows.map((row) => messageView(row, viewerId));
}

export async function findMessage(db: Knex, viewerId: string, messageId: string): Promise<Message | null> {
  const row = (await db('messages').where({ id: messageId }).first()) as MessageRow | undefined;
  return row && (row.sender_id === viewerId || row.receiver_id === viewerId) ? messageView(row, viewerId) : null;
}
