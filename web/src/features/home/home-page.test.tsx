import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { Creator } from '@contracts/creators';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { HomePage } from './home-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const EMPTY_FEED = 'No posts in your feed yet. Subscribe to creators to see their content!';

const creator: Creator = {
  id: 'c1',
  name: 'Carla Creator',
  firstName: 'Carla',
  lastName: 'Creator',
  bio: 'Hi',
  coverImageUrl: null,
  profileImageUrl: null,
  price: '9.99',
  postCount: 1,
  subscriberCount: 0,
  verified: false,
};

function serve(feed: (call: FakeCall) => FakeAnswer, creators: Creator[] = [creator]) {
  return installFakeFetch((call) => {
    if (call.url === '/api/auth/user') return { status: 401, body: { error: 'Unauthorized' } };
    if (call.url === '/api/creators?limit=6') return { status: 200, body: creators };
    if (call.url.startsWith('/api/posts/feed')) return feed(call);
    return { status: 404, body: {} };
  });
}

const emptyFeed = (): FakeAnswer => ({ status: 200, body: { posts: [], nextCursor: null } });

describe('home background', () => {
  afterEach(() => jest.restoreAllMocks());

  it('passes over covers that fail to load, then falls back to the gradient', async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0);
    serve(emptyFeed, [
      { ...creator, id: 'c1', coverImageUrl: 'https://img.test/one.jpg' },
      { ...creator, id: 'c2', coverImageUrl: null },
      { ...creator, id: 'c3', coverImageUrl: 'https://img.test/three.jpg' },
    ]);
    renderWithApp(<HomePage />);
    const first = (await screen.findByTestId('home-background-image')) as HTMLImageElement;
    expect(first.src).toBe('https://img.test/one.jpg');
    fireEvent.error(first);
    const second = screen.getByTestId('home-background-image') as HTMLImageElement;
    expect(second.src).toBe('https://img.test/three.jpg');
    fireEvent.error(second);
    expect(screen.queryByTestId('home-background-image')).toBeNull();
    expect(screen.getByTestId('home-background')).toBeTruthy();
    // The cards' own covers failed the same way: each falls back to its gradient on its own.
    expect(screen.getAllByTestId('creator-card-cover')).toHaveLength(3);
  });

  it("takes the random creator's cover, a public media URL when it was uploaded", async () => {
    jest.spyOn(Math, 'random').mockReturnValue(0.6);
    const mediaCover = '/api/media/7f3c0d4e-0000-4000-8000-000000000002/public/w1280.webp';
    serve(emptyFeed, [
      { ...creator, id: 'c1', coverImageUrl: 'https://img.test/one.jpg' },
      { ...creator, id: 'c2', coverImageUrl: null },
      { ...creator, id: 'c3', coverImageUrl: mediaCover },
    ]);
    renderWithApp(<HomePage />);
    // Two covers, a draw of 0.6: the second one.
    const background = await screen.findByTestId('home-background-image');
    expect(background.getAttribute('src')).toBe(mediaCover);
  });

  it('has no cover background while no creator has a cover', async () => {
    serve(emptyFeed);
    renderWithApp(<HomePage />);
    expect(await screen.findByText('Carla Creator')).toBeTruthy();
    expect(screen.queryByTestId('home-background')).toBeNull();
  });
});

describe('home feed', () => {
  it('a failed feed request shows an error with Retry, not the empty feed; Retry asks again', async () => {
    let fail = true;
    const calls = serve(() =>
      fail
        ? { status: 500, body: { error: 'Internal server error' } }
        : { status: 200, body: { posts: [], nextCursor: null } },
    );
    renderWithApp(<HomePage />);
    expect(await screen.findByText('Could not load your feed. Please try again.')).toBeTruthy();
    expect(screen.queryByText(EMPTY_FEED)).toBeNull();
    const before = calls.filter((call) => call.url.startsWith('/api/posts/feed')).length;
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(EMPTY_FEED)).toBeTruthy();
    expect(calls.filter((call) => call.url.startsWith('/api/posts/feed')).length).toBe(before + 1);
    expect(screen.queryByText('Could not load your feed. Please try again.')).toBeNull();
  });

  it('an empty feed keeps the empty-state text and Explore Creators', async () => {
    serve(() => ({ status: 200, body: { posts: [], nextCursor: null } }));
    renderWithApp(<HomePage />);
    expect(await screen.findByText(EMPTY_FEED)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Explore Creators' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});
