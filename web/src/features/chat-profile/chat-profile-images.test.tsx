import '@/test-support/jsdom-setup';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { ProfileSetupPage } from './profile-setup-page';

jest.setTimeout(30_000);
afterEach(cleanup);

let uploads = 0;
/** The multipart upload's XMLHttpRequest, answered at once with a new media item: m1, m2, … */
class InstantXhr {
  status = 201;
  responseText = JSON.stringify({ id: `m${++uploads}`, kind: 'image', status: 'processing' });
  upload = { onprogress: null };
  onload: (() => void) | null = null;
  onerror = null;
  withCredentials = false;
  open() {}
  setRequestHeader() {}
  abort() {}
  send() {
    setTimeout(() => act(() => this.onload?.()), 0);
  }
}

beforeEach(() => {
  uploads = 0;
  Object.assign(globalThis, { XMLHttpRequest: InstantXhr });
  Object.assign(URL, { createObjectURL: () => 'blob:local', revokeObjectURL: () => undefined });
});

const url = (id: string) => `/api/media/${id}/public/w640.webp`;

/** A chat profile whose images the fake server keeps as the API does (by media id, in order). */
function serve(initial: string[] | null) {
  let images = initial;
  let polls = 0;
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/profile' && call.method === 'GET')
      return images
        ? { status: 200, body: { userId: 'u1', displayName: 'Sam', profileImages: images.map(url) } }
        : { status: 404 };
    // m1 is still processing when first asked; the others are ready at once.
    const item = /^\/api\/media\/(m\d+)$/.exec(call.url)?.[1];
    if (item) {
      const status = item === 'm1' && polls++ === 0 ? 'processing' : 'ready';
      return { status: 200, body: { id: item, kind: 'image', status, width: 640, height: 480, bytes: 1 } };
    }
    if (call.url === '/api/profile/images' && call.method === 'POST') {
      const made = `c${(call.body as { mediaId: string }).mediaId}`;
      images = [...images!, made];
      return { status: 201, body: { mediaId: made, url: url(made), width: 640, height: 480 } };
    }
    if (call.url === '/api/profile/images/order') {
      images = (call.body as { mediaIds: string[] }).mediaIds;
      return { status: 204 };
    }
    if (call.method === 'DELETE') {
      images = images!.filter((id) => call.url !== `/api/profile/images/${id}`);
      return { status: 204 };
    }
    return { status: 404, body: { error: 'not found' } };
  });
}

const shown = () => screen.queryAllByTestId('chat-image').map((tile) => tile.querySelector('img')!.getAttribute('src'));

describe('Chat profile photos', () => {
  it('shows the photos in order, moves one earlier and removes one', async () => {
    const calls = serve(['a1', 'b2', 'c3']);
    renderWithApp(<ProfileSetupPage />, { path: '/profile-setup' });
    await waitFor(() => expect(shown()).toEqual([url('a1'), url('b2'), url('c3')]));
    expect((screen.getByRole('button', { name: 'Move Photo 1 of 3 earlier' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Move Photo 3 of 3 earlier' }));
    await waitFor(() => expect(shown()).toEqual([url('a1'), url('c3'), url('b2')]));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ mediaIds: ['a1', 'c3', 'b2'] });

    fireEvent.click(screen.getByRole('button', { name: 'Remove Photo 1 of 3' }));
    await waitFor(() => expect(shown()).toEqual([url('c3'), url('b2')]));
    expect(calls.find((call) => call.method === 'DELETE')!.url).toBe('/api/profile/images/a1');
  });

  it("uploads photos and adds each to the profile once processed, in the uploader's order", async () => {
    const calls = serve(['a1']);
    renderWithApp(<ProfileSetupPage />, { path: '/profile-setup' });
    await waitFor(() => expect(shown()).toHaveLength(1));
    const section = screen.getByRole('region', { name: 'Profile Photos' });
    const file = (name: string) => new File(['jpeg'], name, { type: 'image/jpeg' });
    fireEvent.change(within(section).getByTestId('media-file-input'), {
      target: { files: [file('first.jpg'), file('second.jpg')] },
    });
    // The second is ready first, yet waits for the first (still processing at the first poll).
    await waitFor(() => expect(shown()).toEqual([url('a1'), url('cm1'), url('cm2')]), { timeout: 5000 });
    const added = calls.filter((call) => call.url === '/api/profile/images').map((call) => call.body);
    expect(added).toEqual([{ mediaId: 'm1' }, { mediaId: 'm2' }]);
    await waitFor(() => expect(screen.queryAllByTestId('upload-entry')).toHaveLength(0));
  });

  it('offers no upload once the profile has six photos, and nothing before the profile exists', async () => {
    serve(['a', 'b', 'c', 'd', 'e', 'f']);
    renderWithApp(<ProfileSetupPage />, { path: '/profile-setup' });
    expect(await screen.findByText('Your profile has 6 photos: remove one to add another.')).toBeTruthy();
    expect(screen.queryByTestId('media-drop-zone')).toBeNull();
    cleanup();

    const calls = serve(null);
    renderWithApp(<ProfileSetupPage />, { path: '/profile-setup' });
    await waitFor(() => expect(calls.some((call) => call.url === '/api/profile')).toBe(true));
    expect(screen.getByText('Basic Profile')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Profile Photos' })).toBeNull();
  });
});
