import '@/test-support/jsdom-setup';
import { cleanup, screen } from '@testing-library/react';
import { installFakeFetch } from '@/test-support/fake-fetch';
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
    expect(screen.getByText(/Canceled: your access continues until/)).toBeTruthy();
  });
});
