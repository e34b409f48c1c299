import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { emailStream } from '../../domain/accounts/events';
import { eventually } from './eventually';
import type { TestStack } from './harness';
import { creditEarnings, earningsEventId } from '../../domain/payouts/credit-earnings';
import { grantStaffRole } from '../../domain/payouts/staff-role';
import { turnOnTwoFactor } from './two-factor';
import { verifyIdentity } from './identity-verification';

/** Test people for the payouts and finance routes: members, creators and finance staff with sessions. */

export { eventually };

/** Waits until every read model exists and has caught up. */
export async function ready(stack: TestStack) {
  await eventually(
    () => stack.agent().get('/api/health'),
    (res) => res.body.ready === true,
    30_000,
  );
}

export type Kind = 'member' | 'creator' | 'admin';

/**
 * Creators have two-factor on (payment accounts and payouts need it) unless `twoFactor: false`,
 * and their identity verified (payouts, locked posts and paid messages need it) unless `verified: false`.
 */
export async function person(stack: TestStack, kind: Kind, options: { twoFactor?: boolean; verified?: boolean } = {}) {
  const userId = randomUUID();
  const now = new Date().toISOString();
  const context = { actorId: userId, now: new Date() };
  const email = `${kind}-${userId}@example.com`;
  await stack.store.append(emailStream(email), [{ type: 'EmailClaimed', data: { userId, email, at: now } }], {
    expectedRevision: 'no_stream',
  });
  await stack.store.append(
    `user-${userId}`,
    [
      {
        type: 'UserRegistered',
        data: {
          userId,
          email,
          firstName: kind,
          lastName: 'Test',
          passwordHash: 'x',
          gatewayCustomerId: 'cus_test',
          cardLast4: '4242',
          registeredAt: now,
        },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  if (kind === 'creator') {
    await stack.store.append(
      `creator-${userId}`,
      [{ type: 'CreatorRegistered', data: { userId, bio: 'Bio', coverImageUrl: null, registeredAt: now } }],
      { expectedRevision: 'no_stream' },
    );
  }
  if (kind === 'creator' && options.twoFactor !== false) await turnOnTwoFactor(stack, userId, email);
  if (kind === 'admin') await grantStaffRole(stack.store, userId, { ...context, actorId: null });
  const ready = (row: { is_creator: boolean; role: string } | undefined) =>
    !!row && (kind !== 'creator' || row.is_creator) && (kind !== 'admin' || row.role === 'admin');
  if (!ready(await eventually(() => stack.db('users').where({ id: userId }).first(), ready)))
    throw new Error(`the ${kind} ${userId} never reached the users read model`);
  const token = randomBytes(32).toString('base64url');
  await stack.db('http_sessions').insert({
    id: createHash('sha256').update(token).digest('hex'),
    user_id: userId,
    expires_at: new Date(Date.now() + 3_600_000),
  });
  const agent = stack.agent().set('Cookie', `lively.sid=${token}`);
  if (kind === 'creator' && options.verified !== false) await verifyIdentity(stack, agent, userId);
  return { userId, agent };
}

const DAY = 86_400_000;

/** Credits a sale to a creator `daysAgo` days ago (8+ days: past the hold, so available). */
export async function earn(stack: TestStack, creatorId: string, grossCents: number, daysAgo: number) {
  const reference = randomUUID();
  const result = await creditEarnings(
    stack.store,
    creatorId,
    { grossCents, source: 'subscription', reference, occurredAt: new Date(Date.now() - daysAgo * DAY), payerId: null },
    { actorId: null, now: new Date() },
  );
  await eventually(
    () =>
      stack
        .db('creator_earnings')
        .where({ event_id: result.events.length ? earningsEventId(creatorId, reference) : '' })
        .first(),
    (row) => !!row,
  );
  return result;
}
