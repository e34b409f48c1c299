import type { Knex } from 'knex';
import type { AccountDeletedData, UserRegisteredData } from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import { REMOVED } from '../domain/privacy/personal-data';
import type { Comment, FeedPage, Post } from '../domain/contracts/posts';
import type {
  PostCommentDeleted,
  PostCommented,
  PostContent,
  PostDeleted,
  PostEdited,
  PostLiked,
  PostScheduled,
} from '../domain/posts/events';
import { publicMediaUrl, type ProfileImageSetData } from '../domain/media/profile-images';
import type { ContentRemoved, UserBanned } from '../domain/safety/events';
import { readableCreatorIds } from './creator-subscriptions';
import type { Projector, ProjectionContext } from './engine/projector';
import { attachedMediaSql, attachmentViews, type AttachedMedia, type MediaLinks } from './media-access';
import type { PageRead, PageStatement } from './page-reads';
import { applyPostsBatch, authorRow, postRow } from './posts-batch';
import { displayName, isUserId } from './users';

/**
 * Posts with their like and comment counters, likes and comments. Every event of a post comes
 * from its own stream, so a row keeps the last applied stream revision and counters move once
 * per event even when an event is applied twice.
 *
 * A post carries its author's name and picture, copied from `post_authors` (kept here from the
 * user events) when it comes out and again when the picture changes: a page of posts reads no
 * users row (issue 24: that lookup was a sixth of the feed's cost in PostgreSQL).
 */
export const postsProjector: Projector = {
  name: 'posts',
  // 6: AccountDeleted (issue 23). 7: the author's name and picture on the post (issue 24).
  version: 7,
  tables: ['posts', 'post_likes', 'post_comments', 'scheduled_posts', 'post_authors'],
  eventTypes: [
    'UserRegistered',
    'AvatarSet',
    'PostPublished',
    'PostScheduled',
    'PostEdited',
    'PostDeleted',
    'PostLiked',
    'PostUnliked',
    'PostCommented',
    'PostCommentDeleted',
    'ContentRemoved',
    'UserBanned',
    'UserReinstated',
    'AccountDeleted',
  ],
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
      /** Ids of the uploaded media (issue 18) in order; null without. */
      t.jsonb('media_ids');
      /** Trust and safety: removed by staff, or its creator is banned (while banned). */
      t.boolean('removed').notNullable().defaultTo(false);
      t.boolean('creator_banned').notNullable().defaultTo(false);
      t.specificType('listed', 'boolean GENERATED ALWAYS AS (NOT removed AND NOT creator_banned) STORED');
      t.text('author_first_name');
      t.text('author_last_name');
      t.text('author_image_url');
    });
    // Who may post: every member, as registered; their picture once they set one.
    await db.schema.withSchema(schema).createTable('post_authors', (t) => {
      t.text('user_id').primary();
      t.text('first_name');
      t.text('last_name');
      t.text('image_url');
    });
    const posts = `"${schema}"."posts"`;
    // Keyset pagination of the feed: newest first per creator, and over public posts.
    await db.raw(`CREATE INDEX ON ${posts} (creator_id, created_at DESC, id DESC)`);
    await db.raw(`CREATE INDEX ON ${posts} (created_at DESC, id DESC) WHERE is_public AND listed`);
    // The feed's locked posts per readable creator, index-only (no filter, no heap visit).
    await db.raw(`CREATE INDEX ON ${posts} (creator_id, created_at DESC, id DESC) WHERE NOT is_public AND listed`);
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
    // Posts written for later (issue 21): only their creator sees them; the tick publishes each at its time.
    await db.schema.withSchema(schema).createTable('scheduled_posts', (t) => {
      t.text('id').primary();
      t.text('creator_id').notNullable();
      t.text('title').notNullable();
      t.text('content').notNullable();
      t.text('media_url');
      t.text('media_type');
      t.boolean('is_public').notNullable();
      t.jsonb('media_ids');
      t.timestamp('scheduled_at', { useTz: true }).notNullable();
      t.bigInteger('last_revision').notNullable();
      t.index(['scheduled_at']);
      t.index(['creator_id', 'scheduled_at']);
    });
  },
  async apply({ table, trx }, event) {
    if (event.type === 'AccountDeleted') return forgetAccount(table, (event.data as AccountDeletedData).userId);
    if (await applySafety(table, event)) return;
    if (await applyAuthor(table, event)) return;
    const revision = event.revision.toString();
    if (event.type === 'PostPublished') {
      const creatorId = (event.data as { creatorId: string }).creatorId;
      const row = postRow(event, await table('post_authors').where({ user_id: creatorId }).first());
      await table('posts')
        .insert({ ...row, media_ids: row.media_ids && JSON.stringify(row.media_ids) })
        .onConflict('id')
        .ignore();
      await table('scheduled_posts').where({ id: row.id }).delete();
      return;
    }
    if (await applyLifecycle(table, event)) return;
    const advance = (changes: Record<string, unknown>) =>
      table('posts')
        .where('id', (event.data as { postId: string }).postId)
        .andWhere('last_revision', '<', revision)
        .update({ ...changes, last_revision: revision });
    if (event.type === 'PostCommentDeleted') {
      const data = event.data as PostCommentDeleted['data'];
      await advance({ comment_count: trx.raw('comment_count - 1') });
      // Always: a replay of the log inserts the comment again (as PostCommented does) before this.
      await table('post_comments').where({ id: data.commentId }).delete();
      return;
    }
    if (event.type === 'PostLiked' || event.type === 'PostUnliked') {
      const data = event.data as PostLiked['data'];
      const liked = event.type === 'PostLiked';
      const moved = await advance({ like_count: trx.raw(`like_count ${liked ? '+' : '-'} 1`) });
      if (!moved) return;
      if (liked)
        await table('post_likes')
          .insert({ post_id: data.postId, user_id: data.userId, created_at: data.at })
          .onConflict(['post_id', 'user_id'])
          .ignore();
      else await table('post_likes').where({ post_id: data.postId, user_id: data.userId }).delete();
      return;
    }
    const data = event.data as PostCommented['data'];
    await advance({ comment_count: trx.raw('comment_count + 1') });
    await table('post_comments')
      .insert({
        id: data.commentId,
        post_id: data.postId,
        user_id: data.userId,
        content: data.content,
        created_at: data.at,
      })
      .onConflict('id')
      .ignore();
  },
  applyAll(context, events) {
    return applyPostsBatch(context, events, (c, e) => postsProjector.apply(c, e));
  },
};

/** The columns of a post's content, as a scheduled or edited post carries it. */
function contentColumns(data: PostContent) {
  return {
    title: data.title,
    content: data.content,
    media_url: data.mediaUrl,
    media_type: data.mediaType,
    is_public: data.isPublic,
    media_ids: data.mediaIds?.length ? JSON.stringify(data.mediaIds) : null,
  };
}

/**
 * Issue 21: a scheduled post waits in `scheduled_posts` (PostPublished moves it to `posts`); an
 * edit rewrites the content where the post is; a deleted post's rows go, with its likes and comments.
 */
async function applyLifecycle(table: ProjectionContext['table'], event: RecordedEvent): Promise<boolean> {
  const revision = event.revision.toString();
  if (event.type === 'PostScheduled') {
    const d = event.data as PostScheduled['data'];
    await table('scheduled_posts')
      .insert({
        id: d.postId,
        creator_id: d.creatorId,
        ...contentColumns(d),
        scheduled_at: d.scheduledAt,
        last_revision: revision,
      })
      .onConflict('id')
      .ignore();
    return true;
  }
  if (event.type === 'PostEdited') {
    const d = event.data as PostEdited['data'];
    const changes = { ...contentColumns(d), ...(d.scheduledAt ? { scheduled_at: d.scheduledAt } : {}) };
    await table(d.scheduledAt ? 'scheduled_posts' : 'posts')
      .where('id', d.postId)
      .andWhere('last_revision', '<', revision)
      .update({ ...changes, last_revision: revision });
    return true;
  }
  if (event.type === 'PostDeleted') {
    const { postId } = (event as unknown as PostDeleted).data;
    for (const name of ['posts', 'scheduled_posts', 'post_comments', 'post_likes'])
      await table(name)
        .where(name.startsWith('post_') ? { post_id: postId } : { id: postId })
        .delete();
    return true;
  }
  return false;
}

/**
 * Issue 23: a deleted creator's posts go, with their likes and comments (as a deleted post's do).
 * The person's comments on other posts stay, reading REMOVED as PostCommented replays once their
 * key is gone; the users model names their author "Deleted user".
 */
async function forgetAccount(table: ProjectionContext['table'], userId: string): Promise<void> {
  const posts = table('posts').where({ creator_id: userId }).select('id');
  await table('post_likes').whereIn('post_id', posts).delete();
  await table('post_comments').whereIn('post_id', posts).delete();
  await table('posts').where({ creator_id: userId }).delete();
  await table('scheduled_posts').where({ creator_id: userId }).delete();
  await table('post_comments').where({ user_id: userId }).update({ content: REMOVED });
  await table('post_authors').where({ user_id: userId }).delete();
}

/** A member registered (an author to be), or set their picture: on their posts too. */
async function applyAuthor(table: ProjectionContext['table'], event: RecordedEvent): Promise<boolean> {
  if (event.type === 'UserRegistered') {
    await table('post_authors')
      .insert(authorRow(event.data as UserRegisteredData))
      .onConflict('user_id')
      .ignore();
    return true;
  }
  if (event.type === 'AvatarSet') {
    const d = event.data as ProfileImageSetData;
    const url = publicMediaUrl(d.mediaId, d.variant);
    await table('post_authors').where({ user_id: d.userId }).update({ image_url: url });
    await table('posts').where({ creator_id: d.userId }).update({ author_image_url: url });
    return true;
  }
  return false;
}

/** A post removed by staff, or every post of a creator while banned: hidden (`listed` false). */
async function applySafety(table: ProjectionContext['table'], event: RecordedEvent): Promise<boolean> {
  if (event.type === 'ContentRemoved') {
    const d = (event as unknown as ContentRemoved).data;
    if (d.targetType === 'post') await table('posts').where({ id: d.targetId }).update({ removed: true });
    return true;
  }
  if (event.type === 'UserBanned' || event.type === 'UserReinstated') {
    const { userId } = (event as unknown as UserBanned).data;
    await table('posts')
      .where({ creator_id: userId })
      .update({ creator_banned: event.type === 'UserBanned' });
    return true;
  }
  return false;
}

/**
 * Queries: posts as a viewer sees them. A non-public post is locked for viewers who are neither its
 * creator nor subscribed to the creator; a locked post is sent without content and media URL, its
 * uploaded media as blurred previews only.
 */

export interface PostRow {
  id: string;
  creator_id: string;
  title: string;
  content: string;
  media_url: string | null;
  media_type: string | null;
  is_public: boolean;
  created_at: Date;
  like_count: number;
  comment_count: number;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  liked: boolean;
  /** Uploaded media in order (the media read model's items attached to the post). */
  media: AttachedMedia[];
}

export function postView(row: PostRow, readable: Set<string>, links: MediaLinks): Post {
  const locked = !row.is_public && !readable.has(row.creator_id);
  return {
    id: row.id,
    creatorId: row.creator_id,
    creator: {
      id: row.creator_id,
      name: displayName(row, 'Creator'),
      profileImageUrl: row.profile_image_url,
    },
    title: row.title,
    content: locked ? null : row.content,
    mediaUrl: locked ? null : row.media_url,
    mediaType: row.media_type,
    hasMedia: Boolean(row.media_url) || row.media.length > 0,
    isPublic: row.is_public,
    locked,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    liked: row.liked,
    createdAt: new Date(row.created_at).toISOString(),
    media: attachmentViews(row.media, !locked, links),
  };
}

/** A post's uploaded media; most posts have none, and skip the lookup. */
const POST_MEDIA = `CASE WHEN f.media_ids IS NULL THEN '[]'::json ELSE ${attachedMediaSql('f.media_ids')} END`;

/**
 * Columns of a post row with its author and whether the viewer (the parameter `viewer`: `?` in
 * a knex query, `$n` in a prepared one) liked it; `f` is the post alias.
 */
const decorate = (viewer: string) => `f.id, f.creator_id, f.title, f.content, f.media_url, f.media_type, f.is_public,
  f.created_at, f.like_count, f.comment_count,
  f.author_first_name AS first_name, f.author_last_name AS last_name, f.author_image_url AS profile_image_url,
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = f.id AND l.user_id = ${viewer}) AS liked, ${POST_MEDIA} AS media`;

/**
 * A creator's (`$2`) posts for the viewer (`$1`), newest first, with whether the viewer may read
 * them (`$3` now): one page statement, as the creator page loads it. The creator's row comes
 * first: no row when `$2` is no creator, one row without a post while they have none; the
 * viewer's access is looked up once, not per post.
 */
const CREATOR_POSTS: PageStatement = {
  name: 'creator-posts',
  text: `WITH creator AS MATERIALIZED (
    SELECT c.user_id,
      c.user_id = $1 OR EXISTS (SELECT 1 FROM creator_subscriptions s
        WHERE s.subscriber_id = $1 AND s.creator_id = c.user_id AND s.end_date > $3) AS readable
    FROM creators c WHERE c.user_id = $2
  )
  SELECT ${decorate('$1')}, c.readable
  FROM creator c LEFT JOIN posts f ON f.creator_id = c.user_id AND f.listed
  ORDER BY f.created_at DESC, f.id DESC LIMIT 500`,
};

interface Cursor {
  at: string;
  id: string;
}
const CURSOR_ID = /^[A-Za-z0-9_-]{1,100}$/;
export const encodeCursor = (cursor: Cursor) => Buffer.from(`${cursor.at}|${cursor.id}`).toString('base64url');
export function decodeCursor(text: string | undefined): Cursor | null {
  if (!text) return null;
  const [at, id] = Buffer.from(text, 'base64url').toString().split('|');
  // What a cursor decodes to is the client's input too: only a post id's characters reach SQL.
  return at && id && CURSOR_ID.test(id) && !Number.isNaN(Date.parse(at))
    ? { at: new Date(at).toISOString(), id }
    : null;
}

/**
 * The feed's page statement for the viewer (`$1`) at `$2`: `$3` posts (a page and one more, which
 * says a next page exists) from each source and in all; `$4, $5` are the cursor (created_at, id)
 * of the last post already shown.
 */
function feedStatement(withCursor: boolean): PageStatement {
  const before = withCursor ? 'AND (p.created_at, p.id) < ($4::timestamptz, $5::text)' : '';
  const text = `WITH readable AS (
      SELECT DISTINCT s.creator_id FROM creator_subscriptions s WHERE s.subscriber_id = $1 AND s.end_date > $2
      UNION SELECT $1::text
    ), page AS (
      SELECT id, created_at FROM (
        (SELECT p.id, p.created_at FROM posts p WHERE p.is_public AND p.listed ${before} ORDER BY p.created_at DESC, p.id DESC LIMIT $3)
        UNION ALL
        (SELECT q.id, q.created_at FROM readable c CROSS JOIN LATERAL (
           SELECT p.id, p.created_at FROM posts p WHERE p.creator_id = c.creator_id AND NOT p.is_public AND p.listed ${before}
           ORDER BY p.created_at DESC, p.id DESC LIMIT $3) q)
      ) x ORDER BY created_at DESC, id DESC LIMIT $3
    )
    SELECT ${decorate('$1')}
    FROM page JOIN posts f ON f.id = page.id
    ORDER BY page.created_at DESC, page.id DESC`;
  return { name: withCursor ? 'feed-next' : 'feed-first', text };
}
const FEED_FIRST = feedStatement(false);
const FEED_NEXT = feedStatement(true);

/**
 * The feed: posts of subscribed creators (and the viewer's own) plus public posts, newest
 * first, keyset-paginated on (created_at, id). Two bounded index-only range scans (public
 * posts; each readable creator's locked posts) pick the page's ids, then only those rows are
 * read: a page costs the same on page 1 and page 1,000 and does not grow with the posts.
 */
export async function feedPage(
  read: PageRead,
  now: Date,
  options: { cursor?: string; limit: number },
  links: MediaLinks,
): Promise<FeedPage> {
  const cursor = decodeCursor(options.cursor);
  const limit = options.limit;
  const values: unknown[] = [now, limit + 1];
  if (cursor) values.push(cursor.at, cursor.id);
  const rows = await read<PostRow>(cursor ? FEED_NEXT : FEED_FIRST, values);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  // Every feed post is public or from a creator the viewer may read: none is locked.
  const readable = new Set(page.map((row) => row.creator_id));
  return {
    posts: page.map((row) => postView(row, readable, links)),
    nextCursor:
      rows.length > limit && last ? encodeCursor({ at: new Date(last.created_at).toISOString(), id: last.id }) : null,
  };
}

function decorated(db: Knex, viewerId: string) {
  return db('posts as f')
    .where('f.listed', true)
    .select(db.raw(decorate('?'), [viewerId]));
}

/**
 * A creator's posts as the viewer sees them, newest first (locked ones without content for
 * non-subscribers); null when `creatorId` is no creator.
 */
export async function creatorPosts(
  read: PageRead,
  now: Date,
  creatorId: string,
  links: MediaLinks,
): Promise<Post[] | null> {
  if (!isUserId(creatorId)) return null;
  const rows = await read<(PostRow & { readable: boolean }) | { id: null }>(CREATOR_POSTS, [creatorId, now]);
  if (rows.length === 0) return null;
  const posts = rows.filter((row): row is PostRow & { readable: boolean } => row.id !== null);
  const readable = new Set(posts.filter((row) => row.readable).map((row) => row.creator_id));
  return posts.map((row) => postView(row, readable, links));
}

/** One post as the viewer sees it; null when unknown. */
export async function findPost(
  db: Knex,
  now: Date,
  viewerId: string,
  postId: string,
  links: MediaLinks,
): Promise<Post | null> {
  if (!isUserId(postId)) return null;
  const row = (await decorated(db, viewerId).where('f.id', postId).first()) as PostRow | undefined;
  if (row) return postView(row, await readableCreatorIds(db, now, viewerId), links);
  // Not out yet: only its creator sees it.
  const scheduled = await scheduledRows(db).where({ 'f.id': postId, 'f.creator_id': viewerId }).first();
  return scheduled ? scheduledView(scheduled, links) : null;
}

/** A scheduled post's row as `postView` reads it: its time as its date, nothing liked or said yet. */
function scheduledRows(db: Knex) {
  return db('scheduled_posts as f')
    .leftJoin('post_authors as a', 'a.user_id', 'f.creator_id')
    .select(
      db.raw(`f.id, f.creator_id, f.title, f.content, f.media_url, f.media_type, f.is_public,
        f.scheduled_at AS created_at, f.scheduled_at, 0 AS like_count, 0 AS comment_count, false AS liked,
        a.first_name, a.last_name, a.image_url AS profile_image_url, ${POST_MEDIA} AS media`),
    );
}

const scheduledView = (row: PostRow & { scheduled_at: Date }, links: MediaLinks): Post => ({
  ...postView(row, new Set([row.creator_id]), links),
  scheduledAt: new Date(row.scheduled_at).toISOString(),
});

/** The creator's posts waiting for their time (issue 21), soonest first: only the creator sees these. */
export async function scheduledPostsOf(db: Knex, creatorId: string, links: MediaLinks): Promise<Post[]> {
  if (!isUserId(creatorId)) return [];
  const rows = await scheduledRows(db)
    .where('f.creator_id', creatorId)
    .orderBy([{ column: 'f.scheduled_at' }, { column: 'f.id' }])
    .limit(500);
  return rows.map((row: PostRow & { scheduled_at: Date }) => scheduledView(row, links));
}

/**
 * Scheduled posts whose time has come, for the publishing tick; a banned creator's wait (they
 * come out if the creator is reinstated).
 */
export async function scheduledPostsDueBy(db: Knex, now: Date, limit = 500): Promise<string[]> {
  const rows = await db('scheduled_posts as f')
    .leftJoin('users as u', 'u.id', db.raw('f.creator_id::uuid'))
    .where('f.scheduled_at', '<=', now)
    .andWhere((q) => q.whereNull('u.standing').orWhereNot('u.standing', 'banned'))
    .orderBy([{ column: 'f.scheduled_at' }, { column: 'f.id' }])
    .limit(limit)
    .select('f.id');
  return rows.map((row: { id: string }) => row.id);
}

export async function postComments(db: Knex, postId: string): Promise<Comment[]> {
  const rows = await db('post_comments as c')
    .leftJoin('users as u', 'u.id', db.raw('c.user_id::uuid'))
    .where('c.post_id', postId)
    .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }])
    .limit(500)
    .select('c.*', 'u.first_name', 'u.last_name');
  return rows.map((row) => ({
    id: row.id,
    postId: row.post_id,
    userId: row.user_id,
    userName: displayName(row),
    content: row.content,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}
