import type { Knex } from 'knex';
import type { AccountDeletedData } from '../domain/accounts/events';
import type { ChatSessionEnded, ChatSessionReported, ChatSessionStarted, ChatUserBlocked } from '../domain/chat/events';
import type { Projector } from './engine/projector';

/**
 * chat_sessions and user_matches (SPEC §3). A match row is the pairing the matcher made for a
 * session: pending while it lasts; `passed` when one side skipped (that side's action is `skip`).
 * A block between the two sets their match rows to `blocked` (the blocker's action is `block`).
 */
export const chatSessionsProjector: Projector = {
  name: 'chat_sessions',
  // 2: AccountDeleted (issue 23).
  version: 2,
  tables: ['chat_sessions', 'user_matches'],
  // Blocks find a pair's matches by user ids.
  appliesThroughIndexes: true,
  eventTypes: ['ChatSessionStarted', 'ChatSessionEnded', 'ChatSessionReported', 'ChatUserBlocked', 'AccountDeleted'],
  async createTables(db: Knex, schema: string) {
    await db.schema.withSchema(schema).createTable('chat_sessions', (t) => {
      t.text('room_id').primary();
      t.text('user1_id').notNullable().index();
      t.text('user2_id').notNullable().index();
      t.text('status').notNullable();
      t.text('mode').notNullable();
      t.decimal('compatibility_score', 4, 3).notNullable();
      t.timestamp('started_at', { useTz: true }).notNullable();
      t.timestamp('ended_at', { useTz: true });
      t.integer('duration_seconds');
      t.text('end_reason');
      t.text('ended_by');
      t.integer('user1_rating');
      t.integer('user2_rating');
      t.boolean('reported_by_user1').notNullable().defaultTo(false);
      t.boolean('reported_by_user2').notNullable().defaultTo(false);
      t.text('report_reason');
    });
    await db.schema.withSchema(schema).createTable('user_matches', (t) => {
      t.text('chat_session_id').primary();
      t.text('user1_id').notNullable().index();
      t.text('user2_id').notNullable().index();
      t.text('status').notNullable();
      t.decimal('compatibility_score', 4, 3).notNullable();
      t.text('user1_action');
      t.text('user2_action');
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
  },
  async apply({ table }, event) {
    switch (event.type) {
      case 'ChatSessionStarted': {
        const d = (event as unknown as ChatSessionStarted).data;
        const base = { user1_id: d.user1Id, user2_id: d.user2Id, compatibility_score: d.compatibilityScore.toFixed(3) };
        await table('chat_sessions')
          .insert({ room_id: d.roomId, ...base, status: 'connected', mode: d.mode, started_at: d.startedAt })
          .onConflict('room_id')
          .ignore();
        await table('user_matches')
          .insert({ chat_session_id: d.roomId, ...base, status: 'pending', created_at: d.startedAt })
          .onConflict('chat_session_id')
          .ignore();
        return;
      }
      case 'ChatSessionEnded': {
        const d = (event as unknown as ChatSessionEnded).data;
        const skipped = d.reason === 'skipped';
        await table('chat_sessions')
          .where({ room_id: d.roomId })
          .update({
            status: skipped ? 'skipped' : 'ended',
            ended_at: d.endedAt,
            duration_seconds: d.durationSeconds,
            end_reason: d.reason,
            ended_by: d.endedBy,
          });
        if (skipped && d.endedBy) {
          const side = d.endedBy === d.user1Id ? 'user1_action' : 'user2_action';
          await table('user_matches')
            .where({ chat_session_id: d.roomId })
            .whereNot({ status: 'blocked' })
            .update({ status: 'passed', [side]: 'skip' });
        }
        return;
      }
      case 'ChatSessionReported': {
        const d = (event as unknown as ChatSessionReported).data;
        const row = await table('chat_sessions').where({ room_id: d.roomId }).first('user1_id');
        if (!row) return;
        const flag = row.user1_id === d.reporterId ? 'reported_by_user1' : 'reported_by_user2';
        await table('chat_sessions')
          .where({ room_id: d.roomId })
          .update({ [flag]: true, report_reason: d.reason });
        return;
      }
      case 'AccountDeleted': {
        // Issue 23: the text of a deleted member's report goes (the reports model drops it too).
        const { userId } = event.data as AccountDeletedData;
        await table('chat_sessions')
          .where({ user1_id: userId, reported_by_user1: true })
          .orWhere({ user2_id: userId, reported_by_user2: true })
          .update({ report_reason: null });
        return;
      }
      case 'ChatUserBlocked': {
        const d = (event as unknown as ChatUserBlocked).data;
        await table('user_matches')
          .where({ user1_id: d.blockerId, user2_id: d.blockedId })
          .update({ status: 'blocked', user1_action: 'block' });
        await table('user_matches')
          .where({ user1_id: d.blockedId, user2_id: d.blockerId })
          .update({ status: 'blocked', user2_action: 'block' });
      }
    }
  },
};

/** A member's recent chats, newest first (what a report refers to), as the client lists them. */
export async function recentChatsOf(db: Knex, userId: string, limit = 20) {
  const rows = await db('chat_sessions')
    .where((q) => q.where({ user1_id: userId }).orWhere({ user2_id: userId }))
    .orderBy('started_at', 'desc')
    .limit(limit);
  return rows.map((r) => ({
    roomId: r.room_id as string,
    partnerId: (r.user1_id === userId ? r.user2_id : r.user1_id) as string,
    status: r.status as string,
    compatibilityScore: Number(r.compatibility_score),
    startedAt: new Date(r.started_at).toISOString(),
    endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
    durationSeconds: r.duration_seconds as number | null,
  }));
}
