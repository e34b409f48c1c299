import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { CreatorJourney } from './creator-journey';
import { PostComposerDialog } from '@/components/post-composer-dialog';

jest.setTimeout(30_000);
afterEach(cleanup);

describe('creator flows', () => {
  it('validates the New Post modal before sending and reports a failure', async () => {
    const calls = installFakeFetch(() => ({ status: 500, body: { error: 'boom' } }));
    renderWithApp(<PostComposerDialog open onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create Post' }));
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Content is required')).toBeTruthy();
    expect(calls).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/Title/), { target: { value: 'T' } });
    fireEvent.change(screen.getByLabelText(/Content/), { target: { value: 'C' } });
    fireEvent.click(screen.getByLabelText('Make public (visible to all users)'));
    fireEvent.click(screen.getByRole('button', { name: 'Create Post' }));
    expect(await screen.findByText('Failed to create post. Please try again.')).toBeTruthy();
    expect(calls[0].body).toEqual({ title: 'T', content: 'C', isPublic: true });
  });

  it('requires a bio to become a creator and reports a failed registration', async () => {
    installFakeFetch(() => ({ status: 500, body: {} }));
    renderWithApp(<CreatorJourney />);
    fireEvent.click(screen.getByRole('button', { name: 'Start Your Creator Journey' }));
    fireEvent.click(screen.getByRole('button', { name: 'Become Creator' }));
    expect(await screen.findByText('Bio is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Bio/), { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Become Creator' }));
    expect(await screen.findByText('Failed to register as creator. Please try again.')).toBeTruthy();
  });
});
