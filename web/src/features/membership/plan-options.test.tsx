import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { getToasts } from '@/components/toast';
import { PlanOptions } from './plan-options';

jest.setTimeout(30_000);
afterEach(cleanup);

const future = new Date(Date.now() + 20 * 86_400_000).toISOString();

function serve(status: string, totalUsd: string, actions: Record<string, FakeAnswer>) {
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/subscription-status')
      return {
        status: 200,
        body: { subscriptionStatus: status, ageVerified: true, lastPaymentDate: null, subscriptionEndDate: future },
      };
    if (call.url === '/api/crypto/balance') return { status: 200, body: { totalUsd, conversions: [] } };
    return actions[`${call.method} ${call.url}`] ?? { status: 404, body: { error: 'no route' } };
  });
}

describe('subscribe page plan options (SPEC §8 messages)', () => {
  it('asks for age verification and goes to /verify-age on a 403 requiresAgeVerification', async () => {
    serve('none', '0.00', {
      'POST /api/subscribe': {
        status: 403,
        body: { error: 'Age verification required', requiresAgeVerification: true },
      },
    });
    renderWithApp(<PlanOptions />, { path: '/subscribe' });
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe for $1.99/month' }));
    expect(await screen.findByText('Age Verification Required')).toBeTruthy();
    expect(screen.getByText('Please verify your age before subscribing.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/verify-age'), { timeout: 5000 });
  });

  it('shows Subscription Failed with the server message when the card is declined', async () => {
    serve('expired', '0.00', {
      'POST /api/subscribe': {
        status: 402,
        body: {
          success: false,
          message: 'Payment declined: Insufficient funds',
          error: 'Payment declined: Insufficient funds',
        },
      },
    });
    renderWithApp(<PlanOptions />);
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe for $1.99/month' }));
    expect(await screen.findByText('Subscription Failed')).toBeTruthy();
    expect(screen.getByText('Payment declined: Insufficient funds')).toBeTruthy();
  });

  it('shows Subscription Error with the fallback text on other failures', async () => {
    serve('none', '0.00', { 'POST /api/subscribe': { status: 500, body: 'boom' } });
    renderWithApp(<PlanOptions />);
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe for $1.99/month' }));
    expect(await screen.findByText('Subscription Error')).toBeTruthy();
    expect(screen.getByText('Failed to create subscription. Please try again.')).toBeTruthy();
  });

  it("only logs a 409 'already subscribed' (no toast)", async () => {
    const calls = serve('none', '0.00', {
      'POST /api/subscribe': { status: 409, body: { error: 'You are already subscribed' } },
    });
    renderWithApp(<PlanOptions />);
    const before = getToasts()[0]?.id;
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe for $1.99/month' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/subscribe')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(getToasts()[0]?.id).toBe(before);
  });

  it('enables the 6-month plan only with $11.94 in the balance and reports a refusal', async () => {
    serve('active', '11.93', {});
    renderWithApp(<PlanOptions />);
    fireEvent.click(await screen.findByRole('tab', { name: /6-Month/ }));
    await screen.findByText('Crypto Balance: $11.93');
    expect((screen.getByRole('button', { name: 'Pay $11.94 from Crypto Balance' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    cleanup();

    serve('active', '19.40', {
      'POST /api/subscribe/crypto': {
        status: 422,
        body: { success: false, message: 'Insufficient crypto balance', error: 'Insufficient crypto balance' },
      },
    });
    renderWithApp(<PlanOptions />);
    fireEvent.click(await screen.findByRole('tab', { name: /6-Month/ }));
    await screen.findByText('Crypto Balance: $19.40');
    const pay = screen.getByRole('button', { name: 'Pay $11.94 from Crypto Balance' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(false);
    fireEvent.click(pay);
    expect(await screen.findByText('Crypto Subscription Failed')).toBeTruthy();
  });

  it('shows Crypto Subscription Error on other failures and Welcome to the Party! on success', async () => {
    serve('active', '19.40', { 'POST /api/subscribe/crypto': { status: 500, body: '' } });
    renderWithApp(<PlanOptions />);
    fireEvent.click(await screen.findByRole('tab', { name: /6-Month/ }));
    await screen.findByText('Crypto Balance: $19.40');
    fireEvent.click(screen.getByRole('button', { name: 'Pay $11.94 from Crypto Balance' }));
    expect(await screen.findByText('Crypto Subscription Error')).toBeTruthy();
    expect(screen.getByText('Failed to create crypto subscription. Please try again.')).toBeTruthy();
    cleanup();

    const calls = serve('active', '19.40', {
      'POST /api/subscribe/crypto': { status: 200, body: { success: true, message: '6-month plan activated' } },
    });
    renderWithApp(<PlanOptions />);
    fireEvent.click(await screen.findByRole('tab', { name: /6-Month/ }));
    await screen.findByText('Crypto Balance: $19.40');
    fireEvent.click(screen.getByRole('button', { name: 'Pay $11.94 from Crypto Balance' }));
    expect(await screen.findByText('Welcome to the Party!')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/subscribe/crypto')?.body).toEqual({ months: 6 });
  });
});
