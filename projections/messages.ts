import type { MessageSent, MessageUnlocked } from '../domain/messaging/events';
import type { Projector } from './projector';

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
    if (event.type === 'MessageSent') {
      const data = event.data as MessageSent['data'];
      await table('messages')
        .insert({
          id: data.messageId,
          sender_id: data.senderId,
          receiver_id: data.receiverId,
          content: data.content,
          media_url: data.mediaUrl,
          is_paid: data.priceCents !== null,
          price_cents: data.priceCents,
          is_unlocked: data.priceCents === null,
          created_at: data.sentAt,
        })
        .onConflict('id')
        .ignore();
      return;
    }
    const data = event.data as MessageUnlocked['data'];
    await table('messages').where({ id: data.messageId }).update({ is_unlocked: true, unlocked_at: data.unlockedAt });
  },
};
