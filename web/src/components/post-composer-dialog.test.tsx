import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { PostComposerDialog } from './post-composer-dialog';

jest.setTimeout(30_000);
afterEach(cleanup);

const item = (id: string, status: string) => ({
  id,
  kind: 'image',
  status,
  width: 10,
  height: 10,
  bytes: 10,
  createdAt: '2026-01-01T00:00:00Z',
  ...(status === 'processing' ? { progress: 50 } : {}),
});

it('waits for preselected vault media to be ready, then sends their ids in order', async () => {
  let ready = false;
  const calls = installFakeFetch((call) => {
    const id = /\/api\/media\/(\w+)$/.exec(call.url)?.[1];
    if (id) return { status: 200, body: item(id, ready ? 'ready' : 'processing') };
    if (call.url === '/api/posts') return { status: 201, body: { id: 'p1' } };
    return { status: 404 };
  });
  renderWithApp(<PostComposerDialog open onClose={() => undefined} initialMediaIds={['m2', 'm1']} />);
  fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'T' } });
  fireEvent.change(screen.getByLabelText(/Content/), { target: { value: 'C' } });

  expect((await screen.findAllByText('Processing… 50%')).length).toBe(2);
  const create = screen.getByRole('button', { name: 'Create Post' }) as HTMLButtonElement;
  expect(create.disabled).toBe(true);
  ready = true;
  await waitFor(() => expect(create.disabled).toBe(false), { timeout: 5000 });

  fireEvent.click(create);
  await waitFor(() => expect(calls.some((call) => call.url === '/api/posts')).toBe(true));
  expect(calls.find((call) => call.url === '/api/posts')!.body).toEqual({
    title: 'T',
    content: 'C',
    isPublic: false,
    mediaIds: ['m2', 'm1'],
  });
});

it('a locked post refused for an unverified identity says so and links to the verification page', async () => {
  installFakeFetch((call) =>
    call.url === '/api/posts'
      ? {
          status: 403,
          body: { error: 'Verify your identity to publish locked posts', code: 'IDENTITY_VERIFICATION_REQUIRED' },
        }
      : { status: 404 },
  );
  renderWithApp(<PostComposerDialog open onClose={() => undefined} />);
  fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'T' } });
  fireEvent.change(screen.getByLabelText(/Content/), { target: { value: 'C' } });
  fireEvent.click(screen.getByRole('button', { name: 'Create Post' }));
  const alert = await screen.findByTestId('identity-required');
  expect(alert.textContent).toContain('Verify your identity to publish locked posts.');
  expect(screen.getByRole('link', { name: 'Verify identity' }).getAttribute('href')).toBe('/dashboard/verification');
});
