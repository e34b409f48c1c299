import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { Creator } from '@contracts/creators';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { SubscribeDialog } from './subscribe-dialog';

jest.setTimeout(30_000);
afterEach(cleanup);

const creator: Creator = {
  id: 'c1',
  name: 'Carla Creator',
  firstName: 'Carla',
  lastName: 'Creator',
  bio: 'Bio',
  coverImageUrl: null,
  profileImageUrl: null,
  price: '12.99',
  postCount: 1,
  subscriberCount: 0,
  verified: false,
};
const tiers = [
  {
    id: 'default-basic',
    creatorId: 'c1',
    name: 'Basic',
    description: '',
    price: '9.99',
    features: ['A'],
    popular: false,
    isDefault: true,
  },
  {
    id: 'default-premium',
    creatorId: 'c1',
    name: 'Premium',
    description: 'Most Popular',
    price: '19.99',
    features: ['B'],
    popular: true,
    isDefault: true,
  },
  {
    id: 'default-vip',
    creatorId: 'c1',
    name: 'VIP',
    description: '',
    price: '39.99',
    features: ['C'],
    popular: false,
    isDefault: true,
  },
];

describe('creator flows', () => {
  it('lists tiers with the money-back and cancel copy; a failed subscribe says so', async () => {
    const calls = installFakeFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: tiers }
        : { status: 402, body: { error: 'Your card was declined.' } },
    );
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
});
