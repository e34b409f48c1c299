import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { CurrentUser } from '@contracts/accounts';
import { renderWithApp } from '@/test-support/render';
import { TopNav } from './top-nav';

const member: CurrentUser = {
  id: 'u-42',
  email: 'bo@example.com',
  firstName: 'Bo',
  lastName: null,
  profileImageUrl: null,
  role: 'subscriber',
  isCreator: false,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
};

function openMenu(user: CurrentUser) {
  renderWithApp(<TopNav user={user} />);
  fireEvent.click(screen.getByLabelText('User menu'));
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
}

jest.setTimeout(30_000);
afterEach(cleanup);

it('members see Profile, Crypto Wallet, My subscriptions, Billing, Security, Account and Logout, not the creator items', () => {
  expect(openMenu(member)).toEqual([
    'Profile',
    'Crypto Wallet',
    'My subscriptions',
    'Billing',
    'Security',
    'Account',
    'Logout',
  ]);
});

it('creators also see Dashboard, Media Vault and Payouts', () => {
  expect(openMenu({ ...member, isCreator: true, role: 'creator' })).toEqual([
    'Profile',
    'Crypto Wallet',
    'My subscriptions',
    'Billing',
    'Security',
    'Account',
    'Dashboard',
    'Media Vault',
    'Payouts',
    'Logout',
  ]);
});

it("Profile opens a member's account page, and a creator's own creator page", () => {
  openMenu(member);
  fireEvent.click(screen.getByRole('menuitem', { name: 'Profile' }));
  expect(screen.getByTestId('location').textContent).toBe('/profile');
  cleanup();
  openMenu({ ...member, isCreator: true, role: 'creator' });
  fireEvent.click(screen.getByRole('menuitem', { name: 'Profile' }));
  expect(screen.getByTestId('location').textContent).toBe('/creator/u-42');
});

it('has the search box, notifications, messages and chat', () => {
  renderWithApp(<TopNav user={member} />);
  expect(screen.getByPlaceholderText('Search creators...')).toBeTruthy();
  expect(screen.getByRole('button', { name: /^Notifications/ })).toBeTruthy();
  expect(screen.getByLabelText('Messages').getAttribute('href')).toBe('/messages');
  expect(screen.getByLabelText('Chat').getAttribute('href')).toBe('/chat');
});

it('on phones the Search icon opens a search box whose Enter opens the results', () => {
  renderWithApp(<TopNav user={member} />);
  expect(screen.getAllByPlaceholderText('Search creators...')).toHaveLength(1);
  fireEvent.click(screen.getByLabelText('Search'));
  const boxes = screen.getAllByPlaceholderText('Search creators...');
  expect(boxes).toHaveLength(2);
  const phoneBox = boxes[1]!;
  fireEvent.change(phoneBox, { target: { value: 'ana' } });
  fireEvent.keyDown(phoneBox, { key: 'Enter' });
  expect(screen.getByTestId('location').textContent).toBe('/search');
  expect(screen.getAllByPlaceholderText('Search creators...')).toHaveLength(1);
});
