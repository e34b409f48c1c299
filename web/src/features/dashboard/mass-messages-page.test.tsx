import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MassMessageSummary } from '@contracts/mass-messages';
import { installFakeFetch } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { MassMessagesPage } from './mass-messages-page';

afterEach(cleanup);

const creator = {
  id: 'c1',
  email: 'c@example.com',
  firstName: 'Cora',
  lastName: 'Creator',
  profileImageUrl: null,
  role: 'creator',
  isCreator: true,
  ageVerified: true,
  subscriptionStatus: 'active',
  lastPaymentDate: null,
  subscriptionEndDate: null,
};

const sent: MassMessageSummary = {
  id: 'm1',
  content: 'New set out now',
  segment: 'tier',
  tierName: 'Premium',
  price: '4.99',
  mediaCount: 2,
  recipients: 120,
  sent: 120,
  delivered: true,
  unlocked: 7,
  revenue: '34.93',
  createdAt: '2026-11-20T10:00:00.000Z',
};

function serve(list: MassMessageSummary[]) {
  return installFakeFetch((call) => {
    if (call.url === '/api/auth/user') return { status: 200, body: creator };
    if (call.url === '/api/mass-messages' && call.method === 'GET') return { status: 200, body: list };
    if (call.url === '/api/mass-messages') return { status: 201, body: { ...sent, id: 'm2', recipients: 40 } };
    if (call.url.startsWith('/api/creators/c1/tiers'))
      return {
        status: 200,
        body: [
          {
            id: 'tier-p',
            creatorId: 'c1',
            name: 'Premium',
            description: '',
            price: '9.99',
            features: [],
            popular: false,
          },
        ],
      };
    return { status: 404, body: { error: 'no' } };
  });
}

describe('mass messages page', () => {
  it('shows each mass message with its segment, price, sent, unlocked and revenue', async () => {
    serve([sent]);
    renderWithApp(<MassMessagesPage />, { path: '/dashboard/mass-messages' });
    const item = await screen.findByTestId('mass-message', {}, { timeout: 5000 });
    expect(within(item).getByText('Tier: Premium')).toBeTruthy();
    expect(within(item).getByText('$4.99 pay-per-view')).toBeTruthy();
    expect(within(item).getByTestId('mass-stats').textContent).toBe('Sent 120Unlocked 7Revenue $34.93');
  });

  it('sends a priced message to one tier', async () => {
    const calls = serve([]);
    renderWithApp(<MassMessagesPage />, { path: '/dashboard/mass-messages' });
    expect(await screen.findByText('No mass messages sent yet.')).toBeTruthy();
    fireEvent.mouseDown(screen.getByLabelText('Send to'));
    fireEvent.click(await screen.findByRole('option', { name: 'Subscribers of one tier' }));
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello Premium' } });
    expect(send.disabled).toBe(true);
    fireEvent.mouseDown(screen.getByLabelText('Tier'));
    fireEvent.click(await screen.findByRole('option', { name: 'Premium ($9.99/month)' }));
    fireEvent.change(screen.getByLabelText('Price (optional, pay-per-view)'), { target: { value: '4.99' } });
    fireEvent.click(send);
    await waitFor(() =>
      expect(calls.find((call) => call.url === '/api/mass-messages' && call.method === 'POST')?.body).toEqual({
        segment: 'tier',
        tierId: 'tier-p',
        content: 'Hello Premium',
        price: '4.99',
      }),
    );
  });
});
