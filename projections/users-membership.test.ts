import type { Knex } from 'knex';
import { userStream } from '../domain/accounts/events';
import type { PostgresEventStore } from '../domain/event-store/postgres-event-store';
import { membershipDecider, type MembershipCommand } from '../domain/membership/decider';
import { membershipStream } from '../domain/membership/events';
import { handleCommand } from '../domain/shared/command-handler';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { replayTwice } from './engine/testing/replay-twice';
import { usersProjector } from './users';
import { readWholeLog } from '../ops/testing/read-whole-log';

jest.setTimeout(60_000);
let store: PostgresEventStore;
let db: Knex;
useTestDatabase((opened) => ({ db, store } = opened));

const userId = '0b7e7a0c-3f4e-4a43-9d39-5a4d1c7a0001';
const membership = (command: MembershipCommand) =>
  handleCommand(store, membershipStream(userId), membershipDecider, command, { actorId: userId, now: command.now });
/** Every appended event, once the global log shows them all (it hides rows of still-open transactions). */
async function allEvents() {
  const expected =
    (await store.readStream(userStream(userId))).length + (await store.readStream(membershipStream(userId))).length;
  for (;;) {
    const events = await readWholeLog(store);
    if (events.length >= expected) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const rowAfter = async () => {
  const { once, twice } = await replayTwice(db, usersProjector, await allEvents());
  expect(twice).toEqual(once);
  return db.withSchema('replay_once_users').table('users').where({ id: userId }).first();
};

it('the users read model follows every membership state', async () => {
  await store.append(
    userStream(userId),
    [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email: 'm@x.test',
          firstName: 'M',
          lastName: 'X',
          passwordHash: 'h',
          gatewayCustomerId: 'cus_1',
          cardLast4: '4242',
          registeredAt: '2026-01-10T00:00:00.000Z',
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  await membership({
    type: 'ActivateMembership',
    userId,
    paymentId: 'p1',
    source: 'card',
    months: 1,
    now: new Date('2026-01-10T00:00:00Z'),
  });
  expect(await rowAfter()).toMatchObject({ subscription_status: 'active' });

  await membership({
    type: 'RecordRenewal',
    userId,
    periodEnd: '2026-02-10T00:00:00.000Z',
    paymentId: 'r1',
    outcome: { paid: false, failureReason: 'declined' },
    now: new Date('2026-02-10T00:00:00Z'),
  });
  let row = await rowAfter();
  expect(row.subscription_status).toBe('past_due');
  expect(new Date(row.subscription_end_date).toISOString()).toBe('2026-02-13T00:00:00.000Z');

  await membership({ type: 'ExpireMembership', userId, now: new Date('2026-02-14T00:00:00Z') });
  expect(await rowAfter()).toMatchObject({ subscription_status: 'expired' });

  await membership({
    type: 'ActivateMembership',
    userId,
    paymentId: 'p2',
    source: 'crypto',
    months: 7,
    now: new Date('2026-03-01T00:00:00Z'),
  });
  await membership({ type: 'CancelMembership', userId, now: new Date('2026-03-02T00:00:00Z') });
  row = await rowAfter();
  expect(row.subscription_status).toBe('canceled');
  expect(new Date(row.subscription_end_date).toISOString()).toBe('2026-10-01T00:00:00.000Z');

  await membership({ type: 'ResumeMembership', userId, now: new Date('2026-03-03T00:00:00Z') });
  await membership({
    type: 'RecordRenewal',
    userId,
    periodEnd: '2026-10-01T00:00:00.000Z',
    paymentId: 'r2',
    outcome: { paid: true },
    now: new Date('2026-10-01T00:00:00Z'),
  });
  row = await rowAfter();
  expect(row.subscription_status).toBe('active');
  expect(new Date(row.subscription_end_date).toISOString()).toBe('2026-11-01T00:00:00.000Z');
  expect(new Date(row.last_payment_date).toISOString()).toBe('2026-10-01T00:00:00.000Z');
});
