import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { Creator } from '@contracts/creators';
import { renderWithApp } from '@/test-support/render';
import { CreatorCard } from './creator-card';

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
  subscriberCount: 0,
  verified: false,
};

describe('creator card', () => {
  it.each([
    [0, 'From $9.99/month · 0 posts'],
    [1, 'From $9.99/month · 1 post'],
    [2, 'From $9.99/month · 2 posts'],
  ])('counts %i posts in the right number', (postCount, label) => {
    renderWithApp(<CreatorCard creator={{ ...creator, postCount }} />);
    expect(screen.getByText(label)).toBeTruthy();
  });

  it('shows the cover, and the gradient alone when the cover fails to load', () => {
    renderWithApp(<CreatorCard creator={{ ...creator, coverImageUrl: 'https://img.test/broken.jpg' }} />);
    const image = screen.getByTestId('creator-card-cover-image') as HTMLImageElement;
    expect(image.src).toBe('https://img.test/broken.jpg');
    fireEvent.error(image);
    expect(screen.queryByTestId('creator-card-cover-image')).toBeNull();
    expect(screen.getByTestId('creator-card-cover')).toBeTruthy();
  });

  it('marks a verified creator with a labelled badge, and nobody else', () => {
    renderWithApp(<CreatorCard creator={{ ...creator, verified: true }} />);
    expect(screen.getByRole('img', { name: 'Verified creator' })).toBeTruthy();
    cleanup();
    renderWithApp(<CreatorCard creator={creator} />);
    expect(screen.queryByRole('img', { name: 'Verified creator' })).toBeNull();
  });

  it('shows the gradient without a cover', () => {
    renderWithApp(<CreatorCard creator={creator} />);
    expect(screen.getByTestId('creator-card-cover')).toBeTruthy();
    expect(screen.queryByTestId('creator-card-cover-image')).toBeNull();
  });
});
