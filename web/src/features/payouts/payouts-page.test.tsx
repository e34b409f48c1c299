import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { PayoutsPage } from './payouts-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const user = (isCreator: boolean) => ({
  id: 'u1',
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
const payout = (i: number, status: string | null = 'completed') => ({
  id: `p${i}`,
  amount: `${i}.00`,
  netAmount: `${i - 1}.99`,
  status,
  createdAt: '2026-01-0' + (i % 9 || 1) + 'T00:00:00.000Z',
});

const bankAccount = (verificationStatus: 'verified' | 'pending' | 'failed') => ({
  id: 'a1',
  type: 'bank_account',
  accountHolderName: 'C R',
  bankAccountLast4: '6789',
  routingNumber: '*****0000',
  stripeAccountId: null,
  isDefault: true,
  isVerified: verificationStatus === 'verified',
  verificationStatus,
  verificationFailureReason: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});

function serve(overrides: Partial<Record<string, unknown>> = {}, isCreator = true) {
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/auth/user') return { status: 200, body: user(isCreator) };
    if (call.url === '/api/payouts/u1/dashboard')
      return {
        status: 200,
        body: overrides.dashboard ?? {
          availableBalance: '17.99',
          pendingBalance: '9.00',
          totalEarnings: '26.99',
          nextPayoutDate: '2026-03-05T12:00:00.000Z',
        },
      };
    if (call.url === '/api/payment-accounts/u1') return { status: 200, body: overrides.accounts ?? [] };
    if (call.url === '/api/payouts/u1') return { status: 200, body: overrides.payouts ?? [] };
    if (call.url === '/api/payouts' && call.method === 'POST')
      return (
        (overrides.payoutAnswer as { status: number; body?: unknown }) ?? { status: 201, body: payout(1, 'pending') }
      );
    return { status: 404, body: { error: 'no' } };
  });
}

describe('payouts page', () => {
  it('non-creators see Creator Access Required', async () => {
    serve({}, false);
    renderWithApp(<PayoutsPage />, { path: '/payouts' });
    expect(await screen.findByText('Creator Access Required')).toBeTruthy();
    expect(screen.getByText(/need to be a creator/)).toBeTruthy();
  });

  it('shows the split, the four cards and the empty states', async () => {
    serve();
    renderWithApp(<PayoutsPage />, { path: '/payouts' });
    expect(await screen.findByText('You keep 90% of your earnings; the platform keeps a 10% fee.')).toBeTruthy();
    expect((await screen.findByTestId('stat-available-balance')).textContent).toBe('$17.99');
    expect(screen.getByTestId('stat-pending-balance').textContent).toBe('$9.00');
    expect(screen.getByTestId('stat-total-earnings').textContent).toBe('$26.99');
    expect(screen.getByTestId('stat-next-payout').textContent).toBe('Mar 5');
    expect(await screen.findByText('No payment accounts added yet')).toBeTruthy();
    expect(await screen.findByText('No payouts requested yet')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Withdraw Earnings' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('Next Payout is N/A without pending earnings; history shows 5 and View All Payouts; unknown status shows pending', async () => {
    serve({
      dashboard: { availableBalance: '0.00', pendingBalance: '0.00', totalEarnings: '0.00', nextPayoutDate: null },
      payouts: [payout(1, null), ...[2, 3, 4, 5, 6, 7].map((i) => payout(i))],
    });
    renderWithApp(<PayoutsPage />, { path: '/payouts' });
    expect((await screen.findByTestId('stat-next-payout')).textContent).toBe('N/A');
    await waitFor(() => expect(screen.getAllByTestId('payout-row')).toHaveLength(5));
    expect(screen.getAllByTestId('payout-status')[0].textContent).toBe('pending');
    fireEvent.click(screen.getByRole('button', { name: 'View All Payouts' }));
    expect(screen.getAllByTestId('payout-row')).toHaveLength(7);
  });

  it('withdraws the whole available balance to the default account; a failure shows the SPEC toast', async () => {
    const account = bankAccount('verified');
    const calls = serve({
      accounts: [account],
      payoutAnswer: { status: 400, body: { error: 'No available balance to withdraw' } },
    });
    renderWithApp(<PayoutsPage />, { path: '/payouts' });
    await screen.findByText('Bank Account ••••6789 (C R)');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Withdraw Earnings' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw Earnings' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Request Payout' }));
    expect(await screen.findByText('Failed to request payout. Please try again.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({ paymentAccountId: 'a1', amount: '17.99' });
    expect(post.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an account pending verification cannot be withdrawn to, and turns Verified once the processor verified it', async () => {
    let status: 'pending' | 'verified' = 'pending';
    installFakeFetch((call: FakeCall) => {
      if (call.url === '/api/auth/user') return { status: 200, body: user(true) };
      if (call.url === '/api/payouts/u1/dashboard')
        return {
          status: 200,
          body: { availableBalance: '17.99', pendingBalance: '0.00', totalEarnings: '17.99', nextPayoutDate: null },
        };
      if (call.url === '/api/payment-accounts/u1') return { status: 200, body: [bankAccount(status)] };
      if (call.url === '/api/payouts/u1') return { status: 200, body: [] };
      return { status: 404, body: { error: 'no' } };
    });
    renderWithApp(<PayoutsPage />, { path: '/payouts' });
    expect((await screen.findByTestId('verification-status')).textContent).toBe('Pending Verification');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Withdraw Earnings' }) as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw Earnings' }));
    expect((await screen.findByTestId('account-unverified')).textContent).toBe(
      'This payment account is pending verification',
    );
    expect((screen.getByRole('button', { name: 'Request Payout' }) as HTMLButtonElement).disabled).toBe(true);
    status = 'verified'; // the page re-reads pending accounts until the processor has decided
    await waitFor(() => expect(screen.getByTestId('verification-status').textContent).toBe('Verified'), {
      timeout: 10_000,
    });
    expect(screen.queryByTestId('account-unverified')).toBeNull();
    expect((screen.getByRole('button', { name: 'Request Payout' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('an account the processor refused shows Verification Failed', async () => {
    serve({
      accounts: [{ ...bankAccount('failed'), verificationFailureReason: 'Bank account could not be verified' }],
    });
    renderWithApp(<PayoutsPage />, { path: '/payouts' });
    const chip = await screen.findByTestId('verification-status');
    expect(chip.textContent).toBe('Verification Failed');
    expect(chip.getAttribute('title')).toBe('Bank account could not be verified');
  });

  it('the account form shows the SPEC messages and only asks bank details for bank accounts', async () => {
    serve();
    renderWithApp(<PayoutsPage />, { path: '/payouts' });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Payment Account' }));
    expect(screen.queryByLabelText('Routing Number')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add Account' }));
    expect(await screen.findByText('Account holder name is required')).toBeTruthy();
  });
});
