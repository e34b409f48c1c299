import '@/test-support/jsdom-setup';
import { cleanup, screen } from '@testing-library/react';
import type { CurrentUser } from '@contracts/accounts';
import { TopNav } from '@/components/top-nav';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import type { AccessState } from '@/lib/current-user';
import { AccessRoutes, type MemberRoute, type ShellPages } from './routes';

const stub = (name: string) => <h1>{name}</h1>;
const pages: ShellPages = {
  landing: stub('landing'),
  login: stub('login'),
  register: stub('register'),
  forgotPassword: stub('forgot-password'),
  resetPassword: stub('reset-password'),
  subscribe: stub('subscribe'),
  notFound: stub('not-found'),
  communityGuidelines: stub('community-guidelines'),
  copyrightPolicy: stub('copyright-policy'),
  privacyPolicy: stub('privacy-policy'),
  termsOfService: stub('terms-of-service'),
};
const routes: MemberRoute[] = [
  { path: '/', element: stub('home') },
  { path: '/home', element: stub('home') },
  { path: '/dashboard', element: stub('dashboard') },
  { path: '/creator/:id', element: stub('creator') },
  { path: '/messages', element: stub('messages') },
  { path: '/payouts', element: stub('payouts') },
  { path: '/wallet', element: stub('wallet'), withoutSubscription: true },
  { path: '/profile-setup', element: stub('profile-setup') },
  { path: '/chat', element: stub('chat') },
];

function user(subscriptionStatus: string): CurrentUser {
  return {
    id: 'u1',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    profileImageUrl: null,
    role: 'subscriber',
    isCreator: false,
    ageVerified: true,
    subscriptionStatus,
    lastPaymentDate: null,
    subscriptionEndDate: null,
  };
}

function visit(state: AccessState, path: string) {
  const current = state === 'subscribed' ? user('active') : state === 'unsubscribed' ? user('none') : null;
  renderWithApp(<AccessRoutes state={state} user={current} pages={pages} routes={routes} topBar={TopNav} />, { path });
  return {
    page: screen.queryByRole('heading', { level: 1 })?.textContent ?? null,
    path: screen.getByTestId('location').textContent,
  };
}

const policies = ['community-guidelines', 'copyright-policy', 'privacy-policy', 'terms-of-service'];

jest.setTimeout(30_000);
afterEach(cleanup);

describe('access by state (SPEC §2)', () => {
  describe('signed out', () => {
    it.each([
      ['/', 'landing'],
      ['/landing', 'landing'],
      ['/login', 'login'],
      ['/register', 'register'],
      ['/forgot-password', 'forgot-password'],
      ['/reset-password', 'reset-password'],
      ...policies.map((p) => [`/${p}`, p]),
      ['/wallet', 'landing'],
      ['/chat', 'landing'],
      ['/no/such/page', 'landing'],
    ])('%s shows %s', (path, page) => {
      expect(visit('visitor', path)).toEqual({ page, path });
    });

    it.each(['/subscribe', '/home', '/profile-setup'])('%s sends the visitor to /login', (path) => {
      expect(visit('visitor', path)).toEqual({ page: 'login', path: '/login' });
    });

    it('shows no navigation', () => {
      visit('visitor', '/');
      expect(screen.queryByLabelText('User menu')).toBeNull();
    });
  });

  describe('still loading', () => {
    it.each(['/', '/landing', '/login', '/register', '/forgot-password', ...policies.map((p) => `/${p}`)])(
      '%s shows its public page',
      (path) => {
        expect(visit('loading', path).page).not.toBeNull();
      },
    );

    it.each(['/home', '/subscribe', '/chat'])('%s waits instead of bouncing a signed-in reload to /login', (path) => {
      expect(visit('loading', path)).toEqual({ page: null, path });
      expect(screen.getByLabelText('Loading')).toBeTruthy();
    });
  });

  describe('signed in without an active subscription', () => {
    it.each([
      '/subscribe',
      '/',
      '/home',
      '/chat',
      '/dashboard',
      '/messages',
      '/profile-setup',
      '/login',
      '/no/such/page',
    ])('%s shows the subscribe page', (path) => {
      expect(visit('unsubscribed', path)).toEqual({ page: 'subscribe', path });
    });

    it.each([['/wallet', 'wallet'], ...policies.map((p) => [`/${p}`, p])])('%s shows %s', (path, page) => {
      expect(visit('unsubscribed', path)).toEqual({ page, path });
    });

    it('/landing goes to /subscribe', () => {
      expect(visit('unsubscribed', '/landing')).toEqual({ page: 'subscribe', path: '/subscribe' });
    });

    it('shows the navigation', () => {
      visit('unsubscribed', '/subscribe');
      expect(screen.getByLabelText('User menu')).toBeTruthy();
    });
  });

  describe('signed in with an active subscription', () => {
    it.each([
      ['/', 'home'],
      ['/home', 'home'],
      ['/dashboard', 'dashboard'],
      ['/creator/abc', 'creator'],
      ['/messages', 'messages'],
      ['/payouts', 'payouts'],
      ['/wallet', 'wallet'],
      ['/subscribe', 'subscribe'],
      ['/profile-setup', 'profile-setup'],
      ['/chat', 'chat'],
      ...policies.map((p) => [`/${p}`, p]),
      ['/login', 'not-found'],
      ['/no/such/page', 'not-found'],
    ])('%s shows %s', (path, page) => {
      expect(visit('subscribed', path)).toEqual({ page, path });
    });

    it('/landing goes to /home', () => {
      expect(visit('subscribed', '/landing')).toEqual({ page: 'home', path: '/home' });
    });
  });
});

describe('a failing page', () => {
  function Broken(): never {
    throw new Error('boom');
  }

  it('shows an error with a reload button instead of a blank app, navigation kept', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    installFakeFetch(() => ({ status: 204 }));
    renderWithApp(
      <AccessRoutes
        state="subscribed"
        user={user('active')}
        pages={pages}
        routes={[{ path: '/broken', element: <Broken /> }]}
        topBar={TopNav}
      />,
      { path: '/broken' },
    );
    spy.mockRestore();
    expect(screen.getByText('Something went wrong')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByLabelText('User menu')).toBeTruthy();
  });
});
