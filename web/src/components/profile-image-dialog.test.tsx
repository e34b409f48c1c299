import '@/test-support/jsdom-setup';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { centredCrop, clampCrop } from './image-crop';
import { ProfileImageDialog } from './profile-image-dialog';

jest.setTimeout(30_000);
afterEach(cleanup);

/** The multipart upload's XMLHttpRequest, answered at once with a new media id. */
class InstantXhr {
  status = 201;
  responseText = JSON.stringify({ id: 'm1', kind: 'image', status: 'processing' });
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
  Object.assign(globalThis, { XMLHttpRequest: InstantXhr });
  Object.assign(URL, { createObjectURL: () => 'blob:local', revokeObjectURL: () => undefined });
});

const landscape = {
  id: 'm1',
  kind: 'image',
  status: 'ready',
  width: 1600,
  height: 1000,
  bytes: 1,
  createdAt: '2026-01-01T00:00:00Z',
  thumbnailUrl: '/api/media/m1/files/w320.webp?sig=s',
};

function serve() {
  return installFakeFetch((call) => {
    if (call.url === '/api/media/m1') return { status: 200, body: landscape };
    if (call.method === 'PUT')
      return { status: 200, body: { mediaId: 'm2', url: '/api/media/m2/public/w320.webp', width: 1000, height: 1000 } };
    return { status: 404 };
  });
}

async function uploadAndCrop(slot: 'avatar' | 'cover') {
  const calls = serve();
  renderWithApp(<ProfileImageDialog slot={slot} open onClose={() => undefined} />);
  expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  fireEvent.change(screen.getByTestId('media-file-input'), {
    target: { files: [new File(['jpeg'], 'me.jpg', { type: 'image/jpeg' })] },
  });
  const box = await screen.findByTestId('crop-box');
  return { calls, box };
}

describe('ProfileImageDialog', () => {
  it('crops an avatar to a square the user moves, and sends it in the image pixels', async () => {
    const { calls, box } = await uploadAndCrop('avatar');
    expect(box.getAttribute('aria-valuetext')).toBe('1000 by 1000 pixels at 300, 0');
    fireEvent.keyDown(box, { key: 'ArrowRight' });
    fireEvent.keyDown(box, { key: 'ArrowDown' }); // already as low as it goes
    expect(box.getAttribute('aria-valuetext')).toBe('1000 by 1000 pixels at 332, 0');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.url).toBe('/api/me/avatar');
    expect(put.body).toEqual({ mediaId: 'm1', crop: { x: 332, y: 0, width: 1000, height: 1000 } });
    expect(await screen.findByText('Your profile photo was updated.')).toBeTruthy();
  });

  it('a cover keeps 3:1 and goes to the creator cover endpoint', async () => {
    const { calls, box } = await uploadAndCrop('cover');
    expect(box.getAttribute('aria-valuetext')).toBe('1600 by 533 pixels at 0, 234');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.url).toBe('/api/creators/me/cover');
    expect(put.body).toEqual({ mediaId: 'm1', crop: { x: 0, y: 234, width: 1600, height: 533 } });
  });
});

describe('crop geometry', () => {
  it('centres the largest rectangle of the aspect, smaller when zoomed, and keeps it inside', () => {
    expect(centredCrop(1600, 1000, 1)).toEqual({ x: 300, y: 0, width: 1000, height: 1000 });
    expect(centredCrop(1600, 1000, 1, 2)).toEqual({ x: 550, y: 250, width: 500, height: 500 });
    expect(clampCrop({ x: -40, y: 900, width: 500, height: 500 }, 1600, 1000)).toEqual({
      x: 0,
      y: 500,
      width: 500,
      height: 500,
    });
  });
});
