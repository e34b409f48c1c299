import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { VaultPage } from './vault-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const user = (isCreator: boolean) => ({
  id: 'u1',
  email: 'c@example.com',
  firstName: 'C',
  lastName: 'R',
  profileImageUrl: null,
  role: isCreator ? 'creator' : 'subscriber',
  isCreator,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
});

const media = (id: string, kind: 'image' | 'video', status: string, extra: Record<string, unknown> = {}) => ({
  id,
  kind,
  status,
  width: 640,
  height: 360,
  bytes: 1000,
  createdAt: '2026-01-12T10:00:00.000Z',
  ...extra,
});

const photo = media('m1', 'image', 'ready', { thumbnailUrl: '/api/media/m1/files/w320.webp?exp=1&sig=s' });
const clip = media('m2', 'video', 'processing', { progress: 40, durationSeconds: 2 });
const broken = media('m3', 'video', 'failed', { failureReason: 'The video could not be decoded' });

function serve({ isCreator = true, deleteAnswer = { status: 204 } } = {}) {
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/auth/user') return { status: 200, body: user(isCreator) };
    if (call.url.startsWith('/api/media?')) {
      const params = new URLSearchParams(call.url.split('?')[1]);
      if (params.get('cursor') === 'next') return { status: 200, body: { items: [broken], nextCursor: null } };
      const kind = params.get('kind');
      const items = [photo, clip].filter((item) => !kind || item.kind === kind);
      return { status: 200, body: { items, nextCursor: kind ? null : 'next' } };
    }
    if (call.method === 'DELETE') return deleteAnswer;
    return { status: 404, body: { error: 'not found' } };
  });
}

const items = () => screen.getAllByTestId('vault-item');

describe('VaultPage', () => {
  it("lists the creator's media with thumbnails or kind icons and status chips, pages and filters", async () => {
    const calls = serve();
    renderWithApp(<VaultPage />, { path: '/vault' });
    await waitFor(() => expect(items()).toHaveLength(2));
    const [first, second] = items();
    expect(first!.querySelector('img')!.getAttribute('src')).toBe('/api/media/m1/files/w320.webp?exp=1&sig=s');
    expect(within(first!).getByText('Ready')).toBeTruthy();
    expect(second!.querySelector('img')).toBeNull();
    expect(within(second!).getByText('Processing 40%')).toBeTruthy();
    expect(within(second!).getByText(/^Video · .*0:02/)).toBeTruthy(); // its length as the player shows it
    expect((within(second!).getByRole('button', { name: 'Use in a post' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(within(items()[2]!).getByText('The video could not be decoded')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Videos' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(calls.some((call) => call.url === '/api/media?kind=video&limit=24')).toBe(true);
  });

  it('Use in a post opens the composer with the item preselected', async () => {
    serve();
    renderWithApp(<VaultPage />, { path: '/vault' });
    await waitFor(() => expect(items()).toHaveLength(2));
    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Use in a post' }));
    expect(screen.getByTestId('location').textContent).toBe('/dashboard');
  });

  it('deletes after confirmation, and shows the reason when the item is in use', async () => {
    const inUse = { error: 'This media is used by a post or message; remove it there first', code: 'MEDIA_IN_USE' };
    const calls = serve({ deleteAnswer: { status: 409, body: inUse } as never });
    renderWithApp(<VaultPage />, { path: '/vault' });
    await waitFor(() => expect(items()).toHaveLength(2));
    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false); // only after confirming
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText(inUse.error)).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')!.url).toBe('/api/media/m1');
  });

  it('a confirmed delete removes the item from the list', async () => {
    let deleted = false;
    installFakeFetch((call: FakeCall) => {
      if (call.url === '/api/auth/user') return { status: 200, body: user(true) };
      if (call.method === 'DELETE') {
        deleted = true;
        return { status: 204 };
      }
      return { status: 200, body: { items: deleted ? [clip] : [photo, clip], nextCursor: null } };
    });
    renderWithApp(<VaultPage />, { path: '/vault' });
    await waitFor(() => expect(items()).toHaveLength(2));
    fireEvent.click(within(items()[0]!).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is for creators only', async () => {
    serve({ isCreator: false });
    renderWithApp(<VaultPage />, { path: '/vault' });
    expect(await screen.findByText('The media vault is for creators.')).toBeTruthy();
    expect(screen.queryByTestId('media-drop-zone')).toBeNull();
  });
});
