import { ABANDONED_CLAIM_MS, claimPromotion, promotionTerms } from '../../domain/creators/promotions';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';

/**
 * Promotions through HTTP on the real product: a creator's trial and first-month discount, the
 * offer behind the share link, subscribing with it, its limits (count, end, one trial per member
 * and creator) and the last redemption under concurrent subscribes.
 */
jest.setTimeout(120_000);
let stack: TestStack;
/** How far the stack's clock is ahead of real time (the claims ticker's test moves it). */
let clockAhead = 0;
beforeAll(async () => {
  stack = await startTestStack({ trustProxy: true, clock: () => new Date(Date.now() + clockAhead) });
});
afterAll(() => stack.close());

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
type Member = TestMember;

/** A member signed up through the API with an active site plan (the sandbox token picks the card's behaviour). */
const member = (paymentToken?: string) => signUpMember(stack, 'Pat', { lastName: 'Promo', paymentToken });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const subscribe = (who: Member, tierId: string, promotionId: string) =>
  who.agent.post('/api/subscriptions').send({ creatorId: creator.id, tierId, promotionId });
const offer = (promotionId: string) =>
  creator.agent
    .get(`/api/promotions/${promotionId}`)
    .expect(200)
    .then((res) => res.body);

let creator: Member;
beforeAll(async () => {
  creator = await member();
  await creator.agent.post('/api/creators/register').send({ bio: 'Promotions' }).expect(201);
});

describe('promotions API', () => {
  it('is for creators: members are refused, bad terms are 400, and another creator cannot end one', async () => {
    const other = await member();
    const trial = { kind: 'trial', trialDays: 7, tierId: 'default-premium', maxRedemptions: 5, endsAt: inDays(10) };
    expect((await other.agent.post('/api/creators/me/promotions').send(trial).expect(403)).body.code).toBe(
      'CREATOR_REQUIRED',
    );
    await other.agent.get('/api/creators/me/promotions').expect(403);
    await stack.agent().get('/api/creators/me/promotions').expect(401);
    const bad = await creator.agent
      .post('/api/creators/me/promotions')
      .send({ ...trial, trialDays: 120 })
      .expect(400);
    expect(bad.body.fields).toMatchObject({ trialDays: 'Trial days must be between 1 and 90' });
    await creator.agent
      .post('/api/creators/me/promotions')
      .send({ ...trial, kind: 'discount', percentOff: 95 })
      .expect(400);
    await creator.agent
      .post('/api/creators/me/promotions')
      .send({ ...trial, endsAt: inDays(-1) })
      .expect(400);
    await creator.agent
      .post('/api/creators/me/promotions')
      .send({ ...trial, tierId: 'no-such-tier' })
      .expect(404);

    const created = await creator.agent.post('/api/creators/me/promotions').send(trial).expect(201);
    expect(created.body).toMatchObject({ kind: 'trial', trialDays: 7, remaining: 5, status: 'active' });
    await other.agent.post('/api/creators/me/promotions/00000000-0000-4000-8000-000000000000/end').expect(403);
    await other.agent.post('/api/creators/register').send({ bio: 'Other' }).expect(201);
    await other.agent.post(`/api/creators/me/promotions/${created.body.id}/end`).expect(404);
    await other.agent.get('/api/promotions/00000000-0000-4000-8000-000000000000').expect(404);
  });

  it('a trial starts a free first period of its days, once per member and creator, until the creator ends it', async () => {
    const trial = (
      await creator.agent
        .post('/api/creators/me/promotions')
        .send({ kind: 'trial', trialDays: 7, tierId: 'default-premium', maxRedemptions: 3, endsAt: inDays(30) })
        .expect(201)
    ).body;
    expect(await offer(trial.id)).toMatchObject({
      creatorId: creator.id,
      tierName: 'Premium',
      kind: 'trial',
      price: '19.99',
      firstPeriodPrice: '0.00',
      remaining: 3,
      status: 'active',
    });

    const fan = await member();
    const started = await subscribe(fan, 'default-premium', trial.id).expect(201);
    const days = (new Date(started.body.endDate).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect((await offer(trial.id)).remaining).toBe(2);
    const [trialStarted] = await stack.store.readStream(`creatorSubscription-${fan.id}_${creator.id}`);
    expect(trialStarted.data).toMatchObject({ priceCents: 0, transactionId: null, promotionId: trial.id }); // no charge

    // Another trial of the same creator is refused to this member (the one trial is taken for good).
    const second = (
      await creator.agent
        .post('/api/creators/me/promotions')
        .send({ kind: 'trial', trialDays: 14, tierId: 'default-basic', maxRedemptions: 3, endsAt: inDays(30) })
        .expect(201)
    ).body;
    const ask = { creatorId: creator.id, tierId: 'default-basic', subscriberId: fan.id, now: new Date() };
    await expect(promotionTerms(stack.store, { ...ask, promotionId: second.id })).rejects.toThrow(
      'You have already had a free trial with this creator',
    );
    // A promotion's tier is its own: the trial is not for Basic.
    const wrongTier = await subscribe(await member(), 'default-basic', trial.id).expect(422);
    expect(wrongTier.body.code).toBe('PROMOTION_WRONG_TIER');

    const ended = await creator.agent.post(`/api/creators/me/promotions/${trial.id}/end`).expect(200);
    expect(ended.body).toMatchObject({ status: 'ended', redemptions: 1 });
    const refused = await subscribe(await member(), 'default-premium', trial.id).expect(422);
    expect(refused.body).toMatchObject({ error: 'This offer has ended', code: 'PROMOTION_ENDED' });
    const list = (await creator.agent.get('/api/creators/me/promotions').expect(200)).body;
    expect(list.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining([trial.id, second.id]));
  });

  it('a discount charges the first month less; a declined card gives the redemption back; used up is refused', async () => {
    const discount = (
      await creator.agent
        .post('/api/creators/me/promotions')
        .send({ kind: 'discount', percentOff: 50, tierId: 'default-basic', maxRedemptions: 1, endsAt: inDays(5) })
        .expect(201)
    ).body;
    expect(await offer(discount.id)).toMatchObject({ price: '9.99', firstPeriodPrice: '5.00', remaining: 1 });

    const broke = await member(`dev_tok_renewal_fails_${unique()}`);
    await subscribe(broke, 'default-basic', discount.id).expect(402);
    const stream = await stack.store.readStream(`promotion-${discount.id}`);
    expect(stream.map((event) => event.type)).toEqual([
      'PromotionCreated',
      'PromotionRedeemed',
      'PromotionRedemptionReleased',
    ]);
    expect(await stack.settle()).toBe(true); // a refusal answers without waiting for the read models
    expect((await offer(discount.id)).remaining).toBe(1);

    const fan = await member();
    await subscribe(fan, 'default-basic', discount.id).expect(201);
    const [started] = await stack.store.readStream(`creatorSubscription-${fan.id}_${creator.id}`);
    expect(started.data).toMatchObject({ priceCents: 500, promotionId: discount.id });
    expect((started.data as { transactionId: string | null }).transactionId).toEqual(expect.any(String));
    expect(await offer(discount.id)).toMatchObject({ remaining: 0, status: 'used_up' });
    const late = await subscribe(await member(), 'default-basic', discount.id).expect(422);
    expect(late.body).toMatchObject({ error: 'This offer has been fully redeemed', code: 'PROMOTION_USED_UP' });
  });

  it('the last redemption goes to one of several members subscribing at once', async () => {
    const last = (
      await creator.agent
        .post('/api/creators/me/promotions')
        .send({ kind: 'discount', percentOff: 20, tierId: 'default-vip', maxRedemptions: 1, endsAt: inDays(5) })
        .expect(201)
    ).body;
    const fans = await Promise.all([member(), member(), member(), member()]);
    const answers = await Promise.all(fans.map((fan) => subscribe(fan, 'default-vip', last.id)));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 422, 422, 422]);
    expect(await stack.settle()).toBe(true);
    expect(await offer(last.id)).toMatchObject({ remaining: 0 });
    const list = (await creator.agent.get('/api/creators/me/promotions').expect(200)).body;
    expect(list.find((p: { id: string }) => p.id === last.id)).toMatchObject({ redemptions: 1, maxRedemptions: 1 });
  });

  it('gives back a redemption whose subscribing request died before the subscription started', async () => {
    const promo = (
      await creator.agent
        .post('/api/creators/me/promotions')
        .send({ kind: 'trial', trialDays: 3, tierId: 'default-vip', maxRedemptions: 1, endsAt: inDays(5) })
        .expect(201)
    ).body;
    const fan = await member();
    const claim = {
      promotionId: promo.id,
      creatorId: creator.id,
      tierId: 'default-vip',
      subscriberId: fan.id,
      subscriptionId: '99999999-9999-4999-8999-999999999999',
      chargeCents: 0,
    };
    await claimPromotion(stack.store, claim, { actorId: fan.id, now: new Date() }); // then the request died
    expect(await stack.settle()).toBe(true);
    expect((await offer(promo.id)).remaining).toBe(0);

    await stack.tickers.runOnce(); // too early: the request may still be running
    expect(await stack.settle()).toBe(true);
    expect((await offer(promo.id)).remaining).toBe(0);
    try {
      clockAhead = ABANDONED_CLAIM_MS + 60_000;
      await stack.tickers.runOnce();
    } finally {
      clockAhead = 0;
    }
    expect(await stack.settle()).toBe(true);
    expect((await offer(promo.id)).remaining).toBe(1);
    // The member's trial with this creator was given back with it.
    await subscribe(fan, 'default-vip', promo.id).expect(201);
  });
});
