import type { RecordedEvent } from '../domain/event-store/port';
import type { PostLiked, PostPublished } from '../domain/posts/events';
import { bulkInsert } from './engine/bulk-insert';
import type { ProjectionContext } from './engine/projector';

const isLike = (event: RecordedEvent) => event.type === 'PostLiked' || event.type === 'PostUnliked';
/** A post out at once; a scheduled one coming out also leaves `scheduled_posts`, so it goes one by one. */
const isNewPost = (event: RecordedEvent) =>
  event.type === 'PostPublished' && !(event.data as PostPublished['data']).fromSchedule;

/** The row a PostPublished inserts (an existing post keeps its row). */
export function postRow(event: RecordedEvent) {
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
  };
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

/**
 * A batch of the posts projector: runs of likes at once, runs of new posts in one insert (the
 * first of one id wins, as ON CONFLICT DO NOTHING one by one), every other event one by one.
 */
export async function applyPostsBatch(
  context: ProjectionContext,
  events: RecordedEvent[],
  applyOne: (context: ProjectionContext, event: RecordedEvent) => Promise<void>,
): Promise<void> {
  let run: RecordedEvent[] = [];
  let runOf: 'likes' | 'posts' | null = null;
  const flush = async () => {
    if (runOf === 'likes') await applyLikes(context, run);
    if (runOf === 'posts') await bulkInsert(context, 'posts', run.map(postRow), { conflict: ['id'] });
    run = [];
  };
  for (const event of events) {
    const of = isLike(event) ? 'likes' : isNewPost(event) ? 'posts' : null;
    if (of !== runOf) await flush();
    runOf = of;
    if (of) run.push(event);
    else await applyOne(context, event);
  }
  await flush();
}
