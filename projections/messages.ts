import type { MessageSent, MessageUnlocked } from '../domain/messaging/events';
import { bulkInsert } from './engine/bulk-insert';
import type { ProjectionContext, Projector } from './engine/projector';

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
});

type Row = ReturnType<typeof rowOf>;

const unlock = (table: ProjectionContext['table'], data: MessageUnlocked['data']) =>
  table('messages').where({ id: data.messageId }).update({ is_unlocked: true, unlocked_at: data.unlockedAt });

/** Direct messages between two users, paid ones with their lock state. */
export const messagesProjector: Projector = {
  name: 'messages',
  version: 1,
  tables: ['messages'],
  eventTypes: ['MessageSent', 'MessageUnlocked'],
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
      t.index(['sender_id', 'created_at']);
      t.index(['receiver_id', 'created_at']);
    });
  },
  async apply({ table }, event) {
    if (event.type === 'MessageSent') await table('messages').insert(rowOf(event.data as MessageSent['data'])).onConflict('id').ignore();
    else await unlock(table, event.data as MessageUnlocked['data']);
  },
  // Sent messages go in as one bulk insert, unlocked already when the batch unlocks them, then
  // the page's other unlocks as one update: an update makes a new row version, several times
  // the cost of the insert (an unlock only ever follows its message). When the insert met a
  // stored id (a replay), which changes nothing, every unlock is updated, skipping rows already so.
  async applyAll(context, events) {
    const rows = new Map<string, Row>();
    const unlocks = new Map<string, string>();
    for (const event of events) {
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
    if (pending.length === 0) return;
    await context.trx.raw(
      `UPDATE ${context.ref('messages')} m SET is_unlocked = true, unlocked_at = v.at FROM unnest(?::text[], ?::timestamptz[]) v(id, at)
        WHERE m.id = v.id AND (NOT m.is_unlocked OR m.unlocked_at IS DISTINCT FROM v.at)`,
      [pending.map(([id]) => id), pending.map(([, at]) => at)],
    );
  },
};
