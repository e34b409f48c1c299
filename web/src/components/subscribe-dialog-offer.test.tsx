import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { Creator, Tier } from '@contracts/creators';
import type { PromotionOffer } from '@contracts/promotions';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { SubscribeDialog } from './subscribe-dialog';

/** The subscribe dialog opened from a promotion's share link (issue 21). */
jest.setTimeout(30_000);
afterEach(cleanup);

const creator: Creator = {
  id: 'c1',
  name: 'Carla Creator',
  firstName: 'Carla',
  lastName: 'Creator',
  bio: 'Bio',
  coverImageUrl: null,
  profileImageUrl: null,
  price: '9.99',
  postCount: 1,
  subscriberCount: 0,
  verified: false,
};
const tier = (id: string, name: string, price: string): Tier => ({
  id,
  creatorId: 'c1',
  name,
  description: '',
  price,
  features: [],
  popular: false,
  isDefault: true,
});
const tiers = [tier('default-basic', 'Basic', '9.99'), tier('default-premium', 'Premium', '19.99')];
const trial: PromotionOffer = {
  id: 'p1',
  creatorId: 'c1',
  creatorName: 'Carla Creator',
  tierId: 'default-basic',
  tierName: 'Basic',
  kind: 'trial',
  trialDays: 7,
  percentOff: null,
  price: '9.99',
  firstPeriodPrice: '0.00',
  remaining: 12,
  endsAt: '2026-12-01T12:00:00.000Z',
  status: 'active',
};

function serve(offer: FakeAnswer, subscribe: FakeAnswer = { status: 201, body: {} }): FakeCall[] {
  return installFakeFetch((call) => {
    if (call.url.includes('/api/promotions/')) return offer;
    if (call.method === 'POST') return subscribe;
    return { status: 200, body: tiers };
  });
}
const open = () => renderWithApp(<SubscribeDialog creator={creator} open onClose={() => undefined} promotionId="p1" />);
const posted = (calls: FakeCall[]) => calls.find((call) => call.method === 'POST')?.body;

describe('subscribe dialog with an offer', () => {
  it('shows a trial on its tier and subscribes with the promotion', async () => {
    const calls = serve({ status: 200, body: trial });
    open();
    const notice = await screen.findByTestId('offer-notice');
    expect(notice.textContent).toContain('7-day free trial, then $9.99/month');
    expect(notice.textContent).toContain('on Basic. 12 left · ends 1 Dec 2026.');
    fireEvent.click(await screen.findByRole('button', { name: 'Start free trial' }));
    expect(await screen.findByText('Subscription successful!')).toBeTruthy();
    expect(posted(calls)).toEqual({ creatorId: 'c1', tierId: 'default-basic', promotionId: 'p1' });
  });

  it('shows a first-month discount; another tier subscribes at its price without the offer', async () => {
    const calls = serve({
      status: 200,
      body: { ...trial, kind: 'discount', trialDays: null, percentOff: 50, firstPeriodPrice: '5.00' },
    });
    open();
    expect((await screen.findByTestId('tier-offer')).textContent).toBe('First month $5.00, then $9.99/month');
    expect(screen.getByRole('button', { name: 'Subscribe for $5.00' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe to Premium' }));
    expect(await screen.findByText('Subscription successful!')).toBeTruthy();
    expect(posted(calls)).toEqual({ creatorId: 'c1', tierId: 'default-premium' });
  });

  it('says when the offer is no longer valid and offers the regular price', async () => {
    const calls = serve({ status: 200, body: { ...trial, remaining: 0, status: 'used_up' } });
    open();
    expect((await screen.findByTestId('offer-notice')).textContent).toBe(
      'This offer has been fully redeemed. You can still subscribe at the regular price.',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Subscribe to Basic' }));
    expect(await screen.findByText('Subscription successful!')).toBeTruthy();
    expect(posted(calls)).toEqual({ creatorId: 'c1', tierId: 'default-basic' });
  });

  it('an unknown offer, or another creator’s, is no longer valid', async () => {
    serve({ status: 404, body: { error: 'This offer does not exist', code: 'NOT_FOUND' } });
    open();
    expect((await screen.findByTestId('offer-notice')).textContent).toContain('This offer is no longer valid.');
    cleanup();
    serve({ status: 200, body: { ...trial, creatorId: 'someone-else' } });
    open();
    expect((await screen.findByTestId('offer-notice')).textContent).toContain('This offer is no longer valid.');
    expect(screen.queryByRole('button', { name: 'Start free trial' })).toBeNull();
  });

  it('a refusal of the offer at subscribe time says why', async () => {
    serve(
      { status: 200, body: trial },
      {
        status: 422,
        body: { error: 'You have already had a free trial with this creator', code: 'TRIAL_ALREADY_USED' },
      },
    );
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Start free trial' }));
    expect(await screen.findByText('Subscription failed')).toBeTruthy();
    expect(screen.getByText('You have already had a free trial with this creator')).toBeTruthy();
  });
});
