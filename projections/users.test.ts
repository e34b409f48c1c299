import type { Knex } from 'knex';
import type { RecordedEvent } from '../domain/event-store/port';
import { useTestDatabase } from '../ops/testing/use-test-database';
import { replayTwice } from './engine/testing/replay-twice';
import { usersProjector } from './users';

let db: Knex;
useTestDatabase((opened) => ({ db } = opened), { poolSize: 2 });

let seq = 0n;
function recorded(type: string, data: Record<string, unknown>, occurredAt: string): RecordedEvent {
  seq++;
  return {
    eventId: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`,
    streamId: 'user-x',
    revision: seq,
    position: { commit: seq, prepare: seq },
    type,
    data,
    metadata: { occurredAt },
    createdAt: occurredAt,
  };
}

const userId = '11111111-1111-4111-8111-111111111111';
const events = [
  recorded(
    'UserRegistered',
    {
      userId,
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      passwordHash: '$argon2id$x',
      gatewayCustomerId: 'cus_1',
      cardLast4: '4242',
      registeredAt: '2026-01-01T00:00:00.000Z',
    },
    '2026-01-01T00:00:00.000Z',
  ),
  recorded(
    'AgeVerified',
    { userId, method: 'card', cardLast4: '4242', verifiedAt: '2026-01-01T00:00:00.000Z' },
    '2026-01-01T00:00:00.000Z',
  ),
  recorded(
    'MembershipActivated',
    {
      userId,
      periodStart: '2026-01-01T00:00:00.000Z',
      periodEnd: '2026-02-01T00:00:00.000Z',
      source: 'card',
      paymentId: 'p1',
      activatedAt: '2026-01-01T00:00:00.000Z',
    },
    '2026-01-01T00:00:00.000Z',
  ),
  recorded('LoginFailed', { userId, attempts: 1, at: '2026-01-02T00:00:00.000Z' }, '2026-01-02T00:00:00.000Z'),
  recorded('LoginFailed', { userId, attempts: 2, at: '2026-01-02T00:01:00.000Z' }, '2026-01-02T00:01:00.000Z'),
  recorded(
    'AccountLocked',
    { userId, lockedUntil: '2026-01-02T00:16:00.000Z', at: '2026-01-02T00:01:00.000Z' },
    '2026-01-02T00:01:00.000Z',
  ),
  recorded(
    'PasswordResetRequested',
    { userId, tokenHash: 'abc', expiresAt: '2026-01-02T01:00:00.000Z', at: '2026-01-02T00:00:00.000Z' },
    '2026-01-02T00:02:00.000Z',
  ),
  recorded(
    'PasswordChanged',
    { userId, passwordHash: '$argon2id$y', via: 'reset', at: '2026-01-02T00:03:00.000Z' },
    '2026-01-02T00:03:00.000Z',
  ),
  recorded('LoginSucceeded', { userId, at: '2026-01-02T00:04:00.000Z' }, '2026-01-02T00:04:00.000Z'),
  recorded('UserDeactivated', { userId, reason: null, at: '2026-01-03T00:00:00.000Z' }, '2026-01-03T00:00:00.000Z'),
];

describe('users projector', () => {
  it('builds the same rows when every event is applied twice', async () => {
    const { once, twice } = await replayTwice(db, usersProjector, events);
    expect(twice).toEqual(once);
    expect(once.users).toHaveLength(1);
  });

  it('carries the SPEC §3 fields, the membership and the account state', async () => {
    await replayTwice(db, usersProjector, events);
    const row = await db.withSchema('replay_once_users').table('users').first();
    expect(row).toMatchObject({
      id: userId,
      email: 'ann@example.com',
      first_name: 'Ann',
      password_hash: '$argon2id$y',
      role: 'subscriber',
      is_active: false,
      is_creator: false,
      age_verified: true,
      gateway_customer_id: 'cus_1',
      subscription_status: 'active',
      login_attempts: 0,
      lock_until: null,
      password_reset_token_hash: null,
    });
    expect(row.last_payment_date.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(row.subscription_end_date.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(row.last_login_at.toISOString()).toBe('2026-01-02T00:04:00.000Z');
    expect(row.updated_at.toISOString()).toBe('2026-01-03T00:00:00.000Z');
  });
});

describe('roles', () => {
  const other = '22222222-2222-4222-8222-222222222222';
  const base = recorded(
    'UserRegistered',
    {
      userId: other,
      email: 'fin@example.com',
      firstName: 'Fin',
      lastName: 'Staff',
      passwordHash: 'h',
      gatewayCustomerId: 'cus_2',
      cardLast4: '4242',
      registeredAt: '2026-01-01T00:00:00.000Z',
    },
    '2026-01-01T00:00:00.000Z',
  );
  const roleOf = async (stream: RecordedEvent[]) => {
    await replayTwice(db, usersProjector, stream);
    return (await db.withSchema('replay_once_users').table('users').where({ id: other }).first()).role;
  };
  const creator = () =>
    recorded('CreatorRegistered', { userId: other, bio: 'b', coverImageUrl: null }, '2026-01-02T00:00:00.000Z');
  const staff = () => recorded('StaffRoleGranted', { userId: other, role: 'admin' }, '2026-01-02T00:00:00.000Z');

  it('a member who becomes a creator is a creator', async () => {
    expect(await roleOf([base, creator()])).toBe('creator');
  });

  it('finance staff who become creators stay finance staff', async () => {
    expect(await roleOf([base, staff(), creator()])).toBe('admin');
  });
});
