import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { AdminPage } from './admin-page';

// Charts need layout and structuredClone that jsdom lacks (the chart is seen in the browser journey):
// the revenue chart's series are listed with what they are given instead.
jest.mock('@mui/x-charts/BarChart', () => ({
  BarChart: ({ series }: { series: Array<{ label: string; data: number[]; stack?: string }> }) => (
    <ul aria-label="Chart series">
      {series.map((one) => (
        <li key={one.label}>{`${one.label} (${one.stack}): ${one.data.join(', ')}`}</li>
      ))}
    </ul>
  ),
}));
jest.setTimeout(30_000);
afterEach(cleanup);

const user = (role: string) => ({
  id: 'a1',
  email: 'f@example.com',
  firstName: 'F',
  lastName: 'S',
  profileImageUrl: null,
  role,
  isCreator: false,
  ageVerified: true,
  subscriptionStatus: 'none',
  lastPaymentDate: null,
  subscriptionEndDate: null,
});
const row = {
  id: 'p1',
  creatorId: 'c1',
  creatorEmail: 'c@example.com',
  paymentAccountId: 'a',
  amount: '17.99',
  processingFee: '0.18',
  netAmount: '17.81',
  status: 'pending',
  gatewayTransactionId: null,
  failureReason: null,
  staffId: null,
  processedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  streamId: 'creatorAccount-c1',
};

function serve(role = 'admin'): FakeCall[] {
  return installFakeFetch((call) => {
    if (call.url === '/api/auth/user') return { status: 200, body: user(role) };
    if (call.url.startsWith('/api/admin/revenue'))
      return {
        status: 200,
        body: [
          {
            date: '2026-01-01',
            platformFees: '2.00',
            subscriptionRevenue: '1.99',
            conversionFees: '0.60',
            payoutFees: '0.18',
            refunds: '1.99',
            chargebackFees: '15.00',
          },
        ],
      };
    if (call.url.startsWith('/api/admin/payouts'))
      return { status: 200, body: { rows: [row], total: 1, page: 0, pageSize: 25 } };
    if (call.url.startsWith('/api/admin/streams/'))
      return {
        status: 200,
        body: {
          streamName: 'creatorAccount-c1',
          events: [
            {
              eventId: 'e1',
              type: 'PayoutRequested',
              revision: '0',
              data: { payoutId: 'p1' },
              metadata: { requestId: 'r1' },
              actor: { id: 'c1', email: 'c@example.com' },
              createdAt: '2026-01-01T00:00:00.000Z',
            },
          ],
        },
      };
    return { status: 404, body: { error: 'no' } };
  });
}

const app = () => (
  <Routes>
    <Route path="/admin/*" element={<AdminPage />} />
  </Routes>
);

describe('finance console', () => {
  it('is for finance staff only', async () => {
    serve('subscriber');
    renderWithApp(app(), { path: '/admin/payouts' });
    expect(await screen.findByText('Finance Staff Only')).toBeTruthy();
  });

  it('loads the table with the filters in the URL, and filters and exports with the same query', async () => {
    const calls = serve();
    renderWithApp(app(), { path: '/admin/payouts?status=pending&userId=c1' });
    expect(await screen.findByText('Finance Console')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/payouts?status=pending&userId=c1')).toBe(true));
    expect((screen.getByLabelText('User ID') as HTMLInputElement).value).toBe('c1');
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/admin/payouts/export.csv?status=pending&userId=c1',
    );
    fireEvent.change(screen.getByLabelText('Min amount'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url === '/api/admin/payouts?status=pending&userId=c1&minAmount=10')).toBe(true),
    );
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      '/api/admin/payouts/export.csv?status=pending&userId=c1&minAmount=10',
    );
  });

  it('opens a record with its event history and payout actions', async () => {
    serve();
    renderWithApp(app(), { path: '/admin/payouts' });
    fireEvent.click(await screen.findByText('c@example.com'));
    expect(await screen.findByText('PayoutRequested')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Process' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel Payout' })).toBeTruthy();
  });

  it('charts revenue per day: what came in above zero, refunds and chargeback fees below it', async () => {
    serve();
    renderWithApp(app(), { path: '/admin/payouts' });
    expect(await screen.findByRole('heading', { name: 'Revenue per day' })).toBeTruthy();
    const series = within(await screen.findByRole('list', { name: 'Chart series' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(series).toEqual([
      'Platform fees (revenue): 2',
      'Subscription revenue (revenue): 1.99',
      'Conversion fees (revenue): 0.6',
      'Payout fees (revenue): 0.18',
      'Refunds (costs): -1.99',
      'Chargeback fees (costs): -15',
    ]);
  });
});
