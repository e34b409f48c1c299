import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { MediaAttachment } from '@contracts/media';
import type { Post } from '@contracts/posts';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { MediaGallery } from './media-gallery';
import { PostCard } from './post-card';

jest.setTimeout(30_000);
afterEach(cleanup);

const photo = (id: string, entitled: boolean): MediaAttachment => ({
  id,
  kind: 'image',
  width: 1280,
  height: 960,
  previewUrl: `/api/media/${id}/files/preview.webp?sig=p`,
  ...(entitled ? { url: `/api/media/${id}/files/w1280.webp?sig=u` } : {}),
});
const video = (id: string, entitled: boolean): MediaAttachment => ({
  id,
  kind: 'video',
  width: 640,
  height: 360,
  durationSeconds: 2,
  previewUrl: `/api/media/${id}/files/preview-poster.webp?sig=p`,
  ...(entitled
    ? { url: `/api/media/${id}/files/720p.mp4?sig=u`, posterUrl: `/api/media/${id}/files/poster.jpg?sig=u` }
    : {}),
});

const sources = () => [...document.querySelectorAll('img, video')].map((el) => el.getAttribute('src'));

describe('MediaGallery', () => {
  it('shows entitled photos by url, a video as its poster until tapped, and opens a lightbox', async () => {
    renderWithApp(<MediaGallery media={[photo('a', true), photo('b', true), video('v', true)]} alt="Beach day" />);
    // No player in the page until the member asks for one: only its poster, its length and a play button.
    expect(document.querySelector('video')).toBeNull();
    const play = screen.getByRole('button', { name: 'Play video: Beach day (3 of 3), 0:02' });
    expect(play.querySelector('img')!.getAttribute('src')).toBe('/api/media/v/files/poster.jpg?sig=u');
    expect(play.textContent).toBe('0:02');

    fireEvent.click(play);
    const player = document.querySelector('video')!;
    expect(player.getAttribute('src')).toBe('/api/media/v/files/720p.mp4?sig=u');
    expect(player.getAttribute('poster')).toBe('/api/media/v/files/poster.jpg?sig=u');
    expect(player.hasAttribute('controls')).toBe(true);
    expect(player.autoplay).toBe(true);
    expect(player.hasAttribute('playsinline')).toBe(true);
    expect(player.getAttribute('aria-label')).toBe('Beach day (3 of 3)');
    expect(screen.queryByRole('button', { name: /Play video/ })).toBeNull();
    expect(sources().some((src) => src?.includes('preview'))).toBe(false);
    expect(screen.queryByTestId('media-locked-overlay')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Open photo: Beach day (1 of 3)' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('img')!.getAttribute('src')).toBe('/api/media/a/files/w1280.webp?sig=u');
    expect(screen.getByText('1 / 2')).toBeTruthy(); // the lightbox pages through the photos only
    fireEvent.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(dialog.querySelector('img')!.getAttribute('alt')).toBe('Beach day (2 of 2)');
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(screen.getByText('1 / 2')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Open photo: Beach day (2 of 3)' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows only blurred previews under the locked prompt when not entitled', () => {
    renderWithApp(
      <MediaGallery
        media={[photo('a', false), video('v', false)]}
        alt="Locked"
        lockedOverlay={<button type="button">Subscribe to unlock</button>}
      />,
    );
    expect(sources()).toEqual([
      '/api/media/a/files/preview.webp?sig=p',
      '/api/media/v/files/preview-poster.webp?sig=p',
    ]);
    expect(document.querySelector('video')).toBeNull();
    expect(screen.getByTestId('media-locked-overlay').textContent).toContain('Subscribe to unlock');
    expect(screen.queryByRole('button', { name: /Open photo/ })).toBeNull();
  });
});

const post = (overrides: Partial<Post>): Post => ({
  id: 'p1',
  creatorId: 'c1',
  title: 'Sunset set',
  content: '',
  mediaUrl: null,
  mediaType: null,
  isPublic: false,
  locked: true,
  hasMedia: true,
  creator: { id: 'c1', name: 'Ava', profileImageUrl: null },
  likeCount: 0,
  commentCount: 0,
  liked: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  media: [],
  ...overrides,
});

describe('PostCard with uploaded media', () => {
  beforeEach(() => installFakeFetch(() => ({ status: 404 })));

  it("puts a locked post's prompt over its blurred previews", () => {
    const subscribe = jest.fn();
    renderWithApp(<PostCard post={post({ media: [photo('a', false), photo('b', false)] })} onSubscribe={subscribe} />);
    expect(sources()).toEqual(['/api/media/a/files/preview.webp?sig=p', '/api/media/b/files/preview.webp?sig=p']);
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to unlock' }));
    expect(subscribe).toHaveBeenCalled();
  });

  it('shows an unlocked post its full media, and an old post its mediaUrl as before', () => {
    renderWithApp(<PostCard post={post({ locked: false, content: 'Hi', media: [photo('a', true)] })} />);
    expect(sources()).toEqual(['/api/media/a/files/w1280.webp?sig=u']);
    cleanup();
    renderWithApp(
      <PostCard
        post={post({ locked: false, content: 'Old', mediaUrl: 'https://example.com/x.jpg', mediaType: 'image' })}
      />,
    );
    expect(sources()).toEqual(['https://example.com/x.jpg']);
    cleanup();
    renderWithApp(
      <PostCard
        post={post({ locked: false, content: 'Old', mediaUrl: 'https://example.com/x.mp4', mediaType: 'video' })}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Play video: Sunset set' }));
    expect(sources()).toEqual(['https://example.com/x.mp4']);
  });
});
