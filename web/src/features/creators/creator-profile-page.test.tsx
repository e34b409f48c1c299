import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { Creator } from '@contracts/creators';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { CreatorProfilePage } from './creator-profile-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const creator: Creator = {
  id: 'c1',
  name: 'Carla Creator',
  firstName: 'Carla',
  lastName: 'Creator',
  bio: 'Hi',
  coverImageUrl: null,
  profileImageUrl: null,
  price: '9.99',
  postCount: 1,
  subscriberCount: 1,
  verified: false,
};

function renderProfile(profile: Creator) {
  installFakeFetch((call) => {
    if (call.url === '/api/auth/user') return { status: 401, body: { error: 'Unauthorized' } };
    if (call.url === '/api/creators/c1') return { status: 200, body: profile };
    if (call.url === '/api/creators/c1/posts') return { status: 200, body: [] };
    if (call.url === '/api/subscriptions/check/c1') return { status: 200, body: { subscribed: false } };
    return { status: 404, body: {} };
  });
  renderWithApp(
    <Routes>
      <Route path="/creator/:id" element={<CreatorProfilePage />} />
    </Routes>,
    { path: '/creator/c1' },
  );
}

describe('creator profile', () => {
  it('counts one post and one subscriber in the singular', async () => {
    renderProfile(creator);
    expect(await screen.findByText('1 post · 1 subscriber · from $9.99/month')).toBeTruthy();
  });

  it("titles the tab with the creator's name", async () => {
    renderProfile(creator);
    await screen.findByText('1 post · 1 subscriber · from $9.99/month');
    expect(document.title).toBe('Carla Creator · Lively');
  });

  it('counts several in the plural', async () => {
    renderProfile({ ...creator, postCount: 2, subscriberCount: 0 });
    expect(await screen.findByText('2 posts · 0 subscribers · from $9.99/month')).toBeTruthy();
  });

  it('a cover that fails to load leaves the gradient banner, not a blank one', async () => {
    renderProfile({ ...creator, coverImageUrl: 'https://img.test/broken.jpg' });
    const image = (await screen.findByTestId('creator-cover-image')) as HTMLImageElement;
    expect(image.src).toBe('https://img.test/broken.jpg');
    fireEvent.error(image);
    expect(screen.queryByTestId('creator-cover-image')).toBeNull();
    expect(screen.getByTestId('creator-cover')).toBeTruthy();
  });
});
