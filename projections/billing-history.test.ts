import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { billingHistoryProjector, billingHistoryPage, decodeBillingCursor, findReceipt } from './billing-history';
import { projectionContext } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

let seq = 0n;
function recorded(
  type: string,
  data: Record<string, unknown>,
  at = `2026-01-01T00:00:${String(seq).padStart(2, '0')}.000Z`,
) {
  seq++;
  const event: RecordedEvent = {
    eventId: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`,
    streamId: 'any-x',
    revision: seq,
    position: { commit: seq, prepare: seq },
    type,
    data,
    metadata: { occurredAt: at },
    createdAt: at,
  };
  return event;
}

const member = '11111111-1111-4111-8111-111111111111';
const creator = '22222222-2222-4222-8222-222222222222';
const signUp = '33333333-3333-4333-8333-333333333333';
const renewal = '44444444-4444-4444-8444-444444444444';
const declined = '55555555-5555-4555-8555-555555555555';
const purchase = '66666666-6666-4666-8666-666666666666';
const ageCheck = '77777777-7777-4777-8777-777777777777';

const registered = (userId: string, firstName: string, cardLast4: string) =>
  recorded('UserRegistered', {
    userId,
    email: `${firstName.toLowerCase()}@example.com`,
    firstName,
    lastName: 'Lee',
    passwordHash: 'x',
    gatewayCustomerId: `cus_${firstName}`,
    cardLast4,
    registeredAt: '2026-01-01T00:00:00.000Z',
  });
const attempt = (paymentId: string, requestType: string, amountCents: number, at: string) => ({
  paymentId,
  userId: member,
  requestType,
  gatewayTransactionId: `ch_${paymentId.slice(0, 4)}`,
  gatewayCustomerId: 'cus_Ann',
  amountCents,
  currency: 'USD',
  cardLast4: '4242',
  cardHolderName: 'Ann Lee',
  email: 'ann@example.com',
  gatewayResponse: {},
  correlationId: null,
  at,
});

const events = [
  registered(member, 'Ann', '4242'),
  registered(creator, 'Cleo', '1111'),
  recorded('PaymentCaptured', attempt(ageCheck, 'age_verification', 0, '2026-01-01T00:00:01.000Z')),
  recorded('PaymentCaptured', attempt(signUp, 'membership_signup', 199, '2026-01-01T00:00:02.000Z')),
  recorded('MembershipActivated', {
    userId: member,
    periodStart: '2026-01-01T00:00:02.000Z',
    periodEnd: '2026-02-01T00:00:02.000Z',
    source: 'card',
    paymentId: signUp,
    activatedAt: '2026-01-01T00:00:02.000Z',
  }),
  recorded('CryptoConversionRequested', {
    transactionId: 'tx-1',
    conversionId: 'c-1',
    conversionNumber: 1,
    userId: member,
    walletId: null,
    walletAddress: '0xabc',
    cryptoType: 'USDC',
    cryptoAmount: '20.00000000',
    exchangeRate: '1.0000',
    grossCents: 2000,
    feeCents: 60,
    feeBasisPoints: 300,
    netCents: 1940,
    requestedAt: '2026-01-02T00:00:00.000Z',
  }),
  recorded('CryptoConversionCompleted', {
    transactionId: 'tx-1',
    conversionId: 'c-1',
    userId: member,
    walletId: null,
    cryptoAmount: '20.00000000',
    netCents: 1940,
    transactionHash: '0xhash',
    completedAt: '2026-01-02T00:01:00.000Z',
  }),
  recorded(
    'WalletDebited',
    {
      userId: member,
      amountCents: 1194,
      reason: 'site plan: 6 months + 1 free',
      reference: `membership:${purchase}`,
      balanceCents: 746,
    },
    '2026-01-03T00:00:00.000Z',
  ),
  recorded(
    'WalletDebited',
    { userId: member, amountCents: 250, reason: 'message_unlock', reference: 'messageUnlock:msg-1', balanceCents: 496 },
    '2026-01-04T00:00:00.000Z',
  ),
  recorded('MessageUnlocked', {
    messageId: 'msg-1',
    senderId: creator,
    receiverId: member,
    priceCents: 250,
    paymentReference: 'messageUnlock:msg-1',
    unlockedAt: '2026-01-04T00:00:00.000Z',
  }),
  recorded('CreatorSubscriptionStarted', {
    subscriptionId: 'sub-1',
    subscriberId: member,
    creatorId: creator,
    tierId: 'default-premium',
    tierName: 'Premium',
    priceCents: 1999,
    transactionId: 'ch_sub',
    startDate: '2026-01-05T00:00:00.000Z',
    endDate: '2026-02-05T00:00:00.000Z',
  }),
  recorded('PaymentCaptured', attempt(renewal, 'membership_renewal', 199, '2026-02-01T00:00:02.000Z')),
  recorded('PaymentRefunded', {
    paymentId: renewal,
    userId: member,
    gatewayRefundId: 're_1',
    amountCents: 199,
    reason: 'renewal not needed: the period changed',
    at: '2026-02-01T00:00:03.000Z',
  }),
  recorded('PaymentFailed', {
    ...attempt(declined, 'membership_subscribe', 199, '2026-02-02T00:00:00.000Z'),
    failureReason: 'Insufficient funds',
  }),
];

/**
 * A second member's creator subscription (issue 21): renewals declined attempt by attempt (at the
 * tier's price of the day, the changed-to tier from the next period), renewed on the card, then
 * renewing from the USD balance and refunded to it. The wallet movements of the balance are
 * written beside, as the product writes them, and must make no rows of their own.
 */
const bea = '88888888-8888-4888-8888-888888888888';
const renewedOnCard = '99999999-9999-4999-8999-999999999991';
const renewedFromBalance = '99999999-9999-4999-8999-999999999992';
const givenBackUnused = '99999999-9999-4999-8999-999999999993';
const subscription = { subscriptionId: 'sub-2', subscriberId: bea, creatorId: creator };
const tier = (type: 'TierCreated' | 'TierUpdated', tierId: string, name: string, priceCents: number, at: string) =>
  recorded(type, { creatorId: creator, tierId, name, description: name, priceCents, features: [], at }, at);
/** A decline names the tier and price it tried (`tried`: null for one from before they were named). */
const declinedRenewal = (
  periodEnd: string,
  attempt: number,
  failureReason: string,
  at: string,
  tried: { tierId: string; tierName: string; priceCents: number; paidFrom?: 'balance' } | null,
) =>
  recorded(
    'CreatorSubscriptionRenewalDeclined',
    { ...subscription, ...tried, periodEnd, attempt, failureReason, nextAttemptAt: null, graceEndsAt: periodEnd, at },
    at,
  );
const gold = { tierId: 'tier-gold', tierName: 'Gold', priceCents: 1700 };
const wallet = (
  type: 'WalletDebited' | 'WalletCredited',
  amountCents: number,
  reason: string,
  reference: string,
  at: string,
) => recorded(type, { userId: bea, amountCents, reason, reference, balanceCents: 5000 }, at);

const beaEvents = [
  registered(bea, 'Bea', '5555'),
  tier('TierCreated', 'tier-gold', 'Gold', 1500, '2026-01-06T00:00:00.000Z'),
  tier('TierCreated', 'tier-silver', 'Silver', 900, '2026-01-06T00:00:01.000Z'),
  recorded(
    'CreatorSubscriptionStarted',
    {
      ...subscription,
      tierId: 'tier-gold',
      tierName: 'Gold',
      priceCents: 750, // a first-month discount: renewals are at the tier's price
      tierPriceCents: 1500,
      promotionId: 'promo-1',
      transactionId: 'ch_sub2',
      startDate: '2026-01-06T00:00:02.000Z',
      endDate: '2026-02-06T00:00:02.000Z',
    },
    '2026-01-06T00:00:02.000Z',
  ),
  // The creator raises the price before the renewal: the renewal tries the price of the day.
  tier('TierUpdated', 'tier-gold', 'Gold', 1700, '2026-01-20T00:00:00.000Z'),
  declinedRenewal('2026-02-06T00:00:02.000Z', 1, 'Insufficient funds', '2026-02-06T00:01:00.000Z', gold),
  // Written before declines named their price: the last paid charge's tier and amount stand in.
  declinedRenewal('2026-02-06T00:00:02.000Z', 2, 'Card expired', '2026-02-07T00:01:00.000Z', null),
  recorded(
    'CreatorSubscriptionRenewed',
    {
      ...subscription,
      tierId: 'tier-gold',
      tierName: 'Gold',
      priceCents: 1700,
      renewalId: renewedOnCard,
      transactionId: 'ch_ren2',
      periodStart: '2026-02-06T00:00:02.000Z',
      periodEnd: '2026-03-06T00:00:02.000Z',
      renewedAt: '2026-02-08T00:01:00.000Z',
    },
    '2026-02-08T00:01:00.000Z',
  ),
  recorded(
    'CreatorSubscriptionTierChanged',
    {
      ...subscription,
      tierId: 'tier-silver',
      tierName: 'Silver',
      priceCents: 900,
      fromTierId: 'tier-gold',
      effectiveAt: '2026-03-06T00:00:02.000Z',
      at: '2026-02-10T00:00:00.000Z',
    },
    '2026-02-10T00:00:00.000Z',
  ),
  tier('TierUpdated', 'tier-silver', 'Silver', 1000, '2026-02-20T00:00:00.000Z'),
  recorded(
    'CreatorSubscriptionRenewalSourceChanged',
    { ...subscription, source: 'balance', at: '2026-02-21T00:00:00.000Z' },
    '2026-02-21T00:00:00.000Z',
  ),
  declinedRenewal('2026-03-06T00:00:02.000Z', 1, 'Not enough USD balance', '2026-03-06T00:01:00.000Z', {
    tierId: 'tier-silver',
    tierName: 'Silver',
    priceCents: 1000,
    paidFrom: 'balance',
  }),
  // A renewal paid from the balance but handed back unused (the subscription changed in between): no renewal.
  wallet(
    'WalletDebited',
    1000,
    'creator subscription',
    `creatorSubscription:${givenBackUnused}`,
    '2026-03-06T12:00:00.000Z',
  ),
  wallet(
    'WalletCredited',
    1000,
    'creator subscription refund',
    `creatorSubscription:${givenBackUnused}:returned`,
    '2026-03-06T12:00:01.000Z',
  ),
  wallet(
    'WalletDebited',
    1000,
    'creator subscription',
    `creatorSubscription:${renewedFromBalance}`,
    '2026-03-07T00:01:00.000Z',
  ),
  recorded(
    'CreatorSubscriptionRenewed',
    {
      ...subscription,
      tierId: 'tier-silver',
      tierName: 'Silver',
      priceCents: 1000,
      renewalId: renewedFromBalance,
      transactionId: null,
      paidFrom: 'balance',
      periodStart: '2026-03-06T00:00:02.000Z',
      periodEnd: '2026-04-06T00:00:02.000Z',
      renewedAt: '2026-03-07T00:01:00.000Z',
    },
    '2026-03-07T00:01:00.000Z',
  ),
  recorded(
    'CreatorSubscriptionRefunded',
    {
      ...subscription,
      transactionId: null,
      gatewayRefundId: null,
      paidFrom: 'balance',
      balanceReference: `creatorSubscription:${renewedFromBalance}:returned`,
      amountCents: 1000,
      reason: 'Money-back guarantee',
      at: '2026-03-08T00:00:00.000Z',
      saleReference: `creatorSubscription:${renewedFromBalance}`,
    },
    '2026-03-08T00:00:00.000Z',
  ),
  wallet(
    'WalletCredited',
    1000,
    'creator subscription refund',
    `creatorSubscription:${renewedFromBalance}:returned`,
    '2026-03-08T00:00:00.000Z',
  ),
];
const allEvents = [...events, ...beaEvents];

/**
 * Events whose effect depends on the ones before them in the same batch: a tip before its
 * creator signs up and one after, a card changed between two card tips, one tip id twice, a
 * period before its charge and after it, a failed conversion, a creator deleted between two unlocks.
 */
const dan = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const latePayment = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const tip = (tipId: string, creatorId: string, amountCents: number) =>
  recorded('TipGiven', {
    tipId,
    tipperId: bea,
    creatorId,
    amountCents,
    source: 'card',
    givenAt: '2026-03-09T00:00:00.000Z',
  });
const renewed = (periodEnd: string) =>
  recorded('MembershipRenewed', {
    userId: member,
    paymentId: latePayment,
    periodStart: '2026-03-01T00:00:00.000Z',
    periodEnd,
    renewedAt: '2026-03-01T00:00:00.000Z',
  });
const unlock = (messageId: string) =>
  recorded('MessageUnlocked', {
    messageId,
    senderId: creator,
    receiverId: member,
    priceCents: 250,
    paymentReference: `messageUnlock:${messageId}`,
    unlockedAt: '2026-03-13T00:00:00.000Z',
  });
const orderMatters = [
  tip('tip-before', dan, 300),
  registered(dan, 'Dan', '3333'),
  tip('tip-after', dan, 400),
  recorded('PaymentCardUpdated', { userId: bea, cardLast4: '9999', at: '2026-03-09T00:00:01.000Z' }),
  tip('tip-new-card', dan, 500),
  tip('tip-new-card', dan, 600),
  renewed('2026-03-31T00:00:00.000Z'),
  recorded('PaymentCaptured', attempt(latePayment, 'membership_renewal', 199, '2026-03-01T00:00:00.000Z')),
  renewed('2026-04-01T00:00:00.000Z'),
  recorded('CryptoConversionRequested', {
    transactionId: 'tx-2',
    userId: member,
    cryptoType: 'USDT',
    netCents: 485,
    requestedAt: '2026-03-10T00:00:00.000Z',
  }),
  recorded('CryptoConversionFailed', { transactionId: 'tx-2', userId: member, failureReason: 'Chain congested' }),
  unlock('msg-before-deletion'),
  recorded('AccountDeleted', { userId: creator, at: '2026-03-12T00:00:00.000Z' }),
  unlock('msg-after-deletion'),
];

describe('billing history projector', () => {
  it('builds the same rows when every event is applied twice', async () => {
    const { once, twice } = await replayTwice(db, billingHistoryProjector, allEvents);
    expect(twice).toEqual(once);
    expect(once.billing_history).toHaveLength(8 + 7);
  });

  it('applies a batch as one event at a time: in one batch or several, and replayed', async () => {
    const history = [...allEvents, ...orderMatters];
    const { once } = await replayTwice(db, billingHistoryProjector, history);
    const relevant = history.filter((event) => billingHistoryProjector.eventTypes.includes(event.type));
    for (const size of [relevant.length, 2, 3]) {
      const schema = `apply_all_billing_${size}`;
      await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.raw(`CREATE SCHEMA "${schema}"`);
      await billingHistoryProjector.createTables(db, schema);
      await db.transaction(async (trx) => {
        for (let i = 0; i < relevant.length; i += size)
          await billingHistoryProjector.applyAll!(projectionContext(trx, schema), relevant.slice(i, i + size));
      });
      expect(await dumpTables(db, billingHistoryProjector, schema)).toEqual(once);
      // A replayed batch changes nothing.
      await db.transaction((trx) => billingHistoryProjector.applyAll!(projectionContext(trx, schema), relevant));
      expect(await dumpTables(db, billingHistoryProjector, schema)).toEqual(once);
    }
    // What one event at a time leaves, which a batch must keep: each event sees the ones before it.
    const rows = await db
      .withSchema(`apply_all_billing_${relevant.length}`)
      .table('billing_history')
      .whereIn('source_id', ['tip-before', 'tip-after', 'tip-new-card', latePayment, 'msg-after-deletion'])
      .orderBy('occurred_at')
      .orderBy('amount_cents')
      .select('description', 'amount_cents', 'card_last4', 'period_end');
    expect(rows.map((r) => [r.description, r.amount_cents, r.card_last4, r.period_end?.toISOString() ?? null])).toEqual(
      [
        ['Lively site plan, 1 month (renewal)', 199, '4242', '2026-04-01T00:00:00.000Z'],
        ['Tip to a creator', 300, '5555', null],
        ['Tip to Dan Lee', 400, '5555', null],
        ['Tip to Dan Lee', 500, '9999', null],
        ['Unlocked message from Deleted user', 250, null, null],
      ],
    );
  });

  describe('the member’s money facts', () => {
    // Built in the public schema, beside a users table with the member's name, as the product has it.
    beforeAll(async () => {
      await billingHistoryProjector.createTables(db, 'public');
      await db.schema.createTable('users', (t) => {
        t.uuid('id').primary();
        t.text('email');
        t.text('first_name');
        t.text('last_name');
      });
      await db('users').insert([
        { id: member, email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' },
        { id: bea, email: 'bea@example.com', first_name: 'Bea', last_name: 'Lee' },
      ]);
      await db.transaction(async (trx) => {
        for (const event of allEvents) await billingHistoryProjector.apply(projectionContext(trx, 'public'), event);
      });
    });

    it('lists every charge and credit newest first with exact cents, methods and statuses', async () => {
      const { entries, nextCursor } = await billingHistoryPage(db, member, { cursor: null, limit: 20 });
      expect(nextCursor).toBeNull();
      expect(entries.map((e) => [e.kind, e.direction, e.amount, e.status, e.description])).toEqual([
        ['site_plan', 'charge', '1.99', 'failed', 'Lively site plan, 1 month'],
        ['refund', 'credit', '1.99', 'credited', 'Refund: Lively site plan, 1 month (renewal)'],
        ['site_plan', 'charge', '1.99', 'refunded', 'Lively site plan, 1 month (renewal)'],
        ['tier_subscription', 'charge', '19.99', 'paid', 'Subscription to Cleo Lee – Premium, 1 month'],
        ['message_unlock', 'charge', '2.50', 'paid', 'Unlocked message from Cleo Lee'],
        ['site_plan', 'charge', '11.94', 'paid', 'Lively site plan, 6 months + 1 free'],
        ['crypto_conversion', 'credit', '19.40', 'credited', 'USDC → USD conversion'],
        ['site_plan', 'charge', '1.99', 'paid', 'Lively site plan, 1 month'],
      ]);
      expect(entries.map((e) => e.method)).toEqual([
        { type: 'card', cardLast4: '4242' },
        { type: 'card', cardLast4: '4242' },
        { type: 'card', cardLast4: '4242' },
        { type: 'card', cardLast4: '4242' },
        { type: 'usd_balance' },
        { type: 'usd_balance' },
        { type: 'crypto', cryptoType: 'USDC' },
        { type: 'card', cardLast4: '4242' },
      ]);
      expect(entries.filter((e) => e.hasReceipt)).toHaveLength(6);
      // Only the failed card payment says why (as its receipt does); a refund's reason is no detail of its row.
      expect(entries.map((e) => e.detail)).toEqual(['Insufficient funds', null, null, null, null, null, null, null]);
      expect((await billingHistoryPage(db, creator, { cursor: null, limit: 20 })).entries).toEqual([]);
    });

    it('pages by keyset without gaps or repeats', async () => {
      const all = (await billingHistoryPage(db, member, { cursor: null, limit: 20 })).entries.map((e) => e.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof billingHistoryPage>> = await billingHistoryPage(db, member, {
          cursor: cursor ? decodeBillingCursor(cursor) : null,
          limit: 3,
        });
        seen.push(...page.entries.map((e) => e.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all);
      expect(decodeBillingCursor('not-a-cursor')).toBeNull();
    });

    it('a receipt shows the period paid for and the refunds against it; only its owner reads it', async () => {
      const { entries } = await billingHistoryPage(db, member, { cursor: null, limit: 20 });
      const refunded = entries.find((e) => e.status === 'refunded')!;
      const receipt = await findReceipt(db, member, refunded.id);
      expect(receipt).toMatchObject({
        item: 'Lively site plan, 1 month (renewal)',
        amount: '1.99',
        status: 'refunded',
        refundedAmount: '1.99',
        refunds: [{ amount: '1.99', reason: 'renewal not needed: the period changed' }],
      });
      expect(receipt!.member).toEqual({ name: 'Ann Lee', email: 'ann@example.com' });
      expect(receipt!.number).toMatch(/^LV-20260201-[0-9A-F]{8}$/);
      const first = await findReceipt(db, member, entries[entries.length - 1].id);
      expect(first).toMatchObject({ periodStart: '2026-01-01T00:00:02.000Z', periodEnd: '2026-02-01T00:00:02.000Z' });
      expect(await findReceipt(db, creator, refunded.id)).toBeNull();
      const credit = entries.find((e) => e.kind === 'crypto_conversion')!;
      expect(await findReceipt(db, member, credit.id)).toBeNull();
    });

    it('lists each declined renewal attempt at the price it tried, renewals by card and from the balance, and the refund to the balance', async () => {
      const { entries } = await billingHistoryPage(db, bea, { cursor: null, limit: 20 });
      expect(
        entries.map((e) => [e.kind, e.direction, e.amount, e.status, e.method, e.hasReceipt, e.description]),
      ).toEqual([
        [
          'refund',
          'credit',
          '10.00',
          'credited',
          { type: 'usd_balance' },
          false,
          'Refund: Subscription to Cleo Lee – Silver, monthly renewal',
        ],
        [
          'tier_subscription',
          'charge',
          '10.00',
          'refunded',
          { type: 'usd_balance' },
          true,
          'Subscription to Cleo Lee – Silver, monthly renewal',
        ],
        // From the next period on, the changed-to tier at its price of the day, from the balance the member chose
        // (as the renewal process named them).
        [
          'tier_subscription',
          'charge',
          '10.00',
          'declined',
          { type: 'usd_balance' },
          false,
          'Subscription to Cleo Lee – Silver, monthly renewal (attempt 1)',
        ],
        [
          'tier_subscription',
          'charge',
          '17.00',
          'paid',
          { type: 'card', cardLast4: '5555' },
          true,
          'Subscription to Cleo Lee – Gold, monthly renewal',
        ],
        // A decline from before declines named their price: at the last paid charge's.
        [
          'tier_subscription',
          'charge',
          '7.50',
          'declined',
          { type: 'card', cardLast4: '5555' },
          false,
          'Subscription to Cleo Lee – Gold, monthly renewal (attempt 2)',
        ],
        [
          'tier_subscription',
          'charge',
          '17.00',
          'declined',
          { type: 'card', cardLast4: '5555' },
          false,
          'Subscription to Cleo Lee – Gold, monthly renewal (attempt 1)',
        ],
        [
          'tier_subscription',
          'charge',
          '7.50',
          'paid',
          { type: 'card', cardLast4: '5555' },
          true,
          'Subscription to Cleo Lee – Gold, 1 month',
        ],
      ]);
      // Each attempt says why it was declined; no other row has a detail (the refund's reason is on its receipt).
      expect(entries.map((e) => [e.status, e.detail])).toEqual([
        ['credited', null],
        ['refunded', null],
        ['declined', 'Not enough USD balance'],
        ['paid', null],
        ['declined', 'Card expired'],
        ['declined', 'Insufficient funds'],
        ['paid', null],
      ]);
      // As stored: the reason is the row's note.
      const declinedRows = await db('billing_history')
        .where({ user_id: bea, status: 'declined' })
        .orderBy('occurred_at')
        .select('note', 'amount_cents');
      expect(declinedRows).toEqual([
        { note: 'Insufficient funds', amount_cents: 1700 },
        { note: 'Card expired', amount_cents: 750 },
        { note: 'Not enough USD balance', amount_cents: 1000 },
      ]);
      // The wallet's debits and credits of the renewals (paid, returned unused, refunded) add no rows.
      expect(await db('billing_history').where({ user_id: bea }).count({ n: '*' })).toEqual([{ n: '7' }]);
    });

    it('a declined attempt has no receipt; a renewal from the balance has one with its refund to the balance', async () => {
      const { entries } = await billingHistoryPage(db, bea, { cursor: null, limit: 20 });
      const attempt = entries.find((e) => e.status === 'declined')!;
      expect(await findReceipt(db, bea, attempt.id)).toBeNull();
      const fromBalance = entries.find((e) => e.status === 'refunded')!;
      expect(await findReceipt(db, bea, fromBalance.id)).toMatchObject({
        item: 'Subscription to Cleo Lee – Silver, monthly renewal',
        periodStart: '2026-03-06T00:00:02.000Z',
        periodEnd: '2026-04-06T00:00:02.000Z',
        amount: '10.00',
        method: { type: 'usd_balance' },
        status: 'refunded',
        failureReason: null,
        refunds: [{ amount: '10.00', reason: 'Money-back guarantee' }],
        refundedAmount: '10.00',
      });
    });
  });
});
