import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { PromotionView } from '@contracts/promotions';
import { installFakeFetch, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { PromotionsPanel } from './promotions-panel';

jest.setTimeout(30_000);
afterEach(cleanup);

const tiers = [
  {
    id: 't-gold',
    creatorId: 'c1',
    name: 'Gold',
    description: '',
    price: '9.99',
    features: [],
    popular: false,
    isDefault: false,
  },
];
const promotion: PromotionView = {
  id: 'p1',
  creatorId: 'c1',
  tierId: 't-gold',
  tierName: 'Gold',
  kind: 'trial',
  trialDays: 7,
  percentOff: null,
  maxRedemptions: 3,
  redemptions: 1,
  remaining: 2,
  endsAt: '2027-01-12T12:00:00.000Z',
  endedAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  status: 'active',
};

function serve(list: PromotionView[]): FakeCall[] {
  return installFakeFetch((call) => {
    if (call.url.endsWith('/tiers')) return { status: 200, body: tiers };
    if (call.url === '/api/creators/me/promotions' && call.method === 'GET') return { status: 200, body: list };
    if (call.url === '/api/creators/me/promotions') return { status: 201, body: { ...promotion, id: 'p2' } };
    if (call.url.endsWith('/end')) return { status: 200, body: { ...promotion, status: 'ended' } };
    return { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } };
  });
}

describe('promotions panel', () => {
  it('lists each promotion with its redemptions, what is left and its end; copies the share link', async () => {
    serve([
      promotion,
      { ...promotion, id: 'p0', kind: 'discount', trialDays: null, percentOff: 25, status: 'expired' },
    ]);
    const writeText = jest.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    renderWithApp(<PromotionsPanel creatorId="c1" />);
    const rows = await screen.findAllByTestId('promotion-row');
    expect(rows[0].textContent).toContain('Gold · 7-day free trial');
    expect(rows[0].textContent).toContain('1 of 3 redeemed · 2 left · ends 12 Jan 2027');
    expect(rows[1].textContent).toContain('Gold · 25% off the first month');
    expect(within(rows[1]).getByText('Expired')).toBeTruthy();
    expect(within(rows[1]).queryByRole('button', { name: /Copy share link/ })).toBeNull();
    fireEvent.click(within(rows[0]).getByRole('button', { name: /Copy share link/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/creator/c1?promo=p1`));
    expect(await screen.findByText('Share link copied to clipboard')).toBeTruthy();
  });

  it('creates a discount with the terms typed, and refuses terms out of range before sending', async () => {
    const calls = serve([]);
    renderWithApp(<PromotionsPanel creatorId="c1" />);
    expect(await screen.findByText('No promotions yet')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'New Promotion' })).toHaveProperty('disabled', false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'New Promotion' }));
    fireEvent.change(screen.getByLabelText('Trial days (1 to 90)'), { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Promotion' }));
    expect(await screen.findByText('Trial days must be between 1 and 90')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'First-month discount' }));
    fireEvent.change(screen.getByLabelText('Percent off the first month (5 to 90)'), { target: { value: '25' } });
    fireEvent.change(screen.getByLabelText('How many members can redeem it'), { target: { value: '40' } });
    fireEvent.change(screen.getByLabelText('Ends on'), { target: { value: '2027-01-31' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Promotion' }));
    expect(await screen.findByText('Promotion created')).toBeTruthy();
    const sent = calls.find((call) => call.method === 'POST')?.body as Record<string, unknown>;
    expect(sent).toMatchObject({ kind: 'discount', percentOff: 25, tierId: 't-gold', maxRedemptions: 40 });
    expect(new Date(String(sent.endsAt)).getDate()).toBe(31);
  });

  it('ends a running promotion', async () => {
    const calls = serve([promotion]);
    renderWithApp(<PromotionsPanel creatorId="c1" />);
    fireEvent.click(await screen.findByRole('button', { name: 'End promotion' }));
    expect(await screen.findByText('Promotion ended')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST' && call.url === '/api/creators/me/promotions/p1/end')).toBe(
      true,
    );
  });
});
