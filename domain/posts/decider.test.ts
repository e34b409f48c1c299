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
});
