import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { CurrentUser } from '@contracts/accounts';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { membershipSummary, ProfilePage } from './profile-page';

const member: CurrentUser = {
  id: 'u-7',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  profileImageUrl: null,
  role: 'subscriber',
  isCreator: false,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: new Date(2027, 1, 12, 12).toISOString(),
  createdAt: new Date(2027, 0, 12, 12).toISOString(),
};

function show(user: CurrentUser) {
  installFakeFetch((call) => (call.url === '/api/auth/user' ? { status: 200, body: user } : { status: 404 }));
  renderWithApp(<ProfilePage />, { path: '/profile' });
}

jest.setTimeout(30_000);
afterEach(cleanup);

it("shows a member's name, initials, email, member since and subscription, with links to chat profile and becoming a creator", async () => {
  show(member);
  expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeTruthy();
  expect(screen.getByText('AL')).toBeTruthy();
  expect(screen.getByTestId('profile-email').textContent).toBe('ada@example.com');
  expect(screen.getByTestId('member-since').textContent).toBe('Member since 12 Jan 2027');
  expect(screen.getByTestId('membership-summary').textContent).toBe('Active · renews 12 Feb 2027');
  expect(screen.getByRole('link', { name: 'Edit chat profile' }).getAttribute('href')).toBe('/profile-setup');
  fireEvent.click(screen.getByRole('link', { name: 'Become a Creator' }));
  expect(screen.getByTestId('location').textContent).toBe('/dashboard');
});

it('an account without a name shows its email as the name; a creator gets a link to their page instead', async () => {
  show({ ...member, firstName: null, lastName: null, isCreator: true, role: 'creator' });
  expect(await screen.findByRole('heading', { level: 1, name: 'ada@example.com' })).toBeTruthy();
  expect(screen.queryByRole('link', { name: 'Become a Creator' })).toBeNull();
  expect(screen.getByRole('link', { name: 'View your creator page' }).getAttribute('href')).toBe('/creator/u-7');
});

it('sums up the membership by status and end date', () => {
  const now = new Date(2027, 0, 20);
  const end = new Date(2027, 1, 12, 12).toISOString();
  const past = new Date(2026, 11, 1).toISOString();
  expect(membershipSummary({ ...member, subscriptionEndDate: null }, now)).toBe('Active');
  expect(membershipSummary({ ...member, subscriptionStatus: 'canceled', subscriptionEndDate: end }, now)).toBe(
    'Canceled · access until 12 Feb 2027',
  );
  expect(membershipSummary({ ...member, subscriptionStatus: 'past_due', subscriptionEndDate: end }, now)).toBe(
    'Payment failed · access until 12 Feb 2027',
  );
  expect(membershipSummary({ ...member, subscriptionStatus: 'canceled', subscriptionEndDate: past }, now)).toBe(
    'No active subscription',
  );
  expect(membershipSummary({ ...member, subscriptionStatus: 'none' }, now)).toBe('No active subscription');
});
