import type { CurrentUser } from '@contracts/accounts';
import { accessStateOf } from './current-user';

const base: CurrentUser = {
  id: 'u1',
  email: 'a@example.com',
  firstName: null,
  lastName: null,
  profileImageUrl: null,
  role: 'subscriber',
  isCreator: false,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
};
const future = new Date(Date.now() + 86_400_000).toISOString();
const past = new Date(Date.now() - 86_400_000).toISOString();

describe('access state', () => {
  it('loading wins over everything', () => expect(accessStateOf(base, true)).toBe('loading'));
  it('no user is a visitor', () => expect(accessStateOf(null, false)).toBe('visitor'));
  it('active is subscribed', () => expect(accessStateOf(base, false)).toBe('subscribed'));
  it.each(['none', 'expired'])('%s is unsubscribed', (status) =>
    expect(accessStateOf({ ...base, subscriptionStatus: status }, false)).toBe('unsubscribed'),
  );
  it('canceled keeps access until the paid period ends', () => {
    expect(accessStateOf({ ...base, subscriptionStatus: 'canceled', subscriptionEndDate: future }, false)).toBe(
      'subscribed',
    );
    expect(accessStateOf({ ...base, subscriptionStatus: 'canceled', subscriptionEndDate: past }, false)).toBe(
      'unsubscribed',
    );
  });
  it('past due keeps access during the grace period', () => {
    expect(accessStateOf({ ...base, subscriptionStatus: 'past_due', subscriptionEndDate: future }, false)).toBe(
      'subscribed',
    );
    expect(accessStateOf({ ...base, subscriptionStatus: 'past_due', subscriptionEndDate: past }, false)).toBe(
      'unsubscribed',
    );
  });
});
