import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Comment, Post } from '@contracts/posts';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { PostCard } from './post-card';
import { PostComposerDialog } from './post-composer-dialog';

/** The creator's tools on their posts (issue 21): the owner menu, the edit dialog, deleting posts and comments. */
jest.setTimeout(30_000);
afterEach(cleanup);

const post: Post = {
  id: 'p1',
  creatorId: 'c1',
  creator: { id: 'c1', name: 'Carla Creator', profileImageUrl: null },
  title: 'Sunset set',
  content: 'Golden hour',
  mediaUrl: null,
  mediaType: null,
  hasMedia: false,
  isPublic: true,
  locked: false,
  likeCount: 0,
  commentCount: 2,
  liked: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  media: [],
};

const comments: Comment[] = [
  { id: 'k1', postId: 'p1', userId: 'm1', userName: 'Mia Member', content: 'Lovely', createdAt: post.createdAt },
  { id: 'k2', postId: 'p1', userId: 'm2', userName: 'Max Other', content: 'Wow', createdAt: post.createdAt },
];

/** The server as the card sees it, signed in as `userId`. */
function serve(userId: string): FakeCall[] {
  return installFakeFetch((call) => {
    if (call.url === '/api/auth/user')
      return { status: 200, body: { id: userId, isCreator: userId === 'c1', subscriptionStatus: 'active' } };
    if (call.url === '/api/posts/p1/comments' && call.method === 'GET') return { status: 200, body: comments };
    if (call.url === '/api/posts/p1' && call.method === 'PATCH') return { status: 200, body: post };
    if (call.method === 'DELETE') return { status: 204 };
    return { status: 404, body: { error: 'Not found' } };
  });
}

const sent = (calls: FakeCall[], method: string) => calls.filter((call) => call.method === method);

it('offers its creator Edit and Delete; the edit sends only what changed', async () => {
  const calls = serve('c1');
  renderWithApp(<PostCard post={post} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Post options for Sunset set' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Edit post' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Post' });
  expect((within(dialog).getByLabelText(/Title/) as HTMLInputElement).value).toBe('Sunset set');
  expect(within(dialog).queryByLabelText('Publish later')).toBeNull(); // published: its time is fixed
  fireEvent.change(within(dialog).getByLabelText(/Content/), { target: { value: 'Golden hour, edited' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
  await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
  expect(sent(calls, 'PATCH')[0]).toMatchObject({ url: '/api/posts/p1', body: { content: 'Golden hour, edited' } });
});

it('deletes only after the creator confirms', async () => {
  const calls = serve('c1');
  renderWithApp(<PostCard post={post} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Post options for Sunset set' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Delete post' }));
  const confirm = await screen.findByRole('dialog', { name: 'Delete this post?' });
  fireEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(sent(calls, 'DELETE')).toHaveLength(0);
  fireEvent.click(screen.getByRole('button', { name: 'Post options for Sunset set' }));
  fireEvent.click(screen.getByRole('menuitem', { name: 'Delete post' }));
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete Post' }));
  await waitFor(() => expect(sent(calls, 'DELETE').map((call) => call.url)).toEqual(['/api/posts/p1']));
  expect(await screen.findByText('Post deleted')).toBeTruthy();
});

it('gives another member no owner menu, and a Delete only on their own comments', async () => {
  const calls = serve('m1');
  renderWithApp(<PostCard post={post} />);
  fireEvent.click(screen.getByRole('button', { name: /2 comments/ }));
  await screen.findByText('Lovely');
  expect(screen.queryByRole('button', { name: /Post options/ })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Delete comment by Max Other' })).toBeNull();
  fireEvent.click(await screen.findByRole('button', { name: 'Delete comment by Mia Member' }));
  await waitFor(() => expect(sent(calls, 'DELETE').map((call) => call.url)).toEqual(['/api/posts/p1/comments/k1']));
});

it("lets the post's creator delete anyone's comment", async () => {
  serve('c1');
  renderWithApp(<PostCard post={post} />);
  fireEvent.click(screen.getByRole('button', { name: /2 comments/ }));
  expect(await screen.findByRole('button', { name: 'Delete comment by Max Other' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Delete comment by Mia Member' })).toBeTruthy();
});

it('schedules a new post for a future time, and refuses a past one before sending', async () => {
  const calls = installFakeFetch((call) =>
    call.url === '/api/posts' ? { status: 201, body: { ...post, id: 'p2' } } : { status: 404 },
  );
  renderWithApp(<PostComposerDialog open onClose={() => undefined} />);
  fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'Premiere' } });
  fireEvent.change(screen.getByLabelText(/Content/), { target: { value: 'Soon' } });
  fireEvent.click(screen.getByLabelText('Publish later'));
  fireEvent.change(screen.getByLabelText('Publish at'), { target: { value: '2020-01-01T10:00' } });
  fireEvent.click(screen.getByRole('button', { name: 'Schedule Post' }));
  expect(await screen.findByText('Choose a time in the future')).toBeTruthy();
  expect(calls.some((call) => call.url === '/api/posts')).toBe(false);

  const later = new Date(Date.now() + 2 * 60 * 60_000);
  const local = new Date(later.getTime() - later.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  fireEvent.change(screen.getByLabelText('Publish at'), { target: { value: local } });
  fireEvent.click(screen.getByRole('button', { name: 'Schedule Post' }));
  await waitFor(() => expect(calls.some((call) => call.url === '/api/posts')).toBe(true));
  const body = calls.find((call) => call.url === '/api/posts')!.body as { scheduledAt: string };
  expect(Math.abs(Date.parse(body.scheduledAt) - later.getTime())).toBeLessThan(60_000);
});
