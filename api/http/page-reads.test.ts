import { randomBytes } from 'node:crypto';
import { standingStream } from '../../domain/safety/events';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { signUpMember, type TestMember } from '../../ops/testing/members';
import { readAs, readWithSession, type PageStatement } from '../../projections/page-reads';
import { hashSessionToken, resolveSession, SESSION_COOKIE } from '../../projections/sessions';
import { SESSION_USER_COLUMNS } from '../../projections/users';

jest.setTimeout(180_000);

/**
 * Page reads (api.pageRead, projections/page-reads.ts): a page-load GET resolves its session in
 * the statement that reads the page. The rows must be the statement's own, in its order; the
 * session must be the one a separate lookup finds; and the gates must decide the answer.
 */
let stack: TestStack;
let member: TestMember;

beforeAll(async () => {
  stack = await startTestStack({ trustProxy: true });
  member = await signUpMember(stack, 'Paige');
});
afterAll(() => stack.close());

/** A session of `userId` opened as sign-in opens one; its cookie token. */
async function openSession(userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await stack.db('http_sessions').insert({
    id: hashSessionToken(token),
    user_id: userId,
    expires_at: new Date(Date.now() + 86_400_000),
  });
  return token;
}

/** Rows named as the session's own columns would be, in an order the statement sets. */
const NUMBERS: PageStatement = {
  name: 'test-page-numbers',
  text: `SELECT n AS id, $1 AS session_user_id, $2::int * n AS session_id
    FROM generate_series(1, 5) n WHERE n <= $3 ORDER BY n DESC`,
};

describe('page statements', () => {
  it('answer the same rows for a known viewer as in the session lookup, in their order', async () => {
    const token = await openSession(member.id);
    const expected = [5, 4, 3].map((n) => ({ id: n, session_user_id: member.id, session_id: 10 * n }));
    expect(await readAs(stack.db, member.id)(NUMBERS, [10, 5])).toEqual([
      ...expected,
      { id: 2, session_user_id: member.id, session_id: 20 },
      { id: 1, session_user_id: member.id, session_id: 10 },
    ]);
    const { session, rows } = await readWithSession(stack.db, token, NUMBERS, [10, 3]);
    expect(rows).toEqual([
      { id: 3, session_user_id: member.id, session_id: 30 },
      { id: 2, session_user_id: member.id, session_id: 20 },
      { id: 1, session_user_id: member.id, session_id: 10 },
    ]);
    expect(session).toMatchObject({ sessionId: hashSessionToken(token), userId: member.id });
    expect(session?.user).toMatchObject({ id: member.id, first_name: 'Paige' });
  });

  it("carry the user's columns a request reads, never a password or reset hash", async () => {
    const token = await openSession(member.id);
    const { session } = await readWithSession(stack.db, token, NUMBERS, [10, 1]);
    expect(Object.keys(session!.user!).sort()).toEqual([...SESSION_USER_COLUMNS].sort());
    expect(session!.user).toMatchObject({ first_name: 'Paige', is_active: true, standing: 'active' });
    // The same user, column for column and type for type, as the session lookup of its own reads it
    // (page reads carry the user as JSON: its timestamps come back as dates).
    expect(session!.user).toEqual((await resolveSession(stack.db, token))!.user);
    expect(session!.user!.created_at).toBeInstanceOf(Date);
    expect(JSON.stringify(await resolveSession(stack.db, token))).not.toMatch(/password|reset/);
  });

  it('answer no rows, with the session, when the statement has none', async () => {
    const token = await openSession(member.id);
    const { session, rows } = await readWithSession(stack.db, token, NUMBERS, [10, 0]);
    expect(rows).toEqual([]);
    expect(session?.userId).toBe(member.id);
  });

  it("answer a visitor's rows without a live session", async () => {
    const expired = randomBytes(32).toString('base64url');
    await stack.db('http_sessions').insert({
      id: hashSessionToken(expired),
      user_id: member.id,
      expires_at: new Date(Date.now() - 1000),
    });
    for (const token of [undefined, 'not-a-session', expired, 'x'.repeat(201)]) {
      const { session, rows } = await readWithSession(stack.db, token, NUMBERS, [1, 1]);
      expect(session).toBeNull();
      expect(rows).toEqual([{ id: 1, session_user_id: null, session_id: 1 }]);
    }
    expect(await readWithSession(stack.db, expired, NUMBERS, [1, 0])).toEqual({ session: null, rows: [] });
  });
});

describe('a page-load GET', () => {
  const balance = (token?: string) => {
    const request = stack.agent().get('/api/crypto/balance');
    return token ? request.set('Cookie', `${SESSION_COOKIE}=${token}`) : request;
  };

  it("answers the session's user, and 401 without a live session", async () => {
    expect((await member.agent.get('/api/crypto/balance').expect(200)).body).toEqual({
      totalUsd: '0.00',
      conversions: [],
    });
    await balance().expect(401);
    await balance('not-a-session').expect(401);
  });

  it('answers JSON with its length, and a HEAD the same headers without the body', async () => {
    const got = await member.agent.get('/api/crypto/balance').expect(200);
    expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(got.body)));
    const head = await member.agent.head('/api/crypto/balance').expect(200);
    expect(head.headers['content-length']).toBe(got.headers['content-length']);
    expect(head.headers['content-type']).toBe(got.headers['content-type']);
    expect(head.text ?? '').toBe('');
  });

  it('ends the session of a suspended account at its first use, with a 401', async () => {
    const suspended = await signUpMember(stack, 'Sid');
    await stack.store.append(
      standingStream(suspended.id),
      [
        {
          type: 'UserSuspended',
          data: {
            userId: suspended.id,
            staffId: null,
            reason: 'test',
            days: 1,
            until: new Date(Date.now() + 86_400_000).toISOString(),
            automatic: false,
            reportId: null,
            at: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    await eventually(
      () => stack.db('users').where({ id: suspended.id }).first('standing'),
      (row) => row?.standing === 'suspended',
    );
    const slipped = await openSession(suspended.id); // opened after the suspension ended the others
    await balance(slipped).expect(401);
    expect(
      await stack
        .db('http_sessions')
        .where({ id: hashSessionToken(slipped) })
        .first(),
    ).toBeUndefined();
  });

  it('passes a malformed path parameter on to the routes after it', async () => {
    // /creators/:id is a page read; /creators/verification is another module's route.
    const answer = await member.agent.get('/api/creators/verification');
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatch(/creator/i);
  });
});
