import type { Knex } from 'knex';
import type { ChatUserBlocked } from '../domain/chat/events';
import type { Projector } from './engine/projector';

/** user_blocks (SPEC §3): who blocked whom, and why. */
export const chatBlocksProjector: Projector = {
  name: 'user_blocks',
  version: 1,
  tables: ['user_blocks'],
  eventTypes: ['ChatUserBlocked'],
  async createTables(db: Knex, schema: string) {
    await db.schema.withSchema(schema).createTable('user_blocks', (t) => {
      t.text('blocker_id').notNullable();
      t.text('blocked_id').notNullable().index();
      t.text('reason');
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['blocker_id', 'blocked_id']);
    });
  },
  async apply({ table }, event) {
    const d = (event as unknown as ChatUserBlocked).data;
    await table('user_blocks')
      .insert({ blocker_id: d.blockerId, blocked_id: d.blockedId, reason: d.reason, created_at: d.blockedAt })
      .onConflict(['blocker_id', 'blocked_id'])
      .ignore();
  },
};

/** The members a member blocked, newest first, as the client lists them. */
export async function blocksBy(
  db: Knex,
  blockerId: string,
): Promise<Array<{ userId: string; reason: string | null; createdAt: string }>> {
  const rows = await db('user_blocks')
    .where({ blocker_id: blockerId })
    .orderBy('created_at', 'desc')
    .select('blocked_id', 'reason', 'created_at');
  return rows.map((r) => ({ userId: r.blocked_id, reason: r.reason, createdAt: new Date(r.created_at).toISOString() }));
}

/** Everyone a member blocked or was blocked by: never matched with them. */
export async function blockedAround(db: Knex, userId: string): Promise<Set<string>> {
  const rows = await db('user_blocks')
    .where({ blocker_id: userId })
    .orWhere({ blocked_id: userId })
    .select('blocker_id', 'blocked_id');
  return new Set(rows.map((r) => (r.blocker_id === userId ? r.blocked_id : r.blocker_id)));
}
