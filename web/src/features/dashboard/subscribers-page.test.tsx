import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CreatorSubscriber } from '@contracts/creator-insights';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { SubscribersPage, periodEnd } from './subscribers-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const user = (isCreator: boolean) => ({
  id: 'c1',
  email: 'c@example.com',
  firstName: 'C',
  lastName: 'R',
  profileImageUrl: null,
  role: isCreator ? 'creator' : 'subscriber',
  isCreator,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
});

const subscriber = (name: string, status: 'active' | 'ended' = 'active'): CreatorSubscriber => ({
  userId: `id-${name.split(' ')[0].toLowerCase()}`,
  name,
  avatarUrl: null,
  tierName: 'Premium',
  since: '2026-01-05T10:00:00.000Z',
  status,
  renews: false,
  endsAt: status === 'active' ? '2099-02-05T10:00:00.000Z' : '2026-02-05T10:00:00.000Z',
});

function serve(isCreator = true) {
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/auth/user') return { status: 200, body: user(isCreator) };
    const url = new URL(call.url, 'http://x');
    if (url.pathname !== '/api/creators/c1/subscribers') return { status: 404, body: { error: 'no' } };
    if (url.searchParams.get('q') === 'zed') return { status: 200, body: { subscribers: [], nextCursor: null } };
    if (url.searchParams.get('q') === 'ali')
      return { status: 200, body: { subscribers: [subscriber('Alice Anders')], nextCursor: null } };
    if (url.searchParams.get('cursor') === 'next')
      return { status: 200, body: { subscribers: [subscriber('Oscar Lapsed', 'ended')], nextCursor: null } };
    return {
      status: 200,
      body: { subscribers: [subscriber('Alice Anders'), subscriber('Bob Brown')], nextCursor: 'next' },
    };
  });
}

describe('subscribers page', () => {
  it('lists subscribers with tier, status and a Message link to their thread, and pages on', async () => {
    const calls = serve();
    renderWithApp(<SubscribersPage />, { path: '/dashboard/subscribers' });
    const rows = await screen.findAllByTestId('subscriber');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Alice Anders')).toBeTruthy();
    expect(within(rows[0]).getByText('Premium')).toBeTruthy();
    expect(within(rows[0]).getByText('Active')).toBeTruthy();
    expect(within(rows[0]).getByText('Ends 5 Feb 2099')).toBeTruthy();
    expect(within(rows[1]).getByRole('link', { name: 'Message Bob Brown' }).getAttribute('href')).toBe(
      '/messages?user=id-bob',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Oscar Lapsed')).toBeTruthy();
    expect(screen.getAllByTestId('subscriber')).toHaveLength(3);
    expect(within(screen.getAllByTestId('subscriber')[2]).getByText('Ended')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.some((call) => call.url.includes('cursor=next'))).toBe(true);
  });

  it('searches by name once typing pauses, filters by status, and says when nothing matches', async () => {
    const calls = serve();
    renderWithApp(<SubscribersPage />, { path: '/dashboard/subscribers' });
    await screen.findByText('Bob Brown');
    fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'ali' } });
    await waitFor(() => expect(screen.queryByText('Bob Brown')).toBeNull());
    expect(screen.getByText('Alice Anders')).toBeTruthy();
    expect(calls.filter((call) => call.url.includes('q=')).map((call) => call.url)).toEqual([
      '/api/creators/c1/subscribers?q=ali',
    ]);
    fireEvent.change(screen.getByLabelText('Search by name'), { target: { value: 'zed' } });
    expect(await screen.findByText('No subscribers match your search.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ended' }));
    await waitFor(() => expect(calls.some((call) => call.url.endsWith('?q=zed&status=ended'))).toBe(true));
  });

  it('sends members who are not creators to the dashboard', async () => {
    serve(false);
    renderWithApp(<SubscribersPage />, { path: '/dashboard/subscribers' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });

  it('says renews, ends or ended from the paid period', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(periodEnd(subscriber('A'), now)).toBe('Ends 5 Feb 2099');
    expect(periodEnd(subscriber('A', 'ended'), now)).toBe('Ended 5 Feb 2026');
    expect(periodEnd({ ...subscriber('A'), renews: true, renewsAt: '2026-04-01T12:00:00.000Z' }, now)).toBe(
      'Renews 1 Apr 2026',
    );
  });
});
