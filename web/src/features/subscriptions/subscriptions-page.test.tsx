import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import type { MemberSubscription } from '@contracts/creator-subscriptions';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
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
  renewFrom: 'card',
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

/**
 * Serves the list as it stands and a USD balance; each action answers with the subscription changed and changes
 * the list. `refuseRenewalSource` answers the renewal-source change instead (a refusal).
 */
function serve(
  initial: MemberSubscription[],
  { balance = '50.00', refuseRenewalSource }: { balance?: string; refuseRenewalSource?: FakeAnswer } = {},
) {
  let list = initial;
  const change = (id: string, fields: Partial<MemberSubscription>) => {
    list = list.map((s) => (s.id === id ? { ...s, ...fields } : s));
    return { status: 200, body: list.find((s) => s.id === id) };
  };
  return installFakeFetch((call: FakeCall) => {
    if (call.url === '/api/subscriptions') return { status: 200, body: { subscriptions: list } };
    if (call.url === '/api/creators/creator-s1/tiers') return { status: 200, body: tiers };
    if (call.url === '/api/crypto/balance') return { status: 200, body: { totalUsd: balance, conversions: [] } };
    const action = /^\/api\/subscriptions\/(\w+)\/([\w-]+)$/.exec(call.url);
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
      if (verb === 'renewal-source')
        return refuseRenewalSource ?? change(id, { renewFrom: (call.body as { source: 'card' | 'balance' }).source });
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

/** A subscription whose renewal failed: retried on 2 Apr, access until 8 Apr. */
const failedRenewal = (id: string) =>
  subscription(id, {
    creatorName: 'Pat Past',
    status: 'past_due',
    renewsAt: '2026-04-02T10:00:00.000Z',
    endsAt: '2026-04-08T10:00:00.000Z',
  });

describe('My subscriptions page', () => {
  it('shows where each subscription stands: renewal date and price, canceled until, payment failed', async () => {
    serve([
      subscription('s1', {}),
      subscription('s2', { creatorName: 'Max Moe', status: 'canceled', renewsAt: null, endsAt: PERIOD_END }),
      failedRenewal('s3'),
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

  it('renewals from the card say nothing more; from the balance they say so', async () => {
    serve([
      subscription('s1', { price: '19.99' }),
      subscription('s2', { creatorName: 'Bal Ance', price: '19.99', renewFrom: 'balance' }),
    ]);
    renderWithApp(app, { path: '/subscriptions' });
    expect(within(await cardOf('Cleo Lee')).getByTestId('subscription-when').textContent).toMatch(
      /^Renews on \d+ \w+ \d{4} at \$19\.99$/,
    );
    expect(within(await cardOf('Bal Ance')).getByTestId('subscription-when').textContent).toBe(
      `Renews on ${formatDate(PERIOD_END)} at $19.99 from your USD balance`,
    );
  });

  it('"Renew with" the USD balance posts the choice, says so, and shows the balance beside the option', async () => {
    const calls = serve([subscription('s1', {})], { balance: '12.34' });
    renderWithApp(app, { path: '/subscriptions' });
    const card = await cardOf('Cleo Lee');
    const group = within(card).getByRole('radiogroup', { name: 'Renew with' });
    expect(within(card).getByLabelText('Renew with')).toBe(group);
    expect((within(group).getByRole('radio', { name: 'Card on file' }) as HTMLInputElement).checked).toBe(true);
    const balance = await within(group).findByRole('radio', { name: 'USD balance ($12.34)' });
    fireEvent.click(balance);
    expect(await screen.findByText('Renewals will be paid from your USD balance')).toBeTruthy();
    const posted = calls.filter(
      (call) => call.method === 'POST' && call.url === '/api/subscriptions/s1/renewal-source',
    );
    expect(posted.map((call) => call.body)).toEqual([{ source: 'balance' }]);
    await waitFor(async () =>
      expect(within(await cardOf('Cleo Lee')).getByTestId('subscription-when').textContent).toBe(
        `Renews on ${formatDate(PERIOD_END)} at $4.99 from your USD balance`,
      ),
    );
    expect(
      (within(await cardOf('Cleo Lee')).getByRole('radio', { name: /USD balance/ }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(within(await cardOf('Cleo Lee')).queryByTestId('renewal-balance-hint')).toBeNull();

    // And back to the card.
    fireEvent.click(within(await cardOf('Cleo Lee')).getByRole('radio', { name: 'Card on file' }));
    expect(await screen.findByText('Renewals will be charged to your card on file')).toBeTruthy();
    expect(calls.filter((call) => call.url === '/api/subscriptions/s1/renewal-source').at(-1)?.body).toEqual({
      source: 'card',
    });
  });

  it('a refusal of the renewal source shows the server text and keeps the card on file', async () => {
    const refusal = 'This subscription is canceled: it will not renew';
    serve([subscription('s1', {})], {
      refuseRenewalSource: { status: 409, body: { error: refusal, code: 'SUBSCRIPTION_NOT_RENEWING' } },
    });
    renderWithApp(app, { path: '/subscriptions' });
    fireEvent.click(within(await cardOf('Cleo Lee')).getByRole('radio', { name: /USD balance/ }));
    expect(await screen.findByText(refusal)).toBeTruthy();
    await waitFor(async () =>
      expect(
        (within(await cardOf('Cleo Lee')).getByRole('radio', { name: 'Card on file' }) as HTMLInputElement).checked,
      ).toBe(true),
    );
  });

  it('warns when the USD balance is below the next renewal price', async () => {
    serve(
      [
        subscription('s1', {
          renewFrom: 'balance',
          nextTier: { tierId: 'premium', tierName: 'Premium', price: '19.99' },
        }),
        subscription('s2', { creatorName: 'Card Only' }),
        subscription('s3', { creatorName: 'Cheap Tier', renewFrom: 'balance', price: '4.99' }),
      ],
      { balance: '5.00' },
    );
    renderWithApp(app, { path: '/subscriptions' });
    const hint = await within(await cardOf('Cleo Lee')).findByTestId('renewal-balance-hint');
    expect(hint.textContent).toBe(
      'Your balance covers less than the next renewal of $19.99: it will be declined unless you add funds or switch back to your card',
    );
    await within(await cardOf('Cheap Tier')).findByRole('radio', { name: 'USD balance ($5.00)' });
    expect(within(await cardOf('Cheap Tier')).queryByTestId('renewal-balance-hint')).toBeNull();
    expect(within(await cardOf('Card Only')).queryByTestId('renewal-balance-hint')).toBeNull();
  });

  it('offers no renewal choice once the subscription will not renew', async () => {
    serve([
      subscription('s1', { status: 'canceled', renewsAt: null, endsAt: PERIOD_END }),
      subscription('s2', { creatorName: 'Gone Away', status: 'expired', renewsAt: null, endsAt: PERIOD_END }),
      failedRenewal('s3'),
    ]);
    renderWithApp(app, { path: '/subscriptions' });
    expect(within(await cardOf('Cleo Lee')).queryByRole('radiogroup', { name: 'Renew with' })).toBeNull();
    expect(within(await cardOf('Gone Away')).queryByRole('radiogroup', { name: 'Renew with' })).toBeNull();
    expect(within(await cardOf('Pat Past')).getByRole('radiogroup', { name: 'Renew with' })).toBeTruthy();
  });

  it('shows an empty state', async () => {
    serve([]);
    renderWithApp(app, { path: '/subscriptions' });
    expect(await screen.findByText('You have no creator subscriptions yet')).toBeTruthy();
  });
});
