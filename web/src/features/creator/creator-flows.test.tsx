import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { Creator } from '@contracts/creators';
import type { Post } from '@contracts/posts';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { NewPostDialog } from '@/features/dashboard/new-post-dialog';
import { CreatorJourney } from '@/features/dashboard/creator-journey';
import { PostCard } from './post-card';
import { SubscribeDialog } from './subscribe-dialog';

jest.setTimeout(30_000);
afterEach(cleanup);

const creator: Creator = { id: 'c1', name: 'Carla Creator', firstName: 'Carla', lastName: 'Creator', bio: 'Bio', coverImageUrl: null, profileImageUrl: null, price: '12.99', postCount: 1, subscriberCount: 0 };
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
};
const tiers = [
  { id: 'default-basic', creatorId: 'c1', name: 'Basic', description: '', price: '9.99', features: ['A'], popular: false, isDefault: true },
  { id: 'default-premium', creatorId: 'c1', name: 'Premium', description: 'Most Popular', price: '19.99', features: ['B'], popular: true, isDefault: true },
  { id: 'default-vip', creatorId: 'c1', name: 'VIP', description: '', price: '39.99', features: ['C'], popular: false, isDefault: true },
];

describe('creator flows', () => {
  it('shows the locked overlay with a Subscribe prompt and no content', () => {
    const onSubscribe = jest.fn();
    renderWithApp(<PostCard post={lockedPost} onSubscribe={onSubscribe} />);
    expect(screen.getByTestId('locked-overlay')).toBeTruthy();
    expect(screen.queryByTestId('post-content')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to unlock' }));
    expect(onSubscribe).toHaveBeenCalled();
  });

  it('lists tiers with the money-back and cancel copy; a failed subscribe says so', async () => {
    const calls = installFakeFetch((call) => (call.method === 'GET' ? { status: 200, body: tiers } : { status: 402, body: { error: 'Your card was declined.' } }));
    renderWithApp(<SubscribeDialog creator={creator} open onClose={() => undefined} />);
    expect(await screen.findByText('Most Popular')).toBeTruthy();
    expect(screen.getByText(/7-day money-back guarantee\. Cancel anytime\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to VIP' }));
    expect(await screen.findByText('Subscription failed')).toBeTruthy();
    expect(screen.getByText('Please try again later.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ creatorId: 'c1', tierId: 'default-vip' });
  });

  it('a successful subscribe welcomes the member to the community', async () => {
    installFakeFetch((call) => (call.method === 'GET' ? { status: 200, body: tiers } : { status: 201, body: {} }));
    renderWithApp(<SubscribeDialog creator={creator} open onClose={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to Premium' }));
    expect(await screen.findByText('Subscription successful!')).toBeTruthy();
    expect(screen.getByText("Welcome to the creator's community!")).toBeTruthy();
  });

  it('validates the New Post modal before sending and reports a failure', async () => {
    const calls = installFakeFetch(() => ({ status: 500, body: { error: 'boom' } }));
    renderWithApp(<NewPostDialog open onClose={() => undefined} />);
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

  it('a failed like says so', async () => {
    installFakeFetch(() => ({ status: 500, body: {} }));
    renderWithApp(<PostCard post={{ ...lockedPost, locked: false, content: 'Hi', isPublic: true }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Like' }));
    expect(await screen.findByText('Failed to like post.')).toBeTruthy();
  });
});
