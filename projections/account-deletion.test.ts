import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AccountDeleted, UserRegistered } from '../domain/accounts/events';
import type {
  ChatPreferencesSaved,
  ChatProfileSaved,
  ChatSessionReported,
  ChatSessionStarted,
} from '../domain/chat/events';
import type { CreatorRegistered, CreatorSubscriptionStarted, TierCreated } from '../domain/creators/events';
import type {
  CryptoConversionCompletedData,
  CryptoConversionRequestedData,
  CryptoWalletRegisteredData,
} from '../domain/crypto/events';
import type { RecordedEvent } from '../domain/event-store/port';
import type { MediaProcessedData, MediaUploadedData } from '../domain/media/events';
import type { ProfileImageSetData } from '../domain/media/profile-images';
import type { MembershipActivatedData } from '../domain/membership/events';
import type { MassMessageSent, MessageSent, MessageUnlocked } from '../domain/messaging/events';
import type { PaymentCapturedData } from '../domain/payments/events';
import type { PaymentAccountAddedData } from '../domain/payouts/events';
import type { PostCommented, PostLiked, PostPublished, PostScheduled } from '../domain/posts/events';
import { PersonalDataCipher } from '../domain/privacy/cipher';
import type { KeyStore } from '../domain/privacy/key-store';
import { DELETED_USER_NAME, forgottenEmail, REMOVED } from '../domain/privacy/personal-data';
import type { ReportFiled, UserBlocked } from '../domain/safety/events';
import type { TipGiven } from '../domain/tips/events';
import type { IdentityVerificationSubmittedData } from '../domain/verification/events';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { creatorSubscribers } from './creator-subscriptions';
import { findCreator, isCreator, listCreators } from './creators';
import { projectionContext, type Projector } from './engine/projector';
import { allProjectors } from './engine/registry';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';
import { conversations } from './messages';
import { notificationsPage } from './notifications';
import { readAs } from './page-reads';
import { postComments } from './posts';
import { chatMemberRow } from './user-profiles';

/**
 * Issue 23: AccountDeleted makes every read model forget the person at once, leaving what a
 * rebuild leaves once their key is gone (their fields read as the forgotten values, and
 * AccountDeleted is replayed), while the other member's data and every amount stay.
 */

jest.setTimeout(60_000);
let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

const zelda = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'; // deleted
const bruno = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb'; // stays
const id = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
/** Every personal text of Zelda's contains one of these; none of Bruno's does. */
const ZELDA_WORDS = ['Zelda', 'Quixote', 'secret'];

let position = 0n;
const revisions = new Map<string, bigint>();
function event<E extends { type: string; data: unknown }>(streamId: string, type: E['type'], data: E['data']) {
  position++;
  const revision = (revisions.get(streamId) ?? -1n) + 1n;
  revisions.set(streamId, revision);
  const at = new Date(Date.UTC(2026, 2, 1, 12, Number(position))).toISOString();
  return {
    eventId: id(1000 + Number(position)),
    streamId,
    revision,
    position: { commit: position, prepare: position },
    type,
    data,
    metadata: { occurredAt: at },
    createdAt: at,
  } satisfies RecordedEvent;
}

const at = '2026-03-01T12:00:00.000Z';
const registered = (userId: string, firstName: string, lastName: string) =>
  event<UserRegistered>(`user-${userId}`, 'UserRegistered', {
    userId,
    email: `${firstName}.${lastName}@example.com`.toLowerCase(),
    firstName,
    lastName,
    passwordHash: '$argon2id$h',
    gatewayCustomerId: `cus_${userId.slice(0, 4)}`,
    cardLast4: '4242',
    registeredAt: at,
  });
const signUpPayment = (paymentId: string, userId: string, holder: string, email: string) =>
  event<{ type: 'PaymentCaptured'; data: PaymentCapturedData }>(`payment-${paymentId}`, 'PaymentCaptured', {
    paymentId,
    userId,
    requestType: 'membership_signup',
    gatewayTransactionId: `ch_${paymentId}`,
    gatewayCustomerId: 'cus',
    amountCents: 1999,
    currency: 'USD',
    cardLast4: '4242',
    cardHolderName: holder,
    email,
    gatewayResponse: {},
    correlationId: null,
    at,
  });
const activated = (userId: string, paymentId: string) =>
  event<{ type: 'MembershipActivated'; data: MembershipActivatedData }>(`membership-${userId}`, 'MembershipActivated', {
    userId,
    periodStart: at,
    periodEnd: '2026-04-01T12:00:00.000Z',
    source: 'card',
    paymentId,
    activatedAt: at,
  });
const media = (mediaId: string, ownerId: string) => [
  event<{ type: 'MediaUploaded'; data: MediaUploadedData }>(`media-${mediaId}`, 'MediaUploaded', {
    mediaId,
    ownerId,
    kind: 'image',
    mime: 'image/jpeg',
    bytes: 1000,
    at,
  }),
  event<{ type: 'MediaProcessed'; data: MediaProcessedData }>(`media-${mediaId}`, 'MediaProcessed', {
    mediaId,
    width: 320,
    height: 320,
    variants: ['w320.webp', 'preview.webp'],
    at,
  }),
];
const profileImage = (type: 'AvatarSet' | 'ChatProfileImageAdded', userId: string, mediaId: string) =>
  event<{ type: typeof type; data: ProfileImageSetData }>(`profile-images-${userId}`, type, {
    userId,
    mediaId,
    sourceMediaId: mediaId,
    crop: { x: 0, y: 0, width: 320, height: 320 },
    variant: 'w320.webp',
    at,
  });
const creator = (userId: string, bio: string) =>
  event<CreatorRegistered>(`creator-${userId}`, 'CreatorRegistered', {
    userId,
    bio,
    coverImageUrl: null,
    registeredAt: at,
  });
const tier = (creatorId: string, tierId: string) =>
  event<TierCreated>(`creator-${creatorId}`, 'TierCreated', {
    creatorId,
    tierId,
    name: 'Gold',
    description: 'Everything',
    priceCents: 1500,
    features: ['posts'],
    at,
  });
const post = (postId: string, creatorId: string, title: string, mediaIds: string[] = []) =>
  event<PostPublished>(`post-${postId}`, 'PostPublished', {
    postId,
    creatorId,
    title,
    content: `${title}, the text`,
    mediaUrl: null,
    mediaType: null,
    isPublic: false,
    publishedAt: at,
    mediaIds,
  });
const comment = (postId: string, creatorId: string, commentId: string, userId: string, content: string) =>
  event<PostCommented>(`post-${postId}`, 'PostCommented', { postId, creatorId, commentId, userId, content, at });
const like = (postId: string, creatorId: string, userId: string) =>
  event<PostLiked>(`post-${postId}`, 'PostLiked', { postId, creatorId, userId, at });
const chatProfile = (userId: string, name: string) =>
  event<ChatProfileSaved>(`chatMember-${userId}`, 'ChatProfileSaved', {
    userId,
    displayName: name,
    age: 30,
    location: `${name} town`,
    genderIdentity: 'woman',
    sexualOrientation: 'bisexual',
    relationshipType: ['dating'],
    bio: `${name} about`,
    interests: [`${name} music`],
    savedAt: at,
  });
const chatPreferences = (userId: string, word: string) =>
  event<ChatPreferencesSaved>(`chatMember-${userId}`, 'ChatPreferencesSaved', {
    userId,
    sexualActivities: [`${word} activity`],
    kinks: [`${word} kink`],
    rolePreferences: [`${word} role`],
    experienceLevel: 'beginner',
    ageRangeMin: 20,
    ageRangeMax: 40,
    maxDistance: 50,
    lookingForGenders: ['woman'],
    dealBreakers: [`${word} deal breaker`],
    mustHaves: [`${word} must`],
    isPrivate: false,
    savedAt: at,
  });
const message = (messageId: string, senderId: string, receiverId: string, content: string, priceCents: number | null) =>
  event<MessageSent>(`message-${messageId}`, 'MessageSent', {
    messageId,
    senderId,
    receiverId,
    content,
    mediaUrl: priceCents ? 'https://example.com/secret.jpg' : null,
    priceCents,
    sentAt: at,
    ...(priceCents ? { mediaIds: [id(13)] } : {}),
  });
const subscribed = (subscriptionId: string, subscriberId: string, creatorId: string, tierId: string) =>
  event<CreatorSubscriptionStarted>(`creatorSubscription-${subscriberId}_${creatorId}`, 'CreatorSubscriptionStarted', {
    subscriptionId,
    subscriberId,
    creatorId,
    tierId,
    tierName: 'Gold',
    priceCents: 1500,
    transactionId: `ch_${subscriptionId}`,
    startDate: at,
    endDate: '2099-04-01T12:00:00.000Z',
  });
const tip = (tipId: string, tipperId: string, creatorId: string, note: string) =>
  event<TipGiven>(`tip-${tipId}`, 'TipGiven', {
    tipId,
    tipperId,
    creatorId,
    amountCents: 500,
    postId: null,
    message: note,
    source: 'card',
    transactionId: `ch_${tipId}`,
    paymentReference: null,
    givenAt: at,
  });
const wallet = (walletId: string, userId: string, walletAddress: string) =>
  event<{ type: 'CryptoWalletRegistered'; data: CryptoWalletRegisteredData }>(
    `cryptoWallets-${userId}`,
    'CryptoWalletRegistered',
    { walletId, userId, cryptoType: 'USDC', walletAddress, registeredAt: at },
  );
const conversion = (transactionId: string, userId: string, walletId: string, walletAddress: string) => [
  event<{ type: 'CryptoConversionRequested'; data: CryptoConversionRequestedData }>(
    `cryptoTransaction-${transactionId}`,
    'CryptoConversionRequested',
    {
      transactionId,
      conversionId: transactionId,
      conversionNumber: 1,
      userId,
      walletId,
      walletAddress,
      cryptoType: 'USDC',
      cryptoAmount: '25.5',
      exchangeRate: '1.0000',
      grossCents: 2550,
      feeCents: 51,
      feeBasisPoints: 200,
      netCents: 2499,
      requestedAt: at,
    },
  ),
  event<{ type: 'CryptoConversionCompleted'; data: CryptoConversionCompletedData }>(
    `cryptoTransaction-${transactionId}`,
    'CryptoConversionCompleted',
    {
      transactionId,
      conversionId: transactionId,
      userId,
      walletId,
      cryptoAmount: '25.5',
      netCents: 2499,
      transactionHash: '0xhash',
      completedAt: at,
    },
  ),
];

const zeldaPost = id(1);
const brunoPost = id(2);
const zeldaMessage = id(3);
const zeldaWallet = id(4);
const brunoWallet = id(5);
const zeldaConversion = id(6);

/** Zelda and Bruno, each a member and a creator subscribed to the other, then Zelda deletes her account. */
const log: RecordedEvent[] = [
  registered(zelda, 'Zelda', 'Quixote'),
  signUpPayment(id(7), zelda, 'Zelda Quixote', 'zelda.quixote@example.com'),
  activated(zelda, id(7)),
  registered(bruno, 'Bruno', 'Yarrow'),
  signUpPayment(id(8), bruno, 'Bruno Yarrow', 'bruno.yarrow@example.com'),
  activated(bruno, id(8)),
  creator(zelda, 'All about me, a secret'),
  tier(zelda, 'tier-z'),
  creator(bruno, 'Bruno makes bread'),
  tier(bruno, 'tier-b'),
  ...media(id(10), zelda),
  profileImage('AvatarSet', zelda, id(10)),
  ...media(id(11), zelda),
  profileImage('ChatProfileImageAdded', zelda, id(11)),
  ...media(id(12), zelda),
  ...media(id(13), zelda),
  post(zeldaPost, zelda, 'Zelda post secret', [id(12)]),
  event<PostScheduled>(`post-${id(9)}`, 'PostScheduled', {
    postId: id(9),
    creatorId: zelda,
    title: 'Later secret',
    content: 'Later secret text',
    mediaUrl: null,
    mediaType: null,
    isPublic: true,
    scheduledAt: '2099-01-01T00:00:00.000Z',
    at,
  }),
  post(brunoPost, bruno, 'Bread'),
  like(zeldaPost, zelda, bruno),
  comment(zeldaPost, zelda, 'k1', bruno, 'Lovely'),
  like(brunoPost, bruno, zelda),
  comment(brunoPost, bruno, 'k2', zelda, 'My secret comment'),
  chatProfile(zelda, 'Zelda secret'),
  chatProfile(bruno, 'Bruno'),
  chatPreferences(zelda, 'secret'),
  chatPreferences(bruno, 'Bruno'),
  message(zeldaMessage, zelda, bruno, 'A secret for you', 700),
  event<MessageUnlocked>(`message-${zeldaMessage}`, 'MessageUnlocked', {
    messageId: zeldaMessage,
    senderId: zelda,
    receiverId: bruno,
    priceCents: 700,
    paymentReference: `messageUnlock:${zeldaMessage}`,
    unlockedAt: at,
  }),
  message(id(14), bruno, zelda, 'Hello from Bruno', null),
  event<MassMessageSent>(`massMessage-${id(15)}`, 'MassMessageSent', {
    massMessageId: id(15),
    creatorId: zelda,
    segment: { kind: 'active' },
    content: 'To all, a secret',
    priceCents: null,
    recipientIds: [bruno],
    sentAt: at,
  }),
  subscribed(id(16), bruno, zelda, 'tier-z'),
  subscribed(id(17), zelda, bruno, 'tier-b'),
  tip(id(18), zelda, bruno, 'Thanks, a secret'),
  tip(id(19), bruno, zelda, 'Bruno says thanks'),
  wallet(zeldaWallet, zelda, '0xsecretaddress'),
  wallet(brunoWallet, bruno, '0xbrunoaddress'),
  ...conversion(zeldaConversion, zelda, zeldaWallet, '0xsecretaddress'),
  event<{ type: 'PaymentAccountAdded'; data: PaymentAccountAddedData }>(
    `creatorAccount-${zelda}`,
    'PaymentAccountAdded',
    {
      creatorId: zelda,
      paymentAccountId: id(20),
      type: 'bank_account',
      accountHolderName: 'Zelda Quixote',
      bankAccountLast4: '6789',
      routingNumber: 'secret-110000000',
      stripeAccountId: null,
      isDefault: true,
      isVerified: true,
      addedAt: at,
    },
  ),
  event<ReportFiled>(`reportsAgainst-${bruno}`, 'ReportFiled', {
    reportId: id(21),
    reporterId: zelda,
    targetType: 'user',
    targetId: bruno,
    targetUserId: bruno,
    reason: 'harassment',
    details: 'My secret complaint',
    filedAt: at,
  }),
  event<ReportFiled>(`reportsAgainst-${zelda}`, 'ReportFiled', {
    reportId: id(22),
    reporterId: bruno,
    targetType: 'user',
    targetId: zelda,
    targetUserId: zelda,
    reason: 'spam',
    details: 'Bruno complains',
    filedAt: at,
  }),
  event<UserBlocked>(`blockList-${zelda}`, 'UserBlocked', {
    blockerId: zelda,
    blockedId: bruno,
    reason: 'My secret reason',
    blockedAt: at,
  }),
  event<{ type: 'IdentityVerificationSubmitted'; data: IdentityVerificationSubmittedData }>(
    `identityVerification-${zelda}`,
    'IdentityVerificationSubmitted',
    {
      creatorId: zelda,
      submissionId: id(23),
      provider: 'sandbox',
      providerReference: 'ref',
      sealedIdentity: 'sealed-secret',
      files: { document: { key: 'd', mime: 'image/jpeg' }, selfie: { key: 's', mime: 'image/jpeg' } },
      submittedAt: at,
    },
  ),
  event<ChatSessionStarted>(`chatSession-r1`, 'ChatSessionStarted', {
    roomId: 'r1',
    user1Id: zelda,
    user2Id: bruno,
    mode: 'standard',
    compatibilityScore: 0.5,
    startedAt: at,
  }),
  event<ChatSessionReported>(`chatSession-r1`, 'ChatSessionReported', {
    roomId: 'r1',
    reporterId: zelda,
    reportedUserId: bruno,
    reason: 'A secret reason',
    reportedAt: at,
  }),
  event<AccountDeleted>(`user-${zelda}`, 'AccountDeleted', { userId: zelda, at }),
];

/** A key store in memory: what the product's keeps in PostgreSQL. */
class MemoryKeys implements KeyStore {
  private readonly keys = new Map<string, Buffer | null>();
  async keysFor(subjectIds: readonly string[]) {
    for (const subject of subjectIds) if (!this.keys.has(subject)) this.keys.set(subject, randomBytes(32));
    return this.findKeys(subjectIds);
  }
  async findKeys(subjectIds: readonly string[]) {
    return new Map(subjectIds.filter((s) => this.keys.has(s)).map((s) => [s, this.keys.get(s)!]));
  }
  async forget(subjectId: string) {
    this.keys.set(subjectId, null);
  }
  evict() {}
  async migrate() {}
  async close() {}
}

/** The log as it reads once Zelda's key is gone: sealed as written, her key forgotten, opened. */
async function forgottenLog(): Promise<RecordedEvent[]> {
  const cipher = new PersonalDataCipher(new MemoryKeys());
  const sealed = await cipher.seal(log);
  await cipher.keys.forget(zelda);
  return cipher.open(sealed);
}

/** The read model built from `events` in `schema`, one event at a time or in batches of `size`. */
async function build(projector: Projector, events: RecordedEvent[], schema: string, size?: number) {
  if (schema !== 'public') {
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.raw(`CREATE SCHEMA "${schema}"`);
  }
  await projector.createTables(db, schema);
  const relevant = events.filter((e) => projector.eventTypes.includes(e.type));
  await db.transaction(async (trx) => {
    const context = projectionContext(trx, schema);
    if (size === undefined) for (const e of relevant) await projector.apply(context, e);
    else
      for (let i = 0; i < relevant.length; i += size) await projector.applyAll!(context, relevant.slice(i, i + size));
  });
  return dumpTables(db, projector, schema);
}

const schemaOf = (projector: Projector, kind: string) => `${kind}_${projector.name.replace(/\W/g, '_')}`;

describe('AccountDeleted', () => {
  beforeAll(async () => {
    // The live read models, in public so their queries can be asked.
    for (const projector of allProjectors) await build(projector, log, 'public');
  });

  it.each(allProjectors)('$name: the live read model is what a rebuild without her key leaves', async (projector) => {
    const live = await dumpTables(db, projector, 'public');
    expect(await build(projector, await forgottenLog(), schemaOf(projector, 'forgotten'))).toEqual(live);
    const text = JSON.stringify(live).toLowerCase();
    for (const word of ZELDA_WORDS) expect(text).not.toContain(word.toLowerCase());
  });

  const handling = allProjectors.filter((projector) => projector.eventTypes.includes('AccountDeleted'));

  it.each(handling)('$name: applying it twice (and every event twice) changes nothing', async (projector) => {
    const { once, twice } = await replayTwice(db, projector, log);
    expect(twice).toEqual(once);
  });

  it.each(handling.filter((projector) => projector.applyAll))(
    '$name: applyAll around it leaves what apply leaves',
    async (projector) => {
      const live = await dumpTables(db, projector, 'public');
      for (const size of [log.length, 3])
        expect(await build(projector, log, schemaOf(projector, 'batch'), size)).toEqual(live);
    },
  );

  it('forgets her account, keeps his', async () => {
    const users = await db('users').orderBy('email');
    expect(users.find((u) => u.id === zelda)).toMatchObject({
      email: forgottenEmail(zelda),
      first_name: 'Deleted',
      last_name: 'user',
      profile_image_url: null,
      bio: null,
      is_active: false,
      is_creator: false,
      password_hash: '',
    });
    expect(users.find((u) => u.id === bruno)).toMatchObject({
      email: 'bruno.yarrow@example.com',
      first_name: 'Bruno',
      is_active: true,
      is_creator: true,
    });
    expect(await chatMemberRow(db, zelda)).toBeUndefined();
    expect(await chatMemberRow(db, bruno)).toMatchObject({ display_name: 'Bruno' });
    expect(await db('user_profiles').where({ user_id: zelda }).first()).toMatchObject({
      display_name: DELETED_USER_NAME,
      location: '',
      bio: '',
      interests: [],
      profile_images: [],
    });
    expect(await db('user_preferences').where({ user_id: zelda }).first()).toMatchObject({ kinks: [], must_haves: [] });
    expect(await db('user_preferences').where({ user_id: bruno }).first()).toMatchObject({ kinks: ['Bruno kink'] });
    expect(await db('media').pluck('owner_id')).toEqual([]);
    expect(await db('profile_media').count('* as n')).toEqual([{ n: '0' }]);
  });

  it('takes her creator page, posts and texts away; her comment and messages read REMOVED', async () => {
    const now = new Date('2026-03-02T00:00:00Z');
    expect(await isCreator(db, zelda)).toBe(false);
    expect(await findCreator(readAs(db, null), now, zelda)).toBeNull();
    expect((await listCreators(readAs(db, null), now)).map((c) => c.id)).toEqual([bruno]);
    expect((await listCreators(readAs(db, null), now, { q: 'Zelda' })).length).toBe(0);
    expect(await db('subscription_tiers').pluck('creator_id')).toEqual([bruno]);
    expect(await db('posts').pluck('id')).toEqual([brunoPost]);
    expect(await db('scheduled_posts').count('* as n')).toEqual([{ n: '0' }]);
    // As an author she is gone; his posts keep his name.
    expect(await db('post_authors').orderBy('user_id').pluck('user_id')).not.toContain(zelda);
    expect(await db('posts').where({ id: brunoPost }).first()).toMatchObject({ author_first_name: 'Bruno' });
    expect(await postComments(db, brunoPost)).toMatchObject([
      { userId: zelda, userName: DELETED_USER_NAME, content: REMOVED },
    ]);
    expect(await db('post_likes').where({ post_id: brunoPost }).pluck('user_id')).toEqual([zelda]);

    expect(
      await db('messages')
        .orderBy('sender_id')
        .select('sender_id', 'content', 'media_url', 'price_cents', 'is_unlocked'),
    ).toEqual([
      { sender_id: zelda, content: REMOVED, media_url: null, price_cents: 700, is_unlocked: true },
      { sender_id: bruno, content: 'Hello from Bruno', media_url: null, price_cents: null, is_unlocked: true },
    ]);
    const [conversation] = await conversations(readAs(db, bruno));
    expect(conversation.user).toMatchObject({ id: zelda, name: DELETED_USER_NAME, isCreator: false });
    expect(await db('mass_messages').pluck('content')).toEqual([REMOVED]);
    // Hers, his, and her older chat report (legacy).
    expect(await db('reports').orderBy('id').pluck('details')).toEqual([null, 'Bruno complains', null]);
    expect(await db('user_blocks').pluck('reason')).toEqual([null]);
    expect(await db('chat_sessions').pluck('report_reason')).toEqual([null]);
    expect(await db('identity_verifications').pluck('sealed_identity')).toEqual([REMOVED]);
  });

  it('keeps every amount, with no name: her name is gone from his subscriber list and receipts', async () => {
    const now = new Date('2026-03-02T00:00:00Z');
    const { subscribers } = await creatorSubscribers(db, now, bruno, { limit: 10 });
    expect(subscribers).toMatchObject([{ userId: zelda, name: DELETED_USER_NAME, tierName: 'Gold' }]);
    expect(await db('creator_subscriptions').orderBy('id').pluck('price_cents')).toEqual([1500, 1500]);

    const payments = await db('payments').orderBy('id').select('user_id', 'amount_cents', 'card_holder_name', 'email');
    expect(payments).toContainEqual({ user_id: zelda, amount_cents: 1999, card_holder_name: null, email: null });
    expect(payments).toContainEqual({
      user_id: bruno,
      amount_cents: 1999,
      card_holder_name: 'Bruno Yarrow',
      email: 'bruno.yarrow@example.com',
    });
    expect(payments.map((p) => p.amount_cents).sort()).toEqual([1500, 1500, 1999, 1999, 500, 500]);

    expect(await db('payment_accounts').first('account_holder_name', 'routing_number', 'bank_account_last4')).toEqual({
      account_holder_name: REMOVED,
      routing_number: null,
      bank_account_last4: '6789',
    });
    expect(await db('crypto_wallets').orderBy('id').select('wallet_address', 'balance')).toEqual([
      { wallet_address: REMOVED, balance: '25.50000000' },
      { wallet_address: '0xbrunoaddress', balance: '0.00000000' },
    ]);
    expect(await db('crypto_transactions').first('wallet_address', 'usd_amount_cents', 'net_usd_cents')).toEqual({
      wallet_address: REMOVED,
      usd_amount_cents: '2550',
      net_usd_cents: '2499',
    });

    const brunosBilling = await db('billing_history')
      .where({ user_id: bruno })
      .orderBy('kind')
      .select('description', 'amount_cents');
    expect(brunosBilling).toEqual(
      expect.arrayContaining([
        { description: `Subscription to ${DELETED_USER_NAME} – Gold, 1 month`, amount_cents: 1500 },
        { description: `Tip to ${DELETED_USER_NAME}`, amount_cents: 500 },
        { description: `Unlocked message from ${DELETED_USER_NAME}`, amount_cents: 700 },
      ]),
    );
    expect(await db('billing_history').where({ user_id: zelda, kind: 'tip' }).pluck('description')).toEqual([
      'Tip to Bruno Yarrow',
    ]);
  });

  it('drops her notifications; in his she is "Deleted user", without her words', async () => {
    expect(await db('notifications').where({ user_id: zelda }).count('* as n')).toEqual([{ n: '0' }]);
    const { items } = await notificationsPage(readAs(db, bruno), { limit: 20 });
    expect(items.map((item) => item.body).sort()).toEqual([
      `${DELETED_USER_NAME} sent you a paid message ($7.00)`,
      `${DELETED_USER_NAME} subscribed to Gold`,
      `${DELETED_USER_NAME} tipped you $5.00`,
    ]);
  });
});
