import { Router, type Request } from 'express';
import {
  commentSchema,
  createPostSchema,
  editPostSchema,
  feedQuerySchema,
  type Comment,
  type Post,
} from '../../domain/contracts/posts';
import { BLOCKED_INTERACTION } from '../../domain/contracts/safety';
import { commentOnPost, deleteComment, deletePost, editPost, likePost, publishPost } from '../../domain/posts/commands';
import { refuse } from '../../domain/shared/errors';
import { newId } from '../../domain/shared/ids';
import { blockedBetween } from '../../projections/blocks';
import { requireVerifiedIdentity } from '../http/identity-gate';
import { attachmentViews, mediaByIds, unusableMedia, type MediaLinks } from '../../projections/media-access';
import { feedPage, findPost, postComments, scheduledPostsOf } from '../../projections/posts';
import { displayName, findUserRow } from '../../projections/users';
import { requireActiveSubscription } from '../http/access';
import { parseWith } from '../http/validate';
import type { Api } from '../kit';

/** Posts, the feed, likes and comments (SPEC §7). Locked posts never carry content or media. */
export function postRoutes(api: Api): Router {
  const router = Router();
  const { db, store } = api.deps;
  const member = requireActiveSubscription(db, () => api.deps.clock());
  const now = () => api.deps.clock();
  const links = () => api.deps.ports.mediaUrls as MediaLinks;

  // The hot path: the feed's statement resolves the session too (api.pageRead), and the gate reads
  // the user loaded with it, so a feed request costs one database round trip.
  api.pageRead('/posts/feed', [member], async (req, read) => {
    const query = parseWith(feedQuerySchema, req.query);
    return feedPage(read, now(), { cursor: query.cursor, limit: query.limit }, links());
  });

  /** The post if the viewer may read it: 404 unknown, 403 locked (subscribe first). */
  const readablePost = async (req: Request) => {
    const post = await findPost(db, now(), req.userId!, String(req.params.id), links());
    if (!post) throw refuse.notFound('Post not found');
    if (post.locked) throw refuse.forbidden('Subscribe to this creator to interact with this post');
    return post;
  };

  /** A post the viewer may like or comment on: readable, and neither its creator nor the viewer blocked the other. */
  const interactablePost = async (req: Request) => {
    const post = await readablePost(req);
    if (await blockedBetween(db, req.userId!, post.creatorId))
      throw refuse.forbidden(BLOCKED_INTERACTION, { code: 'BLOCKED' });
    return post;
  };

  router.post('/posts', member, async (req, res) => {
    const body = parseWith(createPostSchema, req.body);
    if (!body.isPublic) await requireVerifiedIdentity(db, req.userId!, 'publish locked posts');
    const unusable = await unusableMedia(db, req.userId!, body.mediaIds);
    if (unusable) throw refuse.unprocessable(unusable, { code: 'MEDIA_NOT_USABLE' });
    const postId = newId();
    const result = await publishPost(
      store,
      {
        creatorId: req.userId!,
        title: body.title,
        content: body.content,
        mediaUrl: body.mediaUrl ?? null,
        isPublic: body.isPublic,
        mediaIds: body.mediaIds,
        ...(body.scheduledAt ? { scheduledAt: body.scheduledAt } : {}),
      },
      api.context(req),
      postId,
    );
    await api.readYourWrites(result.position);
    const post = await findPost(db, now(), req.userId!, postId, links());
    if (post) return void res.status(201).json(post);
    // The read model lags beyond the bounded wait: answer from the event.
    const data = result.events[0].data as {
      title: string;
      content: string;
      mediaUrl: string | null;
      mediaType: string | null;
      isPublic: boolean;
      publishedAt?: string;
      scheduledAt?: string;
    };
    const user = await findUserRow(db, req.userId!);
    const view: Post = {
      id: postId,
      creatorId: req.userId!,
      creator: {
        id: req.userId!,
        name: user ? displayName(user, 'Creator') : 'Creator',
        profileImageUrl: user?.profile_image_url ?? null,
      },
      title: data.title,
      content: data.content,
      mediaUrl: data.mediaUrl,
      mediaType: data.mediaType,
      hasMedia: Boolean(data.mediaUrl) || body.mediaIds.length > 0,
      isPublic: data.isPublic,
      locked: false,
      likeCount: 0,
      commentCount: 0,
      liked: false,
      createdAt: (data.publishedAt ?? data.scheduledAt)!,
      media: attachmentViews(await mediaByIds(db, body.mediaIds), true, links()),
      ...(data.scheduledAt ? { scheduledAt: data.scheduledAt } : {}),
    };
    res.status(201).json(view);
  });

  /** The signed-in creator's posts waiting for their time (issue 21), soonest first. */
  router.get('/posts/scheduled', member, async (req, res) => {
    res.json(await scheduledPostsOf(db, req.userId!, links()));
  });

  /** A post the viewer can see (its creator also sees it while scheduled): 404 otherwise. */
  const visiblePost = async (req: Request) => {
    const post = await findPost(db, now(), req.userId!, String(req.params.id), links());
    if (!post) throw refuse.notFound('Post not found');
    return post;
  };

  router.patch('/posts/:id', member, async (req, res) => {
    const post = await visiblePost(req);
    const body = parseWith(editPostSchema, req.body);
    if (post.creatorId === req.userId) {
      if (body.isPublic === false && post.isPublic)
        await requireVerifiedIdentity(db, req.userId!, 'publish locked posts');
      const unusable = await unusableMedia(db, req.userId!, body.mediaIds ?? []);
      if (unusable) throw refuse.unprocessable(unusable, { code: 'MEDIA_NOT_USABLE' });
    }
    const result = await editPost(store, { postId: post.id, actorId: req.userId!, changes: body }, api.context(req));
    await api.readYourWritesShowing(result.position, ['posts']);
    res.json(await visiblePost(req));
  });

  router.delete('/posts/:id', member, async (req, res) => {
    const post = await visiblePost(req);
    const result = await deletePost(store, { postId: post.id, actorId: req.userId! }, api.context(req));
    await api.readYourWrites(result.position);
    res.status(204).end();
  });

  router.get('/posts/:id', member, async (req, res) => {
    const post = await findPost(db, now(), req.userId!, String(req.params.id), links());
    if (!post) throw refuse.notFound('Post not found');
    res.json(post);
  });

  router.post('/posts/:id/like', member, async (req, res) => {
    const post = await interactablePost(req);
    const result = await likePost(store, { postId: post.id, userId: req.userId! }, api.context(req));
    await api.readYourWrites(result.position);
    res.json({ liked: result.state.likers.has(req.userId!), count: result.state.likers.size });
  });

  router.get('/posts/:id/comments', member, async (req, res) => {
    const post = await readablePost(req);
    res.json(await postComments(db, post.id));
  });

  router.post('/posts/:id/comments', member, async (req, res) => {
    const post = await interactablePost(req);
    const body = parseWith(commentSchema, req.body);
    const commentId = newId();
    const result = await commentOnPost(
      store,
      { postId: post.id, commentId, userId: req.userId!, content: body.content },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    const user = await findUserRow(db, req.userId!);
    const comment: Comment = {
      id: commentId,
      postId: post.id,
      userId: req.userId!,
      userName: user ? displayName(user) : 'Member',
      content: body.content,
      createdAt: (result.events[0].data as { at: string }).at,
    };
    res.status(201).json(comment);
  });

  router.delete('/posts/:id/comments/:commentId', member, async (req, res) => {
    const post = await visiblePost(req);
    const result = await deleteComment(
      store,
      { postId: post.id, commentId: String(req.params.commentId), actorId: req.userId! },
      api.context(req),
    );
    await api.readYourWrites(result.position);
    res.status(204).end();
  });

  return router;
}
