import { fixedMediaQuery } from '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { BillingEntry } from '@contracts/billing';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { BillingPage } from './billing-page';
import { ReceiptPage } from './receipt-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const entry = (id: string, fields: Partial<BillingEntry>): BillingEntry => ({
  id,
  occurredAt: '2026-03-01T10:00:00.000Z',
  kind: 'site_plan',
  description: 'Lively site plan, 1 month',
  direction: 'charge',
  amount: '1.99',
  currency: 'USD',
  method: { type: 'card', cardLast4: '4242' },
  status: 'paid',
  hasReceipt: true,
  detail: null,
  ...fields,
});

const firstPage = [
  entry('e1', {
    kind: 'message_unlock',
    description: 'Unlocked message from Cleo Lee',
    amount: '2.50',
    method: { type: 'usd_balance' },
  }),
  entry('e2', {
    kind: 'crypto_conversion',
    description: 'USDC → USD conversion',
    direction: 'credit',
    amount: '19.40',
    method: { type: 'crypto', cryptoType: 'USDC' },
    status: 'credited',
    hasReceipt: false,
  }),
];
const secondPage = [entry('e3', { status: 'refunded' })];

const receipt = {
  id: 'e3',
  number: 'LV-20260301-ABCDEF12',
  issuedAt: '2026-03-01T10:00:00.000Z',
  member: { name: 'Mia Money', email: 'mia@example.com' },
  kind: 'site_plan',
  item: 'Lively site plan, 1 month',
  periodStart: '2026-03-01T10:00:00.000Z',
  periodEnd: '2026-04-01T10:00:00.000Z',
  amount: '1.99',
  currency: 'USD',
  method: { type: 'card', cardLast4: '4242' },
  status: 'refunded',
  failureReason: null,
  refunds: [{ id: 'r1', refundedAt: '2026-03-02T10:00:00.000Z', amount: '1.99', reason: 'duplicate' }],
  refundedAmount: '1.99',
};

function serve() {
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/billing/history') return { status: 200, body: { entries: firstPage, nextCursor: 'c2' } };
    if (call.url === '/api/billing/history?cursor=c2')
      return { status: 200, body: { entries: secondPage, nextCursor: null } };
    if (call.url === '/api/billing/receipts/e3') return { status: 200, body: receipt };
    return { status: 404, body: { error: 'Receipt not found', code: 'NOT_FOUND' } };
  });
}

const app = (
  <Routes>
    <Route path="/billing" element={<BillingPage />} />
    <Route path="/billing/receipts/:id" element={<ReceiptPage />} />
  </Routes>
);

describe('billing page', () => {
  it('lists each money fact with amount, method and status, and loads older pages', async () => {
    const calls = serve();
    renderWithApp(app, { path: '/billing' });
    const rows = await screen.findAllByTestId('billing-entry');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Unlocked message from Cleo Lee')).toBeTruthy();
    expect(within(rows[0]).getByTestId('billing-amount').textContent).toBe('$2.50');
    expect(within(rows[0]).getByText(/USD balance/)).toBeTruthy();
    expect(within(rows[0]).getByTestId('billing-status').textContent).toBe('Paid');
    expect(within(rows[1]).getByTestId('billing-amount').textContent).toBe('+$19.40');
    expect(within(rows[1]).getByTestId('billing-status').textContent).toBe('Credited');
    // A credit has no receipt of its own.
    expect(within(rows[1]).queryByRole('link', { name: /Receipt/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('billing-entry')).toHaveLength(3));
    expect(screen.getByText('Refunded')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(calls.map((call) => call.url)).toEqual(['/api/billing/history', '/api/billing/history?cursor=c2']);
  });

  it('opens a printable receipt with its refunds; Print prints', async () => {
    serve();
    const print = jest.fn();
    window.print = print;
    renderWithApp(app, { path: '/billing' });
    await screen.findAllByTestId('billing-entry');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('billing-entry')).toHaveLength(3));
    const refunded = screen.getAllByTestId('billing-entry')[2];
    fireEvent.click(within(refunded).getByRole('link', { name: /Receipt/ }));
    const sheet = await screen.findByTestId('receipt');
    expect(screen.getByTestId('location').textContent).toBe('/billing/receipts/e3');
    for (const text of ['LV-20260301-ABCDEF12', 'Mia Money', 'mia@example.com', 'Card •••• 4242', 'duplicate'])
      expect(within(sheet).getByText(text)).toBeTruthy();
    expect(within(sheet).getByTestId('receipt-total').textContent).toBe('$1.99 USD');
    expect(within(sheet).getByText('-$1.99')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('says so when a receipt is not found (another member’s, or none)', async () => {
    serve();
    renderWithApp(app, { path: '/billing/receipts/unknown' });
    expect(await screen.findByText('Receipt not found.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
  });

  it('shows a declined renewal attempt without a receipt, and a renewal paid from and refunded to the USD balance', async () => {
    const tier = 'Subscription to Cleo Lee – Silver, monthly renewal';
    installFakeFetch(() => ({
      status: 200,
      body: {
        entries: [
          entry('r1', {
            kind: 'refund',
            description: `Refund: ${tier}`,
            direction: 'credit',
            amount: '10.00',
            method: { type: 'usd_balance' },
            status: 'credited',
            hasReceipt: false,
          }),
          entry('r2', {
            kind: 'tier_subscription',
            description: tier,
            amount: '10.00',
            method: { type: 'usd_balance' },
            status: 'refunded',
          }),
          entry('r3', {
            kind: 'tier_subscription',
            description: `${tier} (attempt 1)`,
            amount: '10.00',
            status: 'declined',
            hasReceipt: false,
            detail: 'Insufficient funds',
          }),
        ],
        nextCursor: null,
      },
    }));
    renderWithApp(app, { path: '/billing' });
    const [refund, renewal, declined] = await screen.findAllByTestId('billing-entry');
    expect(within(refund).getByTestId('billing-amount').textContent).toBe('+$10.00');
    expect(within(refund).getByText(/USD balance/)).toBeTruthy();
    expect(within(renewal).getByText(/USD balance/)).toBeTruthy();
    expect(within(renewal).queryByText(/Card/)).toBeNull();
    expect(within(renewal).getByRole('link', { name: /Receipt/ })).toBeTruthy();

    expect(within(declined).getByText(`${tier} (attempt 1)`)).toBeTruthy();
    expect(within(declined).getByTestId('billing-amount').textContent).toBe('$10.00');
    expect(within(declined).getByText(/Card •••• 4242/)).toBeTruthy();
    const chip = within(declined).getByTestId('billing-status');
    expect(chip.textContent).toBe('Declined');
    // The theme's error red (not the light info blue that fails contrast on white).
    expect(chip.className).toMatch(/colorError/);
    expect(within(declined).queryByRole('link', { name: /Receipt/ })).toBeNull();
    // Why it was declined, right under its description; the rows that went through have nothing to explain.
    const detail = within(declined).getByTestId('billing-detail');
    expect(detail.textContent).toBe('Insufficient funds');
    expect(within(declined).getByText(`${tier} (attempt 1)`).nextElementSibling).toBe(detail);
    expect(within(refund).queryByTestId('billing-detail')).toBeNull();
    expect(within(renewal).queryByTestId('billing-detail')).toBeNull();
  });

  it('on a wide screen, shows why a row failed in its description cell', async () => {
    // Every media query matches: the table layout of wide screens.
    const matchMedia = jest.spyOn(window, 'matchMedia').mockImplementation(fixedMediaQuery(true));
    const reason = 'Insufficient USD balance: the renewal is $19.99 and your balance is $10.67';
    installFakeFetch(() => ({
      status: 200,
      body: {
        entries: [
          entry('f1', {
            kind: 'tier_subscription',
            description: 'Subscription to Cleo Lee – Gold, monthly renewal (attempt 2)',
            amount: '19.99',
            method: { type: 'usd_balance' },
            status: 'declined',
            hasReceipt: false,
            detail: reason,
          }),
          entry('f2', { status: 'failed', detail: 'Your card was declined.' }),
          entry('f3', {}),
        ],
        nextCursor: null,
      },
    }));
    try {
      renderWithApp(app, { path: '/billing' });
      const table = await screen.findByRole('table', { name: 'Billing history' });
      const [declined, failed, paid] = within(table).getAllByTestId('billing-entry');
      const description = within(declined).getAllByRole('cell')[1];
      expect(within(description).getByTestId('billing-detail').textContent).toBe(reason);
      expect(within(failed).getByTestId('billing-detail').textContent).toBe('Your card was declined.');
      expect(within(failed).getByTestId('billing-status').textContent).toBe('Failed');
      expect(within(paid).queryByTestId('billing-detail')).toBeNull();
    } finally {
      matchMedia.mockRestore();
    }
  });

  it('shows an empty state', async () => {
    installFakeFetch(() => ({ status: 200, body: { entries: [], nextCursor: null } }));
    renderWithApp(app, { path: '/billing' });
    expect(await screen.findByText('No billing history yet')).toBeTruthy();
  });
});
