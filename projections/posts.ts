import type { PostCommented, PostLiked } from '../domain/posts/events';
import { applyPostsBatch, postRow } from './posts-batch';
import type { Projector } from './engine/projector';

/**
 * Posts with their like and comment counters, likes and comments. Every event of a post comes
 * from its own stream, so a row keeps the last applied stream revision and counters move once
 * per event even when an event is applied twice.
 */
export const postsProjector: Projector = {
  name: 'posts',
  version: 2,
  tables: ['posts', 'post_likes', 'post_comments'],
  eventTypes: ['PostPublished', 'PostLiked', 'PostUnliked', 'PostCommented'],
  async createTables(db, schema) {
    await db.schema.withSchema(schema).createTable('posts', (t) => {
      t.text('id').primary();
      t.text('creator_id').notNullable();
      t.text('title').notNullable();
      t.text('content').notNullable();
      t.text('media_url');
      t.text('media_type');
      t.boolean('is_public').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.integer('like_count').notNullable().defaultTo(0);
      t.integer('comment_count').notNullable().defaultTo(0);
      t.bigInteger('last_revision').notNullable();
    });
    const posts = `"${schema}"."posts"`;
    // Keyset pagination of the feed: newest first per creator, and over public posts.
    await db.raw(`CREATE INDEX ON ${posts} (creator_id, created_at DESC, id DESC)`);
    await db.raw(`CREATE INDEX ON ${posts} (created_at DESC, id DESC) WHERE is_public`);
    // The feed's locked posts per readable creator, index-only (no filter, no heap visit).
    await db.raw(`CREATE INDEX ON ${posts} (creator_id, created_at DESC, id DESC) WHERE NOT is_public`);
    await db.schema.withSchema(schema).createTable('post_likes', (t) => {
      t.text('post_id').notNullable();
      t.text('user_id').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['post_id', 'user_id']);
    });
    await db.schema.withSchema(schema).createTable('post_comments', (t) => {
      t.text('id').primary();
      t.text('post_id').notNullable();
      t.text('user_id').notNullable();
      t.text('content').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.index(['post_id', 'created_at']);
    });
  },
  async apply({ table, trx }, event) {
    const revision = event.revision.toString();
    if (event.type === 'PostPublished') {
      await table('posts').insert(postRow(event)).onConflict('id').ignore();
      return;
    }
    const advance = (changes: Record<string, unknown>) =>
      table('posts')
        .where('id', (event.data as { postId: string }).postId)
        .andWhere('last_revision', '<', revision)
        .update({ ...changes, last_revision: revision });
    if (event.type === 'PostLiked' || event.type === 'PostUnliked') {
      const data = event.data as PostLiked['data'];
      const liked = event.type === 'PostLiked';
      const moved = await advance({ like_count: trx.raw(`like_count ${liked ? '+' : '-'} 1`) });
      if (!moved) return;
      if (liked) await table('post_likes').insert({ post_id: data.postId, user_id: data.userId, created_at: data.at }).onConflict(['post_id', 'user_id']).ignore();
      else await table('post_likes').where({ post_id: data.postId, user_id: data.userId }).delete();
      return;
    }
    const data = event.data as PostCommented['data'];
    await advance({ comment_count: trx.raw('comment_count + 1') });
    await table('post_comments')
      .insert({ id: data.commentId, post_id: data.postId, user_id: data.userId, content: data.content, created_at: data.at })
      .onConflict('id')
      .ignore();
  },
  applyAll(context, events) {
    return applyPostsBatch(context, events, (c, e) => postsProjector.apply(c, e));
  },
};
