import type { Knex } from 'knex';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { ChatUserBlocked } from '../domain/chat/events';
import type { BlockedUser } from '../domain/contracts/safety';
import type { UserUnblocked } from '../domain/safety/events';
import type { Projector } from './engine/projector';
import { displayName } from './users';

/**
 * user_blocks (SPEC §3): who blocked whom, and why; the one block list of posts, messages and
 * chat. Both the safety context's `UserBlocked`/`UserUnblocked` and the chat's older
 * `ChatUserBlocked` (same fields) land here.
 */
export const blocksProjector: Projector = {
  name: 'user_blocks',
  // 3: AccountDeleted (issue 23).
  version: 3,
  tables: ['user_blocks'],
  eventTypes: ['ChatUserBlocked', 'UserBlocked', 'UserUnblocked', 'AccountDeleted'],
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
    if (event.type === 'AccountDeleted') {
      // Issue 23: a deleted blocker's reasons go (their block events replay them as null once the key is gone).
      const { userId } = event.data as AccountDeletedData;
      await table('user_blocks').where({ blocker_id: userId }).update({ reason: null });
      return;
    }
    if (event.type === 'UserUnblocked') {
      const d = (event as unknown as UserUnblocked).data;
      await table('user_blocks').where({ blocker_id: d.blockerId, blocked_id: d.blockedId }).delete();
      return;
    }
    const d = (event as unknown as ChatUserBlocked).data;
    await table('user_blocks')
      .insert({ blocker_id: d.blockerId, blocked_id: d.blockedId, reason: d.reason, created_at: d.blockedAt })
      .onConflict(['blocker_id', 'blocked_id'])
      .ignore();
  },
};

/** The members a member blocked, newest first, named as others see them (chat display name, else name). */
export async function blocksBy(db: Knex, blockerId: string): Promise<BlockedUser[]> {
  const rows = await db('user_blocks as b')
    .leftJoin('user_profiles as p', 'p.user_id', 'b.blocked_id')
    .leftJoin('users as u', 'u.id', db.raw('b.blocked_id::uuid'))
    .where('b.blocker_id', blockerId)
    .orderBy([
      { column: 'b.created_at', order: 'desc' },
      { column: 'b.blocked_id', order: 'asc' },
    ])
    .select('b.blocked_id', 'b.reason', 'b.created_at', 'p.display_name', 'u.first_name', 'u.last_name');
  return rows.map((r) => ({
    userId: r.blocked_id,
    name: r.display_name || displayName(r),
    reason: r.reason,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/** Everyone a member blocked or was blocked by: never matched with them. */
export async function blockedAround(db: Knex, userId: string): Promise<Set<string>> {
  const rows = await db('user_blocks')
    .where({ blocker_id: userId })
    .orWhere({ blocked_id: userId })
    .select('blocker_id', 'blocked_id');
  return new Set(rows.map((r) => (r.blocker_id === userId ? r.blocked_id : r.blocker_id)));
}

/** Whether either of two members blocked the other (they may not message or touch each other's posts). */
export async function blockedBetween(db: Knex, a: string, b: string): Promise<boolean> {
  if (a === b) return false;
  const row = await db('user_blocks')
    .where({ blocker_id: a, blocked_id: b })
    .orWhere({ blocker_id: b, blocked_id: a })
    .first('blocker_id');
  return Boolean(row);
}
