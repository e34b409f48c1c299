import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { Post } from '@contracts/posts';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { PostCard } from './post-card';

jest.setTimeout(30_000);
afterEach(cleanup);

const lockedPost: Post = {
  id: 'p1',
  creatorId: 'c1',
  creator: { id: 'c1', name: 'Carla Creator', profileImageUrl: null },
  title: 'Secret set',
  content: null,
  mediaUrl: null,
  mediaType: 'image',
  hasMedia: true,
  isPublic: false,
  locked: true,
  likeCount: 0,
  commentCount: 0,
  liked: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  media: [],
};

describe('creator flows', () => {
  it('shows the locked overlay with a Subscribe prompt and no content', () => {
    const onSubscribe = jest.fn();
    renderWithApp(<PostCard post={lockedPost} onSubscribe={onSubscribe} />);
    expect(screen.getByTestId('locked-overlay')).toBeTruthy();
    expect(screen.queryByTestId('post-content')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to unlock' }));
    expect(onSubscribe).toHaveBeenCalled();
  });

  it('a failed like says so', async () => {
    installFakeFetch(() => ({ status: 500, body: {} }));
    renderWithApp(<PostCard post={{ ...lockedPost, locked: false, content: 'Hi', isPublic: true }} />);
    fireEvent.click(screen.getByRole('button', { name: /^Like, 0 likes$/ }));
    expect(await screen.findByText('Failed to like post.')).toBeTruthy();
  });
});
