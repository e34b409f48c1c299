import type { Knex } from 'knex';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import type { RecordedEvent } from '../domain/event-store/port';
import { messageDecider } from '../domain/messaging/decider';
import { messageStream } from '../domain/messaging/events';
import { markNotificationsRead } from '../domain/notifications/commands';
import { handleCommand } from '../domain/shared/command-handler';
import { readWholeLog } from '../ops/testing/read-whole-log';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { projectionContext } from './engine/projector';
import { dumpTables, replayTwice } from './engine/testing/replay-twice';
import {
  newestNotificationCursor,
  notificationId,
  notificationNews,
  notificationsPage,
  notificationsProjector,
} from './notifications';
import { readAs } from './page-reads';
import { usersProjector } from './users';

let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

const creator = '11111111-1111-4111-8111-111111111111';
const member = '22222222-2222-4222-8222-222222222222';
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));
const context = (minute: number) => ({ actorId: 't', now: at(minute) });

async function append(streamId: string, type: string, data: object, minute: number) {
  await store.append(streamId, [{ type, data, metadata: { occurredAt: at(minute).toISOString() } }], {
    expectedRevision: 'any',
  });
}

async function sendMessage(
  messageId: string,
  senderId: string,
  receiverId: string,
  priceCents: number | null,
  minute: number,
) {
  await handleCommand(
    store,
    messageStream(messageId),
    messageDecider,
    {
      type: 'SendMessage',
      messageId,
      senderId,
      senderIsCreator: senderId === creator,
      receiverId,
      content: 'Hello',
      priceCents,
      at: at(minute),
    },
    context(minute),
  );
}

/** Applies the whole log to the live (public) tables, as the runner would. */
async function project(events: RecordedEvent[]) {
  for (const projector of [usersProjector, notificationsProjector]) {
    await projector.createTables(db, 'public');
    const handled = new Set(projector.eventTypes);
    await db.transaction(async (trx) => {
      for (const event of events)
        if (handled.has(event.type)) await projector.apply(projectionContext(trx, 'public'), event);
    });
  }
}

const person = (userId: string, firstName: string) => ({
  userId,
  email: `${firstName.toLowerCase()}@example.com`,
  firstName,
  lastName: 'Test',
  passwordHash: 'x',
  gatewayCustomerId: 'cus',
  cardLast4: '4242',
  registeredAt: at(0).toISOString(),
});

beforeAll(async () => {
  await append(`user-${creator}`, 'UserRegistered', person(creator, 'Cara'), 0);
  await append(`user-${member}`, 'UserRegistered', person(member, 'Milo'), 0);
  await append(
    `creatorSubscription-${member}_${creator}`,
    'CreatorSubscriptionStarted',
    {
      subscriptionId: 's1',
      subscriberId: member,
      creatorId: creator,
      tierId: 't1',
      tierName: 'Gold',
      priceCents: 1500,
      transactionId: 'tx',
      startDate: at(1).toISOString(),
      endDate: at(2).toISOString(),
    },
    1,
  );
  await sendMessage('m1', creator, member, 499, 2);
  await handleCommand(
    store,
    messageStream('m1'),
    messageDecider,
    { type: 'UnlockMessage', messageId: 'm1', userId: member, paymentReference: 'r', at: at(3) },
    context(3),
  );
  await sendMessage('m2', member, creator, null, 4);
  await sendMessage('m3', creator, member, null, 5);
  const payout = {
    creatorId: creator,
    payoutId: 'p1',
    reason: 'Bank refused',
    staffId: null,
    failedAt: at(6).toISOString(),
  };
  await append(`creatorAccount-${creator}`, 'PayoutFailed', payout, 6);
  await append(
    `cryptoTransaction-x1`,
    'CryptoConversionCompleted',
    {
      transactionId: 'x1',
      conversionId: 'c1',
      userId: member,
      walletId: null,
      cryptoAmount: '10.00000000',
      netCents: 970,
      transactionHash: 'h',
      completedAt: at(7).toISOString(),
    },
    7,
  );
  await append(
    `membership-${member}`,
    'MembershipPastDue',
    {
      userId: member,
      paymentId: 'pay',
      periodEnd: at(8).toISOString(),
      failureReason: 'declined',
      graceEndsAt: '2026-01-04T12:00:00.000Z',
      at: at(8).toISOString(),
    },
    8,
  );
  // The member reads the first message's notification; the creator reads everything up to minute 5.
  const log = await readWholeLog(store);
  const firstMessage = log.find((event) => event.type === 'MessageSent')!;
  await markNotificationsRead(store, { userId: member, ids: [notificationId(firstMessage.eventId)] }, context(9));
  await markNotificationsRead(store, { userId: creator }, context(5));
});

const rowsOf = async (schema: string) =>
  db
    .withSchema(schema)
    .table('notifications')
    .orderBy(['pos_commit', 'pos_prepare'])
    .select('user_id', 'kind', 'body', 'link', 'read');

it('rebuilds the same rows, read marks included, however often each event is applied', async () => {
  const { once, twice } = await replayTwice(db, notificationsProjector, await readWholeLog(store));
  expect(twice).toEqual(once);
  expect(await rowsOf('replay_twice_notifications')).toEqual([
    { user_id: creator, kind: 'new_subscriber', body: '{actor} subscribed to Gold', link: '/dashboard', read: true },
    {
      user_id: member,
      kind: 'new_message',
      body: '{actor} sent you a paid message ($4.99)',
      link: `/messages?user=${creator}`,
      read: true,
    },
    {
      user_id: creator,
      kind: 'message_unlocked',
      body: '{actor} unlocked your message ($4.99)',
      link: `/messages?user=${member}`,
      read: true,
    },
    {
      user_id: creator,
      kind: 'new_message',
      body: '{actor} sent you a message',
      link: `/messages?user=${member}`,
      read: true,
    },
    {
      user_id: member,
      kind: 'new_message',
      body: '{actor} sent you a message',
      link: `/messages?user=${creator}`,
      read: false,
    },
    {
      user_id: creator,
      kind: 'payout_status',
      body: 'Your payout failed: Bank refused',
      link: '/payouts',
      read: false,
    },
    {
      user_id: member,
      kind: 'conversion_completed',
      body: '$9.70 was added to your balance',
      link: '/wallet',
      read: false,
    },
    {
      user_id: member,
      kind: 'membership_renewal_failed',
      body: 'We could not charge your card. Your access continues until Jan 4, 2026',
      link: '/subscribe',
      read: false,
    },
  ]);
});

it('applyAll (one batch, batches of 2, and a replayed batch) leaves the rows apply leaves, read marks included', async () => {
  const log = await readWholeLog(store);
  const { once } = await replayTwice(db, notificationsProjector, log);
  const events = log.filter((event) => notificationsProjector.eventTypes.includes(event.type));
  for (const size of [events.length, 2]) {
    const schema = `apply_all_notifications_${size}`;
    await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.raw(`CREATE SCHEMA "${schema}"`);
    await notificationsProjector.createTables(db, schema);
    await db.transaction(async (trx) => {
      for (let i = 0; i < events.length; i += size)
        await notificationsProjector.applyAll!(projectionContext(trx, schema), events.slice(i, i + size));
    });
    expect(await dumpTables(db, notificationsProjector, schema)).toEqual(once);
    // A replayed batch changes nothing.
    await db.transaction((trx) => notificationsProjector.applyAll!(projectionContext(trx, schema), events));
    expect(await dumpTables(db, notificationsProjector, schema)).toEqual(once);
  }
});

describe('queries', () => {
  beforeAll(async () => project(await readWholeLog(store)));

  it('pages newest first with a keyset cursor, names filled in', async () => {
    const first = await notificationsPage(readAs(db, member), { limit: 2 });
    expect(first.unreadCount).toBe(3);
    expect(first.items.map((item) => item.kind)).toEqual(['membership_renewal_failed', 'conversion_completed']);
    const second = await notificationsPage(readAs(db, member), { limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((item) => [item.body, item.read])).toEqual([
      ['Cara Test sent you a message', false],
      ['Cara Test sent you a paid message ($4.99)', true],
    ]);
    expect(second.nextCursor).toBeNull();
    expect(second.items[0].createdAt).toBe(at(5).toISOString());
  });

  it('tells each watcher, in one query, what arrived after what it was sent', async () => {
    const page = await notificationsPage(readAs(db, member), { limit: 50 });
    const [fresh, caughtUp, other] = await notificationNews(db, [
      { userId: member, after: null },
      { userId: member, after: await newestNotificationCursor(db, member) },
      { userId: creator, after: null },
    ]);
    expect(fresh.items).toEqual(page.items);
    expect(fresh.after).toBe(await newestNotificationCursor(db, member));
    expect(caughtUp).toEqual({ unreadCount: 3, items: [], after: fresh.after });
    expect(other.unreadCount).toBe(1);
    expect(other.items[0].body).toBe('Your payout failed: Bank refused');
  });

  it('names an actor who is no user id, or no known user, as Someone; no notifications is an empty page', async () => {
    const reader = '33333333-3333-4333-8333-333333333333';
    expect(await notificationsPage(readAs(db, reader), { limit: 20 })).toEqual({
      items: [],
      unreadCount: 0,
      nextCursor: null,
    });
    const tip = (id: string, actorId: string, commit: number) => ({
      id,
      user_id: reader,
      kind: 'tip_received',
      title: 'New tip',
      body: '{actor} tipped you $1.00',
      link: '/dashboard/analytics',
      actor_id: actorId,
      read: commit === 1,
      created_at: at(9),
      pos_commit: commit,
      pos_prepare: 0,
    });
    await db('notifications').insert([
      tip('t1', 'not-a-user-id', 1),
      tip('t2', '44444444-4444-4444-8444-444444444444', 2),
      tip('t3', creator, 3),
    ]);
    try {
      const page = await notificationsPage(readAs(db, reader), { limit: 20 });
      expect(page.items.map((item) => [item.body, item.read])).toEqual([
        ['Cara Test tipped you $1.00', false],
        ['Someone tipped you $1.00', false],
        ['Someone tipped you $1.00', true],
      ]);
      expect(page.unreadCount).toBe(2);
    } finally {
      await db('notifications').where({ user_id: reader }).delete();
    }
  });
});
