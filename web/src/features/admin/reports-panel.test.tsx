import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { ModerationPage, ModerationReport } from '@contracts/safety';
import { removeToast } from '@/components/toast';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { AdminPage } from './admin-page';

// Charts need layout that jsdom lacks; the chart is seen in the browser journeys.
jest.mock('./revenue-chart', () => ({ RevenueChart: () => null }));
jest.setTimeout(30_000);
afterEach(() => {
  cleanup();
  removeToast();
});

const staff = {
  id: 'a1',
  email: 'staff@example.com',
  firstName: 'Sam',
  lastName: 'Staff',
  profileImageUrl: null,
  role: 'admin',
  isCreator: false,
  ageVerified: true,
  subscriptionStatus: 'none',
  lastPaymentDate: null,
  subscriptionEndDate: null,
};
const BOB = '6f1c2a0e-4b8e-4d5a-9c3e-1a2b3c4d5e6f';

const chatReport: ModerationReport = {
  id: 'r1',
  status: 'open',
  targetType: 'chat_session',
  targetId: 'room_1',
  reason: 'harassment',
  details: 'Shouted insults',
  createdAt: '2026-01-02T10:00:00.000Z',
  reporter: { id: 'u1', name: 'Annie' },
  targetUser: {
    id: BOB,
    name: 'Bobby',
    standing: { status: 'active', suspendedUntil: null, pendingReview: false },
    earlierReports: 2,
    lastActions: [
      {
        action: 'warn',
        reason: 'Rude in chat',
        staff: { id: 'a1', name: 'Sam Staff' },
        days: null,
        at: '2026-01-01T09:00:00.000Z',
      },
    ],
  },
  context: {
    kind: 'chat_session',
    participants: [
      { id: 'u1', name: 'Annie' },
      { id: BOB, name: 'Bobby' },
    ],
    mode: 'standard',
    startedAt: '2026-01-02T09:50:00.000Z',
    endedAt: '2026-01-02T09:53:05.000Z',
    durationSeconds: 185,
  },
  resolution: null,
};
const postReport: ModerationReport = {
  ...chatReport,
  id: 'r2',
  targetType: 'post',
  targetId: '0b7e9d3c-1f2a-4c5b-8d6e-7f8a9b0c1d2e',
  reason: 'spam',
  details: null,
  context: {
    kind: 'post',
    title: 'Free money',
    content: 'Click this link',
    createdAt: '2026-01-01T08:00:00.000Z',
    removed: false,
  },
};

function serve(pages: Record<string, ModerationPage>): FakeCall[] {
  return installFakeFetch((call) => {
    if (call.url === '/api/auth/user') return { status: 200, body: staff };
    if (call.url.startsWith('/api/admin/reports?') || call.url === '/api/admin/reports') {
      const page = pages[call.url];
      return page ? { status: 200, body: page } : { status: 200, body: { reports: [], nextCursor: null } };
    }
    if (call.url === '/api/admin/reports/r1/resolve' && call.method === 'POST') {
      const body = call.body as { action: 'suspend'; days: number; reason: string };
      return {
        status: 200,
        body: {
          message: 'Report resolved',
          report: {
            ...chatReport,
            status: 'resolved',
            targetUser: {
              ...chatReport.targetUser,
              standing: { status: 'suspended', suspendedUntil: '2026-01-09T10:00:00.000Z', pendingReview: false },
            },
            resolution: {
              action: body.action,
              reason: body.reason,
              days: body.days,
              staff: { id: 'a1', name: 'Sam Staff' },
              resolvedAt: '2026-01-02T10:05:00.000Z',
            },
          },
        },
      };
    }
    return { status: 404, body: { error: 'no' } };
  });
}

const app = () => (
  <Routes>
    <Route path="/admin/*" element={<AdminPage />} />
  </Routes>
);

describe('moderation queue', () => {
  it('lists open reports by default, filters by type through the URL, and pages on', async () => {
    const calls = serve({
      '/api/admin/reports?status=open': { reports: [chatReport], nextCursor: 'c1' },
      '/api/admin/reports?status=open&cursor=c1': { reports: [postReport], nextCursor: null },
    });
    renderWithApp(app(), { path: '/admin/reports' });
    expect(await screen.findByRole('tab', { name: 'Reports', selected: true })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Reports' });
    expect(await within(table).findByText('Bobby')).toBeTruthy();
    expect(within(table).getByText('Harassment or bullying')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Load older reports' }));
    expect(await within(table).findByText('Spam or scam')).toBeTruthy();
    expect(screen.getAllByTestId('report-row')).toHaveLength(2);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Type' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Post' }));
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/admin/reports?status=open&targetType=post')).toBe(true),
    );
    expect(await screen.findByText('No reports match these filters.')).toBeTruthy();
  });

  it("shows a chat report's context and suspends the account for N days with a reason", async () => {
    const calls = serve({ '/api/admin/reports?status=open': { reports: [chatReport], nextCursor: null } });
    renderWithApp(app(), { path: '/admin/reports' });
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const drawer = await screen.findByRole('region', { name: 'Report details' });
    expect(within(drawer).getByText('Annie and Bobby')).toBeTruthy();
    expect(within(drawer).getByText('3 min 5 s')).toBeTruthy();
    expect(within(drawer).getByText('Shouted insults')).toBeTruthy();
    expect(within(drawer).getByText('2')).toBeTruthy(); // earlier reports
    expect(within(drawer).getByText(/Rude in chat/)).toBeTruthy();
    // A chat has no content to remove.
    expect(within(drawer).queryByRole('button', { name: 'Remove content' })).toBeNull();

    fireEvent.click(within(drawer).getByRole('button', { name: 'Suspend' }));
    fireEvent.change(within(drawer).getByLabelText('Days'), { target: { value: '7' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Suspend for 7 days' }));
    expect(await within(drawer).findByText('Reason is required')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    fireEvent.change(within(drawer).getByLabelText('Reason'), { target: { value: 'Harassed a member in chat' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Suspend for 7 days' }));
    await waitFor(() => expect(within(drawer).getByTestId('standing').textContent).toMatch(/^Suspended until /));
    expect(await screen.findByText('Report resolved')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')).toEqual(
      expect.objectContaining({
        url: '/api/admin/reports/r1/resolve',
        body: { action: 'suspend', days: 7, reason: 'Harassed a member in chat' },
      }),
    );
    // Resolved: the account can still be reinstated; the list is asked for again.
    expect(within(drawer).getByRole('button', { name: 'Reinstate' })).toBeTruthy();
    await waitFor(() =>
      expect(calls.filter((call) => call.url === '/api/admin/reports?status=open').length).toBeGreaterThan(1),
    );
  });

  it("shows a reported post's text and offers to remove it", async () => {
    serve({ '/api/admin/reports?status=open': { reports: [postReport], nextCursor: null } });
    renderWithApp(app(), { path: '/admin/reports' });
    fireEvent.click(await screen.findByRole('button', { name: 'Review' }));
    const drawer = await screen.findByRole('region', { name: 'Report details' });
    expect(within(drawer).getByTestId('reported-text').textContent).toBe('Free moneyClick this link');
    expect(within(drawer).getByRole('button', { name: 'Remove content' })).toBeTruthy();
  });
});
