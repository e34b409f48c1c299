import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CreatorAnalytics, PeriodTotals } from '@contracts/creator-insights';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { AnalyticsPage } from './analytics-page';
import { DashboardPage } from './dashboard-page';
import { statTrends } from './trends';

// The charts draw SVG from measured sizes jsdom does not have; what they are given is checked here.
const charted: Array<{ chart: string; dates: string[] }> = [];
jest.mock('./analytics-charts', () => ({
  EarningsChart: ({ daily }: { daily: Array<{ date: string }> }) => {
    charted.push({ chart: 'earnings', dates: daily.map((day) => day.date) });
    return null;
  },
  SubscribersChart: () => null,
}));

jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  charted.length = 0;
});

const user = (isCreator = true) => ({
  id: 'c1',
  email: 'c@example.com',
  firstName: 'Casey',
  lastName: 'Creator',
  profileImageUrl: null,
  role: isCreator ? 'creator' : 'subscriber',
  isCreator,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
});

const totals = (overrides: Partial<PeriodTotals> = {}): PeriodTotals => ({
  earningsCents: 0,
  subscribersGained: 0,
  subscribersLost: 0,
  postsPublished: 0,
  interactions: 0,
  tips: 0,
  tipsCents: 0,
  unlocks: 0,
  unlocksCents: 0,
  ...overrides,
});

function analytics(days: 7 | 30 | 90, current: PeriodTotals, previous: PeriodTotals): CreatorAnalytics {
  const daily = Array.from({ length: days }, (_, index) => ({
    date: new Date(Date.UTC(2026, 2, 31 - days + 1 + index)).toISOString().slice(0, 10),
    earningsCents: 0,
    subscribersGained: 0,
    subscribersLost: 0,
    tips: 0,
    tipsCents: 0,
    unlocks: 0,
    unlocksCents: 0,
  }));
  return {
    days,
    from: daily[0].date,
    to: '2026-03-31',
    daily,
    current,
    previous,
    topPosts: [{ id: 'p1', title: 'Sunset set', likeCount: 12, commentCount: 1 }],
  };
}

const thirty = analytics(
  30,
  totals({ earningsCents: 11_200, subscribersGained: 5, subscribersLost: 2, postsPublished: 2, interactions: 9 }),
  totals({ earningsCents: 10_000, subscribersGained: 1, subscribersLost: 2, interactions: 12 }),
);
const seven = analytics(7, totals({ earningsCents: 899, subscribersGained: 1 }), totals());

function serve(isCreator = true) {
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/auth/user') return { status: 200, body: user(isCreator) };
    if (call.url === '/api/creators/c1/analytics?days=30') return { status: 200, body: thirty };
    if (call.url === '/api/creators/c1/analytics?days=7') return { status: 200, body: seven };
    if (call.url === '/api/creators/c1/stats')
      return { status: 200, body: { totalEarnings: '112.00', subscriberCount: 4, postCount: 3, engagementRate: 2.5 } };
    if (call.url.startsWith('/api/creators/c1/tiers')) return { status: 200, body: [] };
    return { status: 404, body: { error: 'no' } };
  });
}

const card = (testId: string) => within(screen.getByTestId(testId));

describe('analytics page', () => {
  it('shows this period against the previous one, the charts of every day and the top posts', async () => {
    serve();
    renderWithApp(<AnalyticsPage />, { path: '/dashboard/analytics' });
    await screen.findByTestId('total-earnings');
    expect(card('total-earnings').getByTestId('value').textContent).toBe('$112.00');
    expect(card('total-earnings').getByTestId('trend').textContent).toBe('+12% from last 30 days');
    expect(card('total-gained').getByTestId('trend').textContent).toBe('+400% from last 30 days');
    expect(card('total-lost').getByTestId('trend').textContent).toBe('No change from last 30 days');
    expect(card('total-net').getByTestId('value').textContent).toBe('+3');
    expect(card('total-net').getByTestId('trend').textContent).toBe('-1 in the 30 days before');
    expect(charted.at(-1)?.dates).toHaveLength(30);
    const top = screen.getByRole('list', { name: 'Top posts' });
    expect(within(top).getByText('Sunset set')).toBeTruthy();
    expect(within(top).getByText('12 likes')).toBeTruthy();
    expect(within(top).getByText('1 comment')).toBeTruthy();
  });

  it('lists tips and message unlocks per day, newest first, with the totals of the period', async () => {
    const withTips = analytics(30, totals({ tips: 2, tipsCents: 1_500, unlocks: 1, unlocksCents: 400 }), totals());
    withTips.daily[28] = { ...withTips.daily[28], tips: 2, tipsCents: 1_500 };
    withTips.daily[29] = { ...withTips.daily[29], unlocks: 1, unlocksCents: 400 };
    installFakeFetch((call: FakeCall) =>
      call.url === '/api/auth/user'
        ? { status: 200, body: user(true) }
        : call.url === '/api/creators/c1/analytics?days=30'
          ? { status: 200, body: withTips }
          : { status: 404, body: { error: 'no' } },
    );
    renderWithApp(<AnalyticsPage />, { path: '/dashboard/analytics' });
    expect((await screen.findByTestId('total-tips')).textContent).toBe('$15.00 from 2 tips');
    expect(screen.getByTestId('total-unlocks').textContent).toBe('$4.00 from 1 unlock');
    const rows = within(screen.getByRole('table', { name: 'Tips and unlocks per day' })).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'DayTipsUnlocks',
      '31 Mar 20260 · $0.001 · $4.00',
      '30 Mar 20262 · $15.000 · $0.00',
    ]);
  });

  it('switches to 7 days, and says "New this period" where nothing came before', async () => {
    const calls = serve();
    renderWithApp(<AnalyticsPage />, { path: '/dashboard/analytics' });
    await screen.findByTestId('total-earnings');
    fireEvent.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(card('total-earnings').getByTestId('value').textContent).toBe('$8.99'));
    expect(card('total-earnings').getByTestId('trend').textContent).toBe('New this period');
    expect(card('total-lost').getByTestId('trend').textContent).toBe('None lost');
    expect(charted.at(-1)?.dates).toHaveLength(7);
    expect(calls.map((call) => call.url)).toContain('/api/creators/c1/analytics?days=7');
  });

  it('reads the window from the URL and takes 30 for a days value it does not offer', async () => {
    const calls = serve();
    renderWithApp(<AnalyticsPage />, { path: '/dashboard/analytics?days=14' });
    await screen.findByTestId('total-earnings');
    expect(screen.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
    expect(calls.some((call) => call.url.includes('days=14'))).toBe(false);
  });

  it('sends members who are not creators to the dashboard', async () => {
    serve(false);
    renderWithApp(<AnalyticsPage />, { path: '/dashboard/analytics' });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });
});

describe('dashboard stat cards', () => {
  it('take their trend lines from the last 30 days against the 30 before', async () => {
    serve();
    renderWithApp(<DashboardPage />, { path: '/dashboard' });
    const trend = async (label: string) =>
      (await within(await screen.findByTestId(`stat-${label}`)).findByTestId('trend')).textContent;
    await waitFor(async () => expect(await trend('Total Earnings')).toBe('+12% from last 30 days'));
    expect(await trend('Subscribers')).toBe('+3 from last 30 days');
    expect(await trend('Posts')).toBe('+2 from last 30 days');
    expect(await trend('Engagement')).toBe('-25% likes and comments from last 30 days');
    expect(screen.getByRole('link', { name: 'Manage Subscribers' }).getAttribute('href')).toBe(
      '/dashboard/subscribers',
    );
    expect(screen.getByRole('link', { name: 'View Analytics' }).getAttribute('href')).toBe('/dashboard/analytics');
  });

  it('say so honestly when there is nothing to compare', () => {
    const empty = statTrends(analytics(30, totals(), totals()));
    expect(empty.earnings).toEqual({ text: 'No earnings in the last 30 days', tone: 'flat' });
    expect(empty.subscribers.text).toBe('No change from last 30 days');
    expect(empty.posts.text).toBe('No new posts in the last 30 days');
    const fresh = statTrends(analytics(30, totals({ earningsCents: 500, interactions: 2 }), totals()));
    expect(fresh.earnings).toEqual({ text: 'New this period', tone: 'up' });
    expect(fresh.engagement.text).toBe('New this period');
    const down = statTrends(analytics(30, totals({ subscribersLost: 2 }), totals()));
    expect(down.subscribers).toEqual({ text: '-2 from last 30 days', tone: 'down' });
  });
});
