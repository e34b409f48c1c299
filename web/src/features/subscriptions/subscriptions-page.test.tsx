import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { MemberSubscription } from '@contracts/creator-subscriptions';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { formatDate } from '@/lib/format';
import { SubscriptionsPage } from './subscriptions-page';

jest.setTimeout(30_000);
afterEach(cleanup);

const PERIOD_END = '2026-04-01T10:00:00.000Z';

const subscription = (id: string, fields: Partial<MemberSubscription>): MemberSubscription => ({
  id,
  creatorId: `creator-${id}`,
  creatorName: 'Cleo Lee',
  creatorAvatarUrl: null,
  tierId: 'basic',
  tierName: 'Basic',
  price: '4.99',
  status: 'active',
  startedAt: '2026-03-01T10:00:00.000Z',
  periodEnd: PERIOD_END,
  renewsAt: PERIOD_END,
  endsAt: null,
  nextTier: null,
  refundableUntil: null,
  ...fields,
});

const tiers = [
  {
    id: 'basic',
    creatorId: 'creator-s1',
    name: 'Basic',
    description: '',
    price: '4.99',
    features: [],
    popular: false,
    isDefault: false,
  },
  {
    id: 'premium',
    creatorId: 'creator-s1',
    name: 'Premium',
    description: '',
    price: '19.99',
    features: [],
    popular: true,
    isDefault: false,
  },
];

/** Serves the list as it stands; each action answers with the subscription changed and changes the list. */
function serve(initial: MemberSubscription[]) {
  let list = initial;
  const change = (id: string, fields: Partial<MemberSubscription>) => {
    list = list.map((s) => (s.id === id ? { ...s, ...fields } : s));
    return { status: 200, body: list.find((s) => s.id === id) };
  };
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/subscriptions') return { status: 200, body: { subscriptions: list } };
    if (call.url === '/api/creators/creator-s1/tiers') return { status: 200, body: tiers };
    const action = /^\/api\/subscriptions\/(\w+)\/(\w+)$/.exec(call.url);
    if (action && call.method === 'POST') {
      const [, id, verb] = action;
      if (verb === 'cancel') return change(id, { status: 'canceled', renewsAt: null, endsAt: PERIOD_END });
      if (verb === 'resume') return change(id, { status: 'active', renewsAt: PERIOD_END, endsAt: null });
      if (verb === 'refund')
        return change(id, {
          status: 'refunded',
          renewsAt: null,
          endsAt: '2026-03-03T10:00:00.000Z',
          refundableUntil: null,
        });
      if (verb === 'tier') return change(id, { nextTier: { tierId: 'premium', tierName: 'Premium', price: '19.99' } });
    }
    return { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } };
  });
}

const app = (
  <Routes>
    <Route path="/subscriptions" element={<SubscriptionsPage />} />
  </Routes>
);

const cardOf = async (name: string) =>
  (await screen.findAllByTestId('subscription-card')).find((card) => within(card).queryByText(name))!;

describe('My subscriptions page', () => {
  it('shows where each subscription stands: renewal date and price, canceled until, payment failed', async () => {
    serve([
      subscription('s1', {}),
      subscription('s2', { creatorName: 'Max Moe', status: 'canceled', renewsAt: null, endsAt: PERIOD_END }),
      subscription('s3', {
        creatorName: 'Pat Past',
        status: 'past_due',
        renewsAt: '2026-04-02T10:00:00.000Z',
        endsAt: '2026-04-08T10:00:00.000Z',
      }),
    ]);
    renderWithApp(app, { path: '/subscriptions' });
    const active = await cardOf('Cleo Lee');
    expect(within(active).getByTestId('subscription-when').textContent).toBe(
      `Renews on ${formatDate(PERIOD_END)} at $4.99`,
    );
    const canceled = await cardOf('Max Moe');
    expect(within(canceled).getByTestId('subscription-when').textContent).toBe(
      `Canceled: access until ${formatDate(PERIOD_END)}`,
    );
    expect(within(canceled).getByRole('button', { name: 'Resubscribe' })).toBeTruthy();
    expect(within(canceled).queryByRole('button', { name: 'Cancel subscription' })).toBeNull();
    const pastDue = await cardOf('Pat Past');
    expect(within(pastDue).getByTestId('subscription-status').textContent).toBe('Payment failed');
    expect(within(pastDue).getByTestId('subscription-when').textContent).toMatch(/access until .*next try on/);
  });

  it('cancel asks first, says access lasts until the period end, then shows "until <date>"; resubscribe restores it', async () => {
    const calls = serve([subscription('s1', {})]);
    renderWithApp(app, { path: '/subscriptions' });
    fireEvent.click(within(await cardOf('Cleo Lee')).getByRole('button', { name: 'Cancel subscription' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(new RegExp(`keep access until ${formatDate(PERIOD_END)}`))).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel subscription' }));
    await waitFor(async () =>
      expect(within(await cardOf('Cleo Lee')).getByTestId('subscription-when').textContent).toBe(
        `Canceled: access until ${formatDate(PERIOD_END)}`,
      ),
    );
    expect(calls.some((call) => call.method === 'POST' && call.url === '/api/subscriptions/s1/cancel')).toBe(true);

    // Once the confirmation has closed, the page is in reach again.
    fireEvent.click(
      await waitFor(async () => within(await cardOf('Cleo Lee')).getByRole('button', { name: 'Resubscribe' })),
    );
    await waitFor(async () =>
      expect(within(await cardOf('Cleo Lee')).getByTestId('subscription-status').textContent).toBe('Active'),
    );
  });

  it('a tier change says the new price applies from the next renewal, and shows it there', async () => {
    const calls = serve([subscription('s1', {})]);
    renderWithApp(app, { path: '/subscriptions' });
    fireEvent.click(within(await cardOf('Cleo Lee')).getByRole('button', { name: 'Change tier' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('tier-change-terms').textContent).toMatch(
      new RegExp(`applies from your next renewal on ${formatDate(PERIOD_END)}.*nothing is charged now`),
    );
    fireEvent.click(await within(dialog).findByLabelText('Premium: $19.99/month'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Change tier' }));
    expect(
      await screen.findByText(`From ${formatDate(PERIOD_END)}: Premium at $19.99/month`, undefined, { timeout: 5000 }),
    ).toBeTruthy();
    expect(calls.find((call) => call.url === '/api/subscriptions/s1/tier')?.body).toEqual({ tierId: 'premium' });
  });

  it('offers the money-back guarantee only within its window; claiming it ends the subscription', async () => {
    const calls = serve([
      subscription('s1', { refundableUntil: '2026-03-08T10:00:00.000Z' }),
      subscription('s2', { creatorName: 'Old Charge' }),
    ]);
    renderWithApp(app, { path: '/subscriptions' });
    expect(within(await cardOf('Old Charge')).queryByRole('button', { name: 'Money-back guarantee' })).toBeNull();
    fireEvent.click(within(await cardOf('Cleo Lee')).getByRole('button', { name: 'Money-back guarantee' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund $4.99' }));
    await waitFor(async () =>
      expect(within(await cardOf('Cleo Lee')).getByTestId('subscription-status').textContent).toBe('Refunded'),
    );
    expect(calls.some((call) => call.method === 'POST' && call.url === '/api/subscriptions/s1/refund')).toBe(true);
    await waitFor(async () =>
      expect(within(await cardOf('Cleo Lee')).getByRole('link', { name: 'Subscribe again' })).toBeTruthy(),
    );
  });

  it('shows an empty state', async () => {
    serve([]);
    renderWithApp(app, { path: '/subscriptions' });
    expect(await screen.findByText('You have no creator subscriptions yet')).toBeTruthy();
  });
});
