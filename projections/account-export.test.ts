import type { Knex } from 'knex';
import type { AccountExport } from '../domain/contracts/account';
import { accountDecider } from '../domain/accounts/decider';
import type { UserRegisteredData } from '../domain/accounts/events';
import { userStream } from '../domain/accounts/events';
import { hashResetToken } from '../domain/accounts/password-reset';
import { hashPassword } from '../domain/accounts/passwords';
import { registerUser } from '../domain/accounts/register';
import { saveChatPreferences, saveChatProfile } from '../domain/chat/commands';
import { createTier, registerCreator } from '../domain/creators/commands';
import { subscribeToCreator } from '../domain/creators/subscribe';
import { registerCryptoWallet, requestConversion } from '../domain/crypto/commands';
import { FixedRatesProvider } from '../domain/crypto/rates';
import { SandboxCryptoGateway } from '../domain/crypto/sandbox-gateway';
import { checkSettlements, conversionSubmission } from '../domain/crypto/settlement-process';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { sendMessage } from '../domain/messaging/commands';
import { createSandboxGateway } from '../domain/payments/sandbox-gateway';
import { addPaymentAccount, requestPayout } from '../domain/payouts/commands';
import { creditEarnings } from '../domain/payouts/credit-earnings';
import { splitEarnings } from '../domain/payouts/money';
import { createSandboxPayoutGateway } from '../domain/payouts/sandbox-gateway';
import { commentOnPost, likePost, publishPost } from '../domain/posts/commands';
import { blockUser, DEFAULT_AUTO_SUSPEND_POLICY, fileReport } from '../domain/safety/commands';
import { handleCommand } from '../domain/shared/command-handler';
import { tipCreator } from '../domain/tips/commands';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { accountExport, accountExportSize } from './account-export';
import { projectionContext } from './engine/projector';
import { allProjectors } from './engine/registry';

jest.setTimeout(60_000);
let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

let minute = 0;
/** The clock of the story: a minute per step from 1 March 2026. */
const tick = () => new Date(Date.UTC(2026, 2, 1, 12, minute++));
const as = (actorId: string) => ({ actorId, now: tick() });
const PASSWORD = 'correct horse battery';
const applied = new Set<string>();

/** Every read model, built in the public schema by its projector from the events not applied yet. */
async function project(): Promise<void> {
  const events = (await readWholeLog(store)).filter((event) => !applied.has(event.eventId));
  await db.transaction(async (trx) => {
    for (const projector of allProjectors) {
      const handled = new Set(projector.eventTypes);
      for (const event of events)
        if (handled.has(event.type)) await projector.apply(projectionContext(trx, 'public'), event);
    }
  });
  for (const event of events) applied.add(event.eventId);
}

const gateway = createSandboxGateway();
const people: Record<'ann' | 'cleo' | 'dan' | 'eve', UserRegisteredData> = {} as never;
let passwordHash: string;
let lockedMessageId: string;
let postId: string;
const scheduledPostId = 'b0000000-0000-4000-8000-000000000002';
let payoutId: string;
let sizeBeforeActivity: number;
let exported: AccountExport;
let creatorExport: AccountExport;

beforeAll(async () => {
  for (const projector of allProjectors) await projector.createTables(db, 'public');
  passwordHash = await hashPassword(PASSWORD);
  const log = async () => readWholeLog(store);
  for (const name of ['Ann', 'Cleo', 'Dan', 'Eve'] as const) {
    const input = { email: `${name.toLowerCase()}@example.com`, firstName: name, lastName: 'Lee', passwordHash };
    const { userId } = await registerUser(
      { store, gateway },
      { ...input, paymentToken: 'dev_tok_ok' },
      as('anonymous'),
    );
    const registered = (await log()).find(
      (e) => e.type === 'UserRegistered' && (e.data as UserRegisteredData).userId === userId,
    )!;
    people[name.toLowerCase() as keyof typeof people] = registered.data as UserRegisteredData;
  }
  const [ann, cleo, dan, eve] = [people.ann.userId, people.cleo.userId, people.dan.userId, people.eve.userId];
  await project();
  sizeBeforeActivity = await accountExportSize(db, ann);

  // Ann: a chat profile and preferences, and a password reset she asked for (its token hash is a secret).
  await saveChatProfile(
    store,
    ann,
    {
      displayName: 'Annie',
      age: 31,
      location: 'Austin, TX',
      genderIdentity: 'woman',
      sexualOrientation: 'bisexual',
      relationshipType: ['dating'],
      bio: 'Coffee first',
      interests: ['Music'],
    },
    as(ann),
  );
  await saveChatPreferences(
    store,
    ann,
    {
      sexualActivities: [],
      kinks: [],
      rolePreferences: [],
      experienceLevel: 'beginner',
      ageRangeMin: 25,
      ageRangeMax: 45,
      maxDistance: 30,
      lookingForGenders: ['man'],
      dealBreakers: [],
      mustHaves: ['Honesty'],
      isPrivate: false,
    },
    as(ann),
  );
  await handleCommand(
    store,
    userStream(ann),
    accountDecider,
    { type: 'RequestPasswordReset', tokenHash: hashResetToken('reset-token'), now: tick() },
    as(ann),
  );

  // Cleo is a creator with a tier and a post; Ann subscribes, likes and comments, and tips by card.
  await registerCreator(store, { userId: cleo, bio: 'Behind the scenes', coverImageUrl: null }, as(cleo));
  const tier = { name: 'Gold', description: 'Everything', priceCents: 1500, features: ['Posts'] };
  await createTier(store, { creatorId: cleo, tierId: 'tier-gold', ...tier }, as(cleo));
  postId = 'b0000000-0000-4000-8000-000000000001';
  await publishPost(
    store,
    { creatorId: cleo, title: 'Studio day', content: 'Behind the lens', mediaUrl: null, isPublic: false },
    as(cleo),
    postId,
  );
  // And one written for later (issue 21): hers too, though not out yet.
  await publishPost(
    store,
    {
      creatorId: cleo,
      title: 'Coming soon',
      content: 'Next week',
      mediaUrl: null,
      isPublic: true,
      scheduledAt: new Date('2026-04-01T00:00:00.000Z'),
    },
    as(cleo),
    scheduledPostId,
  );
  await subscribeToCreator(
    store,
    gateway,
    { subscriberId: ann, creatorId: cleo, tierId: 'tier-gold', customerId: people.ann.gatewayCustomerId },
    as(ann),
  );
  await likePost(store, { postId, userId: ann }, as(ann));
  await commentOnPost(store, { postId, commentId: 'comment-1', userId: ann, content: 'Love the light' }, as(ann));
  await tipCreator(
    store,
    gateway,
    {
      tipId: 'a0000000-0000-4000-8000-000000000001',
      tipperId: ann,
      creatorId: cleo,
      amountCents: 500,
      postId,
      message: 'For the coffee',
      source: 'card',
      customerId: people.ann.gatewayCustomerId,
    },
    as(ann),
  );

  // Messages: Ann writes to Cleo; Cleo answers, and sends a paid message Ann has not unlocked.
  const message = (messageId: string, from: string, to: string, content: string, priceCents: number | null = null) =>
    sendMessage(
      store,
      { messageId, senderId: from, senderIsCreator: from === cleo, receiverId: to, content, priceCents },
      as(from),
    );
  await message('m-ann-1', ann, cleo, 'Hi Cleo!');
  await message('m-cleo-1', cleo, ann, 'Hello Ann');
  lockedMessageId = 'm-cleo-paid';
  await message(lockedMessageId, cleo, ann, 'The uncut photo set', 999);
  // Between two other members: nothing of it is Ann's.
  await message('m-dan-1', dan, eve, 'Dan to Eve: private plans');
  await message('m-eve-1', eve, dan, 'Eve to Dan: the door code is 4711');

  // Crypto: a wallet and a completed conversion.
  const rates = new FixedRatesProvider({ USDC: 10_000n, USDT: 10_000n });
  const { walletId } = await registerCryptoWallet(
    store,
    { userId: ann, cryptoType: 'USDC', walletAddress: '0xann' },
    as(ann),
  );
  let drawn = 0;
  await requestConversion(
    store,
    rates,
    { userId: ann, cryptoType: 'USDC', cryptoAmount: '25', walletAddress: '0xann', walletId },
    as(ann),
    { next: async () => ++drawn },
  );
  const cryptoGateway = new SandboxCryptoGateway(0);
  const submit = conversionSubmission(cryptoGateway);
  for (const event of await log())
    if (submit.eventTypes.includes(event.type)) await submit.handle(event, { store, now: tick() });
  const processing = (await log())
    .filter((e) => e.type === 'CryptoConversionSubmitted')
    .map((e) => e.data as { transactionId: string; gatewayTransactionId: string });
  await checkSettlements(store, cryptoGateway, processing, tick());

  // Safety: Ann reports Dan's profile and blocks him; Eve reports Dan too (not Ann's report).
  const report = (reporterId: string, details: string) =>
    fileReport(
      store,
      { reporterId, targetType: 'user', targetId: dan, targetUserId: dan, reason: 'spam', details },
      DEFAULT_AUTO_SUSPEND_POLICY,
      as(reporterId),
    );
  await report(ann, 'Sends links to a shop');
  await report(eve, 'Eve’s own complaint');
  await blockUser(store, { userId: ann, blockedId: dan, reason: 'spam' }, as(ann));

  // Cleo's earnings from Ann's subscription, released after the hold, paid out to her account.
  const saleAt = tick();
  await creditEarnings(
    store,
    cleo,
    { grossCents: 1500, source: 'subscription', reference: 'sale-1', occurredAt: saleAt, payerId: ann },
    as('earnings'),
  );
  const { paymentAccountId } = await addPaymentAccount(
    store,
    createSandboxPayoutGateway(),
    cleo,
    { type: 'stripe', accountHolderName: 'Cleo Lee', isDefault: true },
    as(cleo),
  );
  const afterHold = { actorId: cleo, now: new Date(saleAt.getTime() + 8 * 86_400_000) };
  payoutId = (
    await requestPayout(
      store,
      cleo,
      { paymentAccountId, amountCents: splitEarnings(1500).creatorShareCents },
      afterHold,
    )
  ).payoutId;
  await project();

  const now = new Date('2026-03-20T00:00:00.000Z');
  exported = await accountExport(db, ann, now);
  creatorExport = await accountExport(db, cleo, now);
});

/** The export as the file holds it. */
const file = (data: AccountExport) => JSON.stringify(data);
const newestFirst = (times: Array<string | null>) =>
  expect(times).toEqual([...times].sort((a, b) => (b ?? '').localeCompare(a ?? '')));

describe('accountExport', () => {
  it('holds the member’s profile and site membership, without a password hash, token hash or gateway id', () => {
    expect(exported.profile).toMatchObject({
      id: people.ann.userId,
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      role: 'subscriber',
      isCreator: false,
      subscriptionStatus: 'active',
      standing: { status: 'active', suspendedUntil: null, pendingReview: false },
    });
    expect(exported.profile!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(exported.profile!.subscriptionEndDate).toMatch(/^2026-04-01T/);
    const text = file(exported);
    for (const secret of [
      passwordHash,
      hashResetToken('reset-token'),
      people.ann.gatewayCustomerId,
      people.cleo.gatewayCustomerId,
      '$argon2',
      'acct_sandbox',
    ])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/password|token_hash|tokenHash|gatewayCustomer|customerId/i);
    expect(file(creatorExport)).not.toContain('acct_sandbox');
  });

  it('holds the chat profile and matching preferences', () => {
    expect(exported.chatProfile).toMatchObject({ displayName: 'Annie', age: 31, bio: 'Coffee first' });
    expect(exported.chatPreferences).toMatchObject({ ageRangeMin: 25, maxDistance: 30, mustHaves: ['Honesty'] });
    expect(creatorExport.chatProfile).toBeNull();
    expect(creatorExport.chatPreferences).toBeNull();
  });

  it('holds the messages sent and received, without the content of a paid message not unlocked', () => {
    const cleo = { otherMemberId: people.cleo.userId, otherMemberName: 'Cleo Lee' };
    expect(exported.messagesSent).toEqual([
      expect.objectContaining({ id: 'm-ann-1', ...cleo, content: 'Hi Cleo!', isPaid: false, priceCents: null }),
    ]);
    expect(exported.messagesReceived).toEqual([
      expect.objectContaining({
        id: lockedMessageId,
        ...cleo,
        content: null,
        mediaUrl: null,
        isPaid: true,
        priceCents: 999,
        locked: true,
        isUnlocked: false,
      }),
      expect.objectContaining({ id: 'm-cleo-1', ...cleo, content: 'Hello Ann', locked: false }),
    ]);
    newestFirst(exported.messagesReceived.map((m) => m.sentAt));
    expect(file(exported)).not.toContain('The uncut photo set');
    // The sender wrote it: their own export holds it, marked not unlocked yet.
    expect(creatorExport.messagesSent.find((m) => m.id === lockedMessageId)).toMatchObject({
      content: 'The uncut photo set',
      otherMemberId: people.ann.userId,
      otherMemberName: 'Ann Lee',
      priceCents: 999,
      locked: false,
      isUnlocked: false,
    });
  });

  it('holds nothing of other members’ private data', () => {
    const text = file(exported);
    for (const other of ['Dan to Eve', 'the door code', 'm-dan-1', 'm-eve-1', 'Eve’s own complaint'])
      expect(text).not.toContain(other);
    expect(text).not.toContain('eve@example.com');
    expect(text).not.toContain('dan@example.com');
    expect(exported.reports).toHaveLength(1);
  });

  it('holds the creator subscription, the payments with the tip, and the crypto wallet and conversion', () => {
    expect(exported.subscriptions).toEqual([
      expect.objectContaining({
        creatorId: people.cleo.userId,
        creatorName: 'Cleo Lee',
        tierId: 'tier-gold',
        tierName: 'Gold',
        priceCents: 1500,
        status: 'active',
        endsAt: null,
      }),
    ]);
    const payments = exported.payments.map((p) => [p.kind, p.direction, p.amountCents, p.status]);
    expect(payments).toEqual(
      expect.arrayContaining([
        ['site_plan', 'charge', 199, 'paid'],
        ['tier_subscription', 'charge', 1500, 'paid'],
        ['tip', 'charge', 500, 'paid'],
        ['crypto_conversion', 'credit', exported.conversions[0].netCents, 'credited'],
      ]),
    );
    for (const payment of exported.payments) expect(Number.isInteger(payment.amountCents)).toBe(true);
    newestFirst(exported.payments.map((p) => p.occurredAt));
    expect(exported.tipsGiven).toEqual([
      expect.objectContaining({ creatorId: people.cleo.userId, creatorName: 'Cleo Lee', amountCents: 500 }),
    ]);
    expect(exported.wallets).toEqual([expect.objectContaining({ cryptoType: 'USDC', walletAddress: '0xann' })]);
    expect(exported.conversions).toEqual([
      expect.objectContaining({
        number: 1,
        cryptoType: 'USDC',
        cryptoAmount: '25.00000000',
        walletAddress: '0xann',
        usdAmountCents: 2500,
        feeCents: 75,
        netCents: 2425,
        status: 'completed',
      }),
    ]);
    expect(exported.profile!.usdBalanceCents).toEqual(expect.any(Number));
  });

  it('holds the comment, the report the member filed and the block they made', () => {
    expect(exported.comments).toEqual([
      expect.objectContaining({ id: 'comment-1', postId, postTitle: 'Studio day', content: 'Love the light' }),
    ]);
    expect(exported.reports).toEqual([
      expect.objectContaining({
        targetType: 'user',
        targetId: people.dan.userId,
        reason: 'spam',
        details: 'Sends links to a shop',
        status: 'open',
      }),
    ]);
    expect(exported.blocks).toEqual([expect.objectContaining({ userId: people.dan.userId, reason: 'spam' })]);
    // A member who is not a creator has no creator part, posts or payouts.
    expect([exported.creator, exported.posts, exported.payouts]).toEqual([null, [], []]);
  });

  it('holds a creator’s profile, tiers, post, earnings, payment account and payout', () => {
    expect(creatorExport.profile).toMatchObject({ role: 'creator', isCreator: true });
    expect(creatorExport.creator).toMatchObject({
      bio: 'Behind the scenes',
      tiers: [expect.objectContaining({ id: 'tier-gold', name: 'Gold', priceCents: 1500 })],
      earnings: { availableCents: 0, pendingCents: 0, totalEarningsCents: splitEarnings(1500).creatorShareCents },
      paymentAccounts: [expect.objectContaining({ type: 'stripe', accountHolderName: 'Cleo Lee', isDefault: true })],
    });
    expect(creatorExport.creator!.paymentAccounts[0]).not.toHaveProperty('stripeAccountId');
    expect(creatorExport.posts).toEqual([
      expect.objectContaining({
        id: scheduledPostId,
        title: 'Coming soon',
        visibility: 'public',
        status: 'scheduled',
        createdAt: null,
        scheduledAt: '2026-04-01T00:00:00.000Z',
      }),
      expect.objectContaining({
        id: postId,
        title: 'Studio day',
        content: 'Behind the lens',
        visibility: 'subscribers',
        status: 'published',
        likeCount: 1,
        commentCount: 1,
      }),
    ]);
    expect(creatorExport.payouts).toEqual([
      expect.objectContaining({
        id: payoutId,
        amountCents: splitEarnings(1500).creatorShareCents,
        status: 'pending',
      }),
    ]);
    expect(Number.isInteger(creatorExport.payouts[0].netAmountCents)).toBe(true);
    // Ann's comment on Cleo's post is Ann's: the creator's export has the post, not the comment.
    expect(creatorExport.comments).toEqual([]);
  });

  it('is empty for an account that does not exist', async () => {
    const none = await accountExport(db, '00000000-0000-4000-8000-000000000000', new Date());
    expect(none.profile).toBeNull();
    expect(none.messagesReceived).toEqual([]);
    expect(await accountExportSize(db, '00000000-0000-4000-8000-000000000000')).toBe(0);
    expect(await accountExportSize(db, 'not-a-user-id')).toBe(0);
  });
});

describe('accountExportSize', () => {
  /** The rows the export holds: its lists (tips are payments), the profile, chat profile and preferences, creator rows. */
  const rowsOf = (data: AccountExport) =>
    1 +
    Number(data.chatProfile !== null) +
    Number(data.chatPreferences !== null) +
    (data.creator ? 1 + data.creator.tiers.length + data.creator.paymentAccounts.length : 0) +
    [
      data.posts,
      data.comments,
      data.messagesSent,
      data.messagesReceived,
      data.subscriptions,
      data.payments,
      data.conversions,
      data.wallets,
      data.payouts,
      data.reports,
      data.blocks,
    ].reduce((sum, list) => sum + list.length, 0);

  it('counts the rows the export holds', async () => {
    expect(await accountExportSize(db, people.ann.userId)).toBe(rowsOf(exported));
    expect(await accountExportSize(db, people.cleo.userId)).toBe(rowsOf(creatorExport));
  });

  it('grows with the member’s data', async () => {
    const ann = people.ann.userId;
    const before = await accountExportSize(db, ann);
    expect(before).toBeGreaterThan(sizeBeforeActivity);
    await sendMessage(
      store,
      {
        messageId: 'm-ann-2',
        senderId: ann,
        senderIsCreator: false,
        receiverId: people.cleo.userId,
        content: 'One more',
        priceCents: null,
      },
      as(ann),
    );
    await commentOnPost(store, { postId, commentId: 'comment-2', userId: ann, content: 'And again' }, as(ann));
    await project();
    expect(await accountExportSize(db, ann)).toBe(before + 2);
    const later = await accountExport(db, ann, new Date('2026-03-21T00:00:00.000Z'));
    expect(later.messagesSent.map((m) => m.id)).toEqual(['m-ann-2', 'm-ann-1']);
    expect(later.comments.map((c) => c.id)).toEqual(['comment-2', 'comment-1']);
  });
});
