import { deciderSpec } from '../shared/testing/decider-spec';
import { postDecider, mediaTypeOf } from './decider';
import type { PostEvent } from './events';

const at = new Date('2026-01-01T00:00:00Z');
const published: PostEvent = {
  type: 'PostPublished',
  data: {
    postId: 'p1',
    creatorId: 'c1',
    title: 'T',
    content: 'C',
    mediaUrl: null,
    mediaType: null,
    isPublic: false,
    publishedAt: at.toISOString(),
  },
};

const spec = deciderSpec(postDecider);

describe('post decider', () => {
  it('toggles a like per user', () => {
    let state = spec.fold([published]);
    const like = { type: 'ToggleLike' as const, postId: 'p1', userId: 'm1', at };
    const [first] = spec.on(state).when(like).events;
    expect(first.type).toBe('PostLiked');
    state = postDecider.evolve(state, first);
    expect(spec.on(state).when(like).events[0].type).toBe('PostUnliked');
    expect(spec.on(state).when({ ...like, userId: 'm2' }).events[0].type).toBe('PostLiked');
  });

  it('refuses likes and comments on unknown posts', () => {
    spec.given().when({ type: 'ToggleLike', postId: 'x', userId: 'm1', at }).thenThrows('Post not found');
    spec
      .given()
      .when({ type: 'CommentOnPost', postId: 'x', commentId: 'k', userId: 'm1', content: 'hi', at })
      .thenThrows('Post not found');
  });

  it('carries uploaded media in order, at most 20, each once, and no field without media', () => {
    const publish = {
      type: 'PublishPost' as const,
      postId: 'p2',
      creatorId: 'c1',
      title: 'T',
      content: 'C',
      mediaUrl: null,
      isPublic: false,
      at,
    };
    expect(spec.given().when({ ...publish, mediaIds: ['b', 'a'] }).events[0].data).toMatchObject({
      mediaIds: ['b', 'a'],
    });
    expect(spec.given().when({ ...publish, mediaIds: [] }).events[0].data).not.toHaveProperty('mediaIds');
    expect(spec.given().when(publish).events[0].data).not.toHaveProperty('mediaIds');
    const twenty = Array.from({ length: 20 }, (_, i) => `m${i}`);
    expect(spec.given().when({ ...publish, mediaIds: twenty }).events[0].data).toMatchObject({ mediaIds: twenty });
    spec
      .given()
      .when({ ...publish, mediaIds: [...twenty, 'm20'] })
      .thenThrows('At most 20 media items can be attached');
    spec
      .given()
      .when({ ...publish, mediaIds: ['a', 'b', 'a'] })
      .thenThrows('The same media item is attached twice');
  });

  it('derives the media type from the URL', () => {
    expect(mediaTypeOf('https://x.test/a.MP4?x=1')).toBe('video');
    expect(mediaTypeOf('https://x.test/a.jpg')).toBe('image');
    expect(mediaTypeOf(null)).toBeNull();
  });

  describe('scheduled posts (issue 21)', () => {
    const hour = 60 * 60_000;
    const inAnHour = new Date(at.getTime() + hour);
    const schedule = {
      type: 'SchedulePost' as const,
      postId: 'p1',
      creatorId: 'c1',
      title: 'Later',
      content: 'Soon',
      mediaUrl: null,
      isPublic: true,
      mediaIds: ['m1'],
      scheduledAt: inAnHour,
      at,
    };
    const scheduled = () => spec.given().when(schedule).events;
    const tick = (when: Date) => ({ type: 'PublishScheduledPost' as const, postId: 'p1', at: when });

    it('is written now and comes out at its time, as last edited, once', () => {
      expect(scheduled()).toEqual([
        {
          type: 'PostScheduled',
          data: {
            postId: 'p1',
            creatorId: 'c1',
            title: 'Later',
            content: 'Soon',
            mediaUrl: null,
            mediaType: null,
            isPublic: true,
            mediaIds: ['m1'],
            scheduledAt: inAnHour.toISOString(),
            at: at.toISOString(),
          },
        },
      ]);
      spec
        .given(scheduled())
        .when(tick(new Date(inAnHour.getTime() - 1)))
        .thenNothing();
      const edit = {
        type: 'EditPost' as const,
        postId: 'p1',
        actorId: 'c1',
        changes: { title: 'Edited', isPublic: false, mediaIds: [] },
        at,
      };
      const [edited] = spec.given(scheduled()).when(edit).events;
      const late = new Date(inAnHour.getTime() + 5 * 60_000);
      const [out] = spec
        .given([...scheduled(), edited])
        .when(tick(late))
        .thenMatch([
          {
            type: 'PostPublished',
            data: { title: 'Edited', content: 'Soon', isPublic: false, publishedAt: inAnHour.toISOString() },
          },
        ]);
      expect(out.data).not.toHaveProperty('mediaIds');
      spec
        .given([...scheduled(), edited, out])
        .when(tick(late))
        .thenNothing();
      spec
        .given([...scheduled(), out])
        .when({ type: 'ToggleLike', postId: 'p1', userId: 'm1', at: late })
        .thenMatch([{ type: 'PostLiked' }]);
    });

    it('takes no likes or comments before its time', () => {
      spec.given(scheduled()).when({ type: 'ToggleLike', postId: 'p1', userId: 'm1', at }).thenThrows('Post not found');
    });

    it('refuses a time in the past or more than a year ahead', () => {
      spec
        .given()
        .when({ ...schedule, scheduledAt: new Date(at.getTime() - 1) })
        .thenThrows('A post can only be scheduled for a time in the future');
      spec
        .given()
        .when({ ...schedule, scheduledAt: new Date(at.getTime() + 366 * 24 * hour) })
        .thenThrows('A post can be scheduled at most a year ahead');
    });

    it('moves to a new time until published, then no longer', () => {
      const later = new Date(at.getTime() + 3 * hour);
      const move = { type: 'EditPost' as const, postId: 'p1', actorId: 'c1', changes: { scheduledAt: later }, at };
      spec
        .given(scheduled())
        .when(move)
        .thenMatch([{ type: 'PostEdited', data: { title: 'Later', scheduledAt: later.toISOString() } }]);
      spec.given([published]).when(move).thenThrows({ kind: 'conflict' });
    });

    it('cancels: deleted before its time, it never comes out', () => {
      const [deleted] = spec
        .given(scheduled())
        .when({ type: 'DeletePost', postId: 'p1', actorId: 'c1', at })
        .thenMatch([{ type: 'PostDeleted', data: { postId: 'p1', creatorId: 'c1' } }]);
      spec
        .given([...scheduled(), deleted])
        .when(tick(inAnHour))
        .thenNothing();
    });
  });

  describe('editing and deleting (issue 21)', () => {
    const edit = { type: 'EditPost' as const, postId: 'p1', actorId: 'c1', changes: { content: 'New' }, at };
    const remove = { type: 'DeletePost' as const, postId: 'p1', actorId: 'c1', at };

    it('lets the creator edit: the whole content after the edit', () => {
      spec
        .given([published])
        .when(edit)
        .then([
          {
            type: 'PostEdited',
            data: {
              postId: 'p1',
              creatorId: 'c1',
              title: 'T',
              content: 'New',
              mediaUrl: null,
              mediaType: null,
              isPublic: false,
              scheduledAt: null,
              at: at.toISOString(),
            },
          },
        ]);
    });

    it('refuses anyone else, and a deleted post is not found', () => {
      spec
        .given([published])
        .when({ ...edit, actorId: 'x' })
        .thenThrows('Only the creator of this post can change it');
      spec
        .given([published])
        .when({ ...remove, actorId: 'x' })
        .thenThrows({ kind: 'forbidden' });
      const [deleted] = spec.given([published]).when(remove).events;
      spec.given([published, deleted]).when(edit).thenThrows('Post not found');
      spec.given([published, deleted]).when(remove).thenThrows('Post not found');
      spec
        .given([published, deleted])
        .when({ type: 'ToggleLike', postId: 'p1', userId: 'm', at })
        .thenThrows('Post not found');
    });

    it('deletes a comment for its author or the post creator, no one else', () => {
      const comment = {
        type: 'CommentOnPost' as const,
        postId: 'p1',
        commentId: 'k1',
        userId: 'm1',
        content: 'hi',
        at,
      };
      const [commented] = spec.given([published]).when(comment).events;
      const del = (actorId: string) => ({ type: 'DeleteComment' as const, postId: 'p1', commentId: 'k1', actorId, at });
      spec
        .given([published, commented])
        .when(del('m1'))
        .thenMatch([{ type: 'PostCommentDeleted', data: { commentId: 'k1', userId: 'm1', deletedBy: 'm1' } }]);
      spec
        .given([published, commented])
        .when(del('c1'))
        .thenMatch([{ type: 'PostCommentDeleted', data: { userId: 'm1', deletedBy: 'c1' } }]);
      spec
        .given([published, commented])
        .when(del('m2'))
        .thenThrows('Only the author of a comment or the creator of the post can delete it');
      const [gone] = spec.given([published, commented]).when(del('m1')).events;
      spec.given([published, commented, gone]).when(del('m1')).thenThrows('Comment not found');
    });
  });
});
