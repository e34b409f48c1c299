import type { MessageSent, MessageUnlocked } from '../domain/messaging/events';
import type { ProjectionContext, Projector } from './projector';

type Row = ReturnType<typeof rowOf>;

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
});

async function insertRows(table: ProjectionContext['table'], rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 2000) await table('messages').insert(rows.slice(i, i + 2000)).onConflict('id').ignore();
}

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
    if (event.type === 'MessageSent') await insertRows(table, [rowOf(event.data as MessageSent['data'])]);
    else await unlock(table, event.data as MessageUnlocked['data']);
  },
  // Sent messages go in as multi-row inserts, then the page's unlocks as one update (an unlock
  // only ever follows its message, and an insert of a known id changes nothing).
  async applyAll({ table, trx, ref }, events) {
    const rows: Row[] = [];
    const unlocks = new Map<string, string>();
    for (const event of events) {
      if (event.type === 'MessageSent') rows.push(rowOf(event.data as MessageSent['data']));
      else unlocks.set((event.data as MessageUnlocked['data']).messageId, (event.data as MessageUnlocked['data']).unlockedAt);
    }
    await insertRows(table, rows);
    const values = [...unlocks];
    for (let i = 0; i < values.length; i += 2000) {
      const chunk = values.slice(i, i + 2000);
      await trx.raw(
        `UPDATE ${ref('messages')} m SET is_unlocked = true, unlocked_at = v.at FROM (VALUES ${chunk.map(() => '(?::text, ?::timestamptz)').join(', ')}) v(id, at) WHERE m.id = v.id`,
        chunk.flat(),
      );
    }
  },
};
