import type { Request, RequestHandler, Response } from 'express';
import { userStream } from '../../domain/accounts/events';
import { membershipStream } from '../../domain/membership/events';
import { DomainError } from '../../domain/shared/errors';
import { newId } from '../../domain/shared/ids';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { waitForProjections } from '../../projections/engine/read-your-writes';
import { errorHandler } from './errors';
import { currentUser } from '../../projections/users';
import { requireActiveSubscription, requireAgeVerified, requireRole } from './access';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const at = '2026-01-01T00:00:00.000Z';
/** A user built from events: optionally age verified and with a membership. */
async function userWith(options: { ageVerified: boolean; member: boolean }): Promise<string> {
  const userId = newId();
  const registered = {
    userId,
    email: `${userId}@example.com`,
    firstName: 'A',
    lastName: 'B',
    passwordHash: 'h',
    gatewayCustomerId: 'cus',
    cardLast4: '4242',
    registeredAt: at,
  };
  let written = await stack.store.append(
    userStream(userId),
    [
      { type: 'UserRegistered', data: registered },
      ...(options.ageVerified
        ? [{ type: 'AgeVerified', data: { userId, method: 'card', cardLast4: '4242', verifiedAt: at } }]
        : []),
    ],
    { expectedRevision: 'no_stream' },
  );
  if (options.member) {
    const data = {
      userId,
      periodStart: at,
      periodEnd: '2099-01-01T00:00:00.000Z',
      source: 'card',
      paymentId: newId(),
      activatedAt: at,
    };
    written = await stack.store.append(membershipStream(userId), [{ type: 'MembershipActivated', data }], {
      expectedRevision: 'no_stream',
    });
  }
  expect(await waitForProjections(stack.db, ['users'], written.position, 20_000)).toBe(true);
  return userId;
}

/** Runs a middleware; resolves with what it passed to next(). */
function run(
  handler: RequestHandler,
  userId: string | null,
): Promise<{ error: unknown; locals: Record<string, unknown> }> {
  const res = { locals: {} } as unknown as Response;
  return new Promise((resolve) => {
    void handler({ userId } as Request, res, (error?: unknown) => resolve({ error, locals: res.locals }));
  });
}

describe('access helpers', () => {
  it('reads the current user camelCased, null without a session or for an unknown id', async () => {
    const userId = await userWith({ ageVerified: true, member: true });
    expect(await currentUser(stack.db, userId)).toEqual({
      id: userId,
      email: `${userId}@example.com`,
      firstName: 'A',
      lastName: 'B',
      profileImageUrl: null,
      role: 'subscriber',
      isCreator: false,
      ageVerified: true,
      subscriptionStatus: 'active',
      lastPaymentDate: at,
      subscriptionEndDate: '2099-01-01T00:00:00.000Z',
      createdAt: at,
    });
    expect(await currentUser(stack.db, null)).toBeNull();
    expect(await currentUser(stack.db, newId())).toBeNull();
  });

  it('requireActiveSubscription: 401 signed out, 403 SUBSCRIPTION_REQUIRED without membership, passes a member', async () => {
    const gate = requireActiveSubscription(stack.db);
    expect((await run(gate, null)).error).toMatchObject({ kind: 'unauthorized', message: 'Unauthorized' });
    const refused = (await run(gate, await userWith({ ageVerified: true, member: false }))).error as DomainError;
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      kind: 'forbidden',
      message: 'An active subscription is required',
      details: { code: 'SUBSCRIPTION_REQUIRED' },
    });
    const passed = await run(gate, await userWith({ ageVerified: true, member: true }));
    expect(passed.error).toBeUndefined();
    expect(passed.locals.currentUser).toMatchObject({ subscriptionStatus: 'active' });
  });

  it('requireAgeVerified: 403 with requiresAgeVerification, passes a verified user', async () => {
    const gate = requireAgeVerified(stack.db);
    const refused = (await run(gate, await userWith({ ageVerified: false, member: false }))).error;
    expect(refused).toMatchObject({ kind: 'forbidden', details: { requiresAgeVerification: true } });
    expect((await run(gate, await userWith({ ageVerified: true, member: false }))).error).toBeUndefined();
  });

  it('requireRole: 403 for another role', async () => {
    const userId = await userWith({ ageVerified: true, member: true });
    expect((await run(requireRole(stack.db, 'admin'), userId)).error).toMatchObject({
      kind: 'forbidden',
      message: 'Forbidden',
    });
    expect((await run(requireRole(stack.db, 'subscriber'), userId)).error).toBeUndefined();
  });

  it('the API maps the subscription refusal to a 403 body', async () => {
    const userId = await userWith({ ageVerified: true, member: false });
    const { error } = await run(requireActiveSubscription(stack.db), userId);
    let status = 0;
    let body: unknown;
    const res = {
      headersSent: false,
      status: (s: number) => ((status = s), res),
      json: (b: unknown) => (body = b),
    } as unknown as Response;
    errorHandler(error, {} as Request, res, () => undefined);
    expect(status).toBe(403);
    expect(body).toEqual({ error: 'An active subscription is required', code: 'SUBSCRIPTION_REQUIRED' });
  });
});
