import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Post } from '@contracts/posts';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { ScheduledPostsPanel } from './scheduled-posts-panel';

jest.setTimeout(30_000);
afterEach(cleanup);

const scheduledAt = '2030-05-01T09:30:00.000Z';
const post: Post = {
  id: 'p9',
  creatorId: 'c1',
  creator: { id: 'c1', name: 'Carla Creator', profileImageUrl: null },
  title: 'Premiere',
  content: 'Soon',
  mediaUrl: null,
  mediaType: null,
  hasMedia: false,
  isPublic: false,
  locked: false,
  likeCount: 0,
  commentCount: 0,
  liked: false,
  createdAt: scheduledAt,
  media: [],
  scheduledAt,
};

it('lists scheduled posts with their time, edits the time and cancels after asking', async () => {
  let list = [post];
  const calls = installFakeFetch((call) => {
    if (call.url === '/api/posts/scheduled') return { status: 200, body: list };
    if (call.method === 'PATCH') return { status: 200, body: post };
    if (call.method === 'DELETE') {
      list = [];
      return { status: 204 };
    }
    return { status: 404 };
  });
  renderWithApp(<ScheduledPostsPanel />);
  const row = await screen.findByTestId('scheduled-post');
  expect(within(row).getByText('Premiere')).toBeTruthy();
  expect(within(row).getByText(/^Publishes \d+ May 2030, \d\d:\d\d$/)).toBeTruthy();

  fireEvent.click(within(row).getByRole('button', { name: 'Edit Premiere' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Post' });
  expect(within(dialog).queryByLabelText('Publish later')).toBeNull(); // it keeps a time
  fireEvent.change(within(dialog).getByLabelText('Publish at'), { target: { value: '2030-05-02T10:00' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
  await waitFor(() => expect(calls.some((call) => call.method === 'PATCH')).toBe(true));
  expect(calls.find((call) => call.method === 'PATCH')!.body).toEqual({
    scheduledAt: new Date('2030-05-02T10:00').toISOString(),
  });

  fireEvent.click(within(row).getByRole('button', { name: 'Cancel Premiere' }));
  const confirm = await screen.findByRole('dialog', { name: 'Cancel this scheduled post?' });
  fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel Post' }));
  expect(await screen.findByText(/No scheduled posts/)).toBeTruthy();
  expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual(['/api/posts/p9']);
});
