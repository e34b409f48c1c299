import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { formatDate } from '@/lib/format';
import { renderWithApp } from '@/test-support/render';
import { SubscriptionStatusBox } from './subscription-status-box';

jest.setTimeout(30_000);
afterEach(cleanup);

const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString();

describe('subscription status box', () => {
  it("'active' shows Active Subscription with the last payment", async () => {
    installFakeFetch(() => ({
      status: 200,
      body: {
        subscriptionStatus: 'active',
        ageVerified: true,
        lastPaymentDate: '2025-09-18T10:00:00.000Z',
        subscriptionEndDate: inAMonth,
      },
    }));
    renderWithApp(<SubscriptionStatusBox />);
    expect(await screen.findByText('Active Subscription')).toBeTruthy();
    expect(screen.getByText(/Last payment: 18 Sep 2025/)).toBeTruthy();
  });

  it.each(['none', 'expired'])("'%s' shows No Active Subscription", async (status) => {
    installFakeFetch(() => ({
      status: 200,
      body: { subscriptionStatus: status, ageVerified: true, lastPaymentDate: null },
    }));
    renderWithApp(<SubscriptionStatusBox />);
    expect(await screen.findByText('No Active Subscription')).toBeTruthy();
  });

  it('a canceled membership says until when access lasts', async () => {
    installFakeFetch(() => ({
      status: 200,
      body: { subscriptionStatus: 'canceled', ageVerified: true, lastPaymentDate: null, subscriptionEndDate: inAMonth },
    }));
    renderWithApp(<SubscriptionStatusBox />);
    expect(await screen.findByText('No Active Subscription')).toBeTruthy();
    expect(
      screen.getByText(`Your subscription is canceled. You keep access until ${formatDate(inAMonth)}.`),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel Subscription' })).toBeNull();
  });

  describe('cancel', () => {
    /** Active until `inAMonth`; the cancel answer given, and afterwards the status says canceled. */
    function serve(cancelAnswer: FakeAnswer) {
      let canceled = false;
      return installFakeFetch((call: FakeCall) => {
        if (call.url === '/api/cancel-subscription' && call.method === 'POST') {
          canceled = cancelAnswer.status === 200;
          return cancelAnswer;
        }
        if (call.url === '/api/subscription-status')
          return {
            status: 200,
            body: {
              subscriptionStatus: canceled ? 'canceled' : 'active',
              ageVerified: true,
              lastPaymentDate: '2025-09-18T10:00:00.000Z',
              subscriptionEndDate: inAMonth,
            },
          };
        return { status: 404, body: { error: 'no route' } };
      });
    }

    it('asks first, naming the day access ends; keeping it cancels nothing', async () => {
      const calls = serve({ status: 200, body: { success: true, message: 'canceled' } });
      renderWithApp(<SubscriptionStatusBox />);
      fireEvent.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
      const dialog = await screen.findByRole('dialog', { name: 'Cancel your subscription?' });
      expect(dialog.textContent).toContain(`You keep access until ${formatDate(inAMonth)}.`);
      fireEvent.click(screen.getByRole('button', { name: 'Keep Subscription' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(calls.some((call) => call.url === '/api/cancel-subscription')).toBe(false);
      expect(screen.getByText('Active Subscription')).toBeTruthy();
    });

    it('cancels on confirmation, then says until when access lasts', async () => {
      const calls = serve({
        status: 200,
        body: { success: true, message: 'Your subscription has been canceled. You keep access until 2026-12-01.' },
      });
      renderWithApp(<SubscriptionStatusBox />);
      fireEvent.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Yes, Cancel' }));
      expect(await screen.findByText('Subscription Canceled')).toBeTruthy();
      expect(
        await screen.findByText(`Your subscription is canceled. You keep access until ${formatDate(inAMonth)}.`),
      ).toBeTruthy();
      expect(calls.filter((call) => call.url === '/api/cancel-subscription')).toHaveLength(1);
    });

    it('a failed cancellation says so and leaves the subscription active', async () => {
      serve({ status: 500, body: '' });
      renderWithApp(<SubscriptionStatusBox />);
      fireEvent.click(await screen.findByRole('button', { name: 'Cancel Subscription' }));
      fireEvent.click(await screen.findByRole('button', { name: 'Yes, Cancel' }));
      expect(await screen.findByText('Cancellation Error')).toBeTruthy();
      expect(screen.getByText('Failed to cancel subscription. Please try again.')).toBeTruthy();
      expect(screen.getByText('Active Subscription')).toBeTruthy();
    });
  });
});
