import type { UserRegisteredData } from '../domain/accounts/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { PostLiked, PostPublished } from '../domain/posts/events';
import { bulkInsert } from './engine/bulk-insert';
import type { ProjectionContext } from './engine/projector';

const isLike = (event: RecordedEvent) => event.type === 'PostLiked' || event.type === 'PostUnliked';
/** A post out at once; a scheduled one coming out also leaves `scheduled_posts`, so it goes one by one. */
const isNewPost = (event: RecordedEvent) =>
  event.type === 'PostPublished' && !(event.data as PostPublished['data']).fromSchedule;

/** A `post_authors` row. */
export interface Author extends Record<string, unknown> {
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  image_url: string | null;
}

/** A member as an author, from their registration: their picture comes later (AvatarSet). */
export const authorRow = (d: UserRegisteredData): Author => ({
  user_id: d.userId,
  first_name: d.firstName,
  last_name: d.lastName,
  image_url: null,
});

/** The row a PostPublished inserts (an existing post keeps its row), with its author's name and picture. */
export function postRow(event: RecordedEvent, author: Author | undefined) {
  const data = event.data as PostPublished['data'];
  return {
    id: data.postId,
    creator_id: data.creatorId,
    title: data.title,
    content: data.content,
    media_url: data.mediaUrl,
    media_type: data.mediaType,
    is_public: data.isPublic,
    created_at: data.publishedAt,
    last_revision: event.revision.toString(),
    // Uploaded media in order (jsonb: bulk inserts take the value; knex inserts take JSON text).
    media_ids: data.mediaIds?.length ? data.mediaIds : null,
    author_first_name: author?.first_name ?? null,
    author_last_name: author?.last_name ?? null,
    author_image_url: author?.image_url ?? null,
  };
}

/** New posts in one insert, their authors read in one query. */
async function insertPosts(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const creators = [...new Set(events.map((event) => (event.data as PostPublished['data']).creatorId))];
  const { rows } = await context.trx.raw(`SELECT * FROM ${context.ref('post_authors')} WHERE user_id = ANY(?)`, [
    creators,
  ]);
  const authors = new Map((rows as Author[]).map((author) => [author.user_id, author]));
  const posts = events.map((event) => postRow(event, authors.get((event.data as PostPublished['data']).creatorId)));
  await bulkInsert(context, 'posts', posts, { conflict: ['id'] });
}

/**
 * A run of likes and unlikes in a few statements: the posts' revisions are read once, each
 * event counts only past its post's last applied revision (as one by one), then one counter
 * update for all posts and one insert and one delete for the final state of each (post, user).
 */
async function applyLikes(context: ProjectionContext, events: RecordedEvent[]): Promise<void> {
  const { trx, ref } = context;
  const ids = [...new Set(events.map((e) => (e.data as PostLiked['data']).postId))];
  const rows: Array<{ id: string; last_revision: string }> = (
    await trx.raw(`SELECT id, last_revision FROM ${ref('posts')} WHERE id = ANY(?)`, [ids])
  ).rows;
  const last = new Map(rows.map((row) => [row.id, BigInt(row.last_revision)]));
  const moved = new Map<string, { delta: number; revision: bigint }>();
  const final = new Map<string, { data: PostLiked['data']; liked: boolean; unlikedBefore: boolean }>();
  for (const event of events) {
    const data = event.data as PostLiked['data'];
    const current = last.get(data.postId);
    if (current === undefined || event.revision <= current) continue; // no post yet, or applied already
    last.set(data.postId, event.revision);
    const liked = event.type === 'PostLiked';
    const post = moved.get(data.postId) ?? { delta: 0, revision: event.revision };
    moved.set(data.postId, { delta: post.delta + (liked ? 1 : -1), revision: event.revision });
    const key = `${data.postId}\u0000${data.userId}`;
    final.set(key, { data, liked, unlikedBefore: (final.get(key)?.unlikedBefore ?? false) || !liked });
  }
  if (moved.size === 0) return;
  // Arrays, not a VALUES list: one short statement for any number of posts.
  await trx.raw(
    `UPDATE ${ref('posts')} p SET like_count = p.like_count + v.delta, last_revision = v.revision
       FROM unnest(?::text[], ?::int[], ?::bigint[]) v(id, delta, revision) WHERE p.id = v.id`,
    [[...moved.keys()], [...moved.values()].map((m) => m.delta), [...moved.values()].map((m) => m.revision.toString())],
  );
  const removed = [...final.values()].filter((f) => !f.liked || f.unlikedBefore);
  if (removed.length) {
    await trx.raw(
      `DELETE FROM ${ref('post_likes')} l USING unnest(?::text[], ?::text[]) r(post_id, user_id) WHERE l.post_id = r.post_id AND l.user_id = r.user_id`,
      [removed.map((f) => f.data.postId), removed.map((f) => f.data.userId)],
    );
  }
  const added = [...final.values()]
    .filter((f) => f.liked)
    .map((f) => ({ post_id: f.data.postId, user_id: f.data.userId, created_at: f.data.at }));
  await bulkInsert(context, 'post_likes', added, { conflict: ['post_id', 'user_id'] });
}

type RunKind = 'likes' | 'posts' | 'authors';

/** The run an event joins; null for one applied by itself. */
function runOf(event: RecordedEvent): RunKind | null {
  if (isLike(event)) return 'likes';
  if (isNewPost(event)) return 'posts';
  return event.type === 'UserRegistered' ? 'authors' : null;
}

/**
 * A batch of the posts projector: runs of likes at once, runs of new posts and of registrations
 * each in one insert (the first of one key wins, as ON CONFLICT DO NOTHING one by one), every
 * other event one by one.
 */
export async function applyPostsBatch(
  context: ProjectionContext,
  events: RecordedEvent[],
  applyOne: (context: ProjectionContext, event: RecordedEvent) => Promise<void>,
): Promise<void> {
  let run: RecordedEvent[] = [];
  let kind: RunKind | null = null;
  const flush = async () => {
    if (kind === 'likes') await applyLikes(context, run);
    if (kind === 'posts') await insertPosts(context, run);
    if (kind === 'authors') {
      const authors = run.map((event) => authorRow(event.data as UserRegisteredData));
      await bulkInsert(context, 'post_authors', authors, { conflict: ['user_id'] });
    }
    run = [];
  };
  for (const event of events) {
    const of = runOf(event);
    if (of !== kind) await flush();
    kind = of;
    if (of) run.push(event);
    else await applyOne(context, event);
  }
  await flush();
}
