import { createHash } from 'node:crypto';
import { accountDecider } from '../../domain/accounts/decider';
import { userStream } from '../../domain/accounts/events';
import { handleCommand } from '../../domain/shared/command-handler';
import { eventually } from '../../ops/testing/eventually';
import { readWholeLog } from '../../ops/testing/read-whole-log';
import { startTestStack, type TestStack } from '../../ops/testing/harness';

// argon2 and ~100-request rate-limit loops on a shared, busy machine.
jest.setTimeout(60_000);

let stack: TestStack;
let offsetMs = 0;
beforeAll(async () => {
  // A movable clock for lock and token expiry; X-Forwarded-For gives each test its own IP.
  stack = await startTestStack({ clock: () => new Date(Date.now() + offsetMs), trustProxy: true });
});
afterAll(() => stack.close());
afterEach(() => {
  offsetMs = 0;
});

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;
const newIp = () => `10.${counter % 250}.${Math.floor(Math.random() * 250)}.${++counter % 250}`;
const client = (ip = newIp()) => stack.agent().set('X-Forwarded-For', ip);
const PASSWORD = 'Passw0rdGood';

function signup(over: Record<string, unknown> = {}) {
  return {
    firstName: 'Ann',
    lastName: 'Lee',
    email: `ann.${unique()}@example.com`,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    paymentToken: `dev_tok_${unique()}`,
    ...over,
  };
}

async function registered(over: Record<string, unknown> = {}) {
  const agent = client();
  const body = signup(over);
  const res = await agent.post('/api/auth/register').send(body).expect(201);
  return { agent, body, user: res.body.user, res };
}

const sessionCookie = (res: { headers: Record<string, unknown> }) =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('lively.sid='));
const deviceCookie = (res: { headers: Record<string, unknown> }) =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('lively.device='));

describe('POST /api/auth/register', () => {
  it('creates an age-verified member with one month of membership, charges $1.99 and signs in', async () => {
    const { agent, body, user, res } = await registered({
      email: `Mixed.${unique()}@Example.COM`,
      paymentToken: `dev_tok_${unique()}_1881`,
    });
    expect(res.body.message).toBe('Your account has been created and subscription is active.');
    expect(user).toMatchObject({
      email: body.email.toLowerCase(),
      firstName: 'Ann',
      lastName: 'Lee',
      role: 'subscriber',
      isCreator: false,
      ageVerified: true,
      subscriptionStatus: 'active',
    });
    const paid = new Date(user.lastPaymentDate);
    const end = new Date(user.subscriptionEndDate);
    expect(Math.abs(paid.getTime() - Date.now())).toBeLessThan(60_000);
    expect(end.getUTCMonth()).toBe((paid.getUTCMonth() + 1) % 12);

    const cookie = sessionCookie(res)!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);

    const me = await agent.get('/api/auth/user').expect(200);
    expect(me.body).toEqual(user);
    const status = await agent.get('/api/subscription-status').expect(200);
    expect(status.body).toEqual({
      subscriptionStatus: 'active',
      ageVerified: true,
      lastPaymentDate: user.lastPaymentDate,
      subscriptionEndDate: user.subscriptionEndDate,
    });

    const row = await stack.db('users').where({ id: user.id }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.gateway_customer_id).toMatch(/^cus_sbx_ok_1881_/);
    const payments = await stack.db('payments').where({ user_id: user.id });
    expect(payments).toEqual([
      expect.objectContaining({
        amount_cents: 199,
        currency: 'USD',
        status: 'succeeded',
        card_last4: '1881',
        request_type: 'membership_signup',
        email: body.email.toLowerCase(),
      }),
    ]);
    expect(JSON.stringify(payments)).not.toContain(body.paymentToken);
  });

  it('answers each invalid field with the SPEC §5 message', async () => {
    const agent = client();
    const empty = await agent.post('/api/auth/register').send({}).expect(400);
    expect(empty.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: {
        firstName: 'First name is required',
        lastName: 'Last name is required',
        email: 'Email is required',
        password: 'Password is required',
        paymentToken: 'Payment information is required',
      },
    });
    const check = async (over: Record<string, unknown>, field: string, message: string) => {
      const res = await agent.post('/api/auth/register').send(signup(over)).expect(400);
      expect(res.body.fields[field]).toBe(message);
      return res.body;
    };
    expect((await check({ email: 'not-an-email' }, 'email', 'Invalid email address')).error).toBe(
      'Invalid email format',
    );
    await check({ firstName: '  ' }, 'firstName', 'First name is required');
    await check(
      { password: 'Short1', confirmPassword: 'Short1' },
      'password',
      'Password must be at least 8 characters',
    );
    await check(
      { password: 'alllowercase1', confirmPassword: 'alllowercase1' },
      'password',
      'Password must contain at least one lowercase letter, one uppercase letter, and one number',
    );
    await check({ confirmPassword: 'Different1' }, 'confirmPassword', "Passwords don't match");
    await check({ paymentToken: '' }, 'paymentToken', 'Payment information is required');
  });

  it('refuses a second account for the same email in any case with 409 "already exists"', async () => {
    const { body } = await registered();
    const res = await client()
      .post('/api/auth/register')
      .send(signup({ email: body.email.toUpperCase() }))
      .expect(409);
    expect(res.body).toMatchObject({ error: 'An account with this email already exists', code: 'CONFLICT' });
    expect(await stack.db('users').where({ email: body.email.toLowerCase() }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it.each([
    ['dev_tok_decline_card', 'Your card was declined.'],
    ['dev_tok_insufficient_funds', 'Your card was declined: Insufficient funds'],
    ['tok_not_a_dev_token', 'Your card was declined: Invalid payment token'],
  ])('leaves nothing behind when the card is refused (%s)', async (paymentToken, message) => {
    const before = (await readWholeLog(stack.store)).length;
    const body = signup({ paymentToken });
    const agent = client();
    const res = await agent.post('/api/auth/register').send(body).expect(402);
    expect(res.body).toMatchObject({ error: message, code: 'PAYMENT_DECLINED' });
    expect(res.body.error).toContain('declined');
    expect(sessionCookie(res)).toBeUndefined();
    expect((await readWholeLog(stack.store)).length).toBe(before);
    expect(await stack.db('users').where({ email: body.email }).first()).toBeUndefined();
    await agent.get('/api/auth/user').expect(401);
    // The email is still free.
    await client()
      .post('/api/auth/register')
      .send({ ...body, paymentToken: `dev_tok_${unique()}` })
      .expect(201);
  });

  it('accepts a dev_tok_renewal_fails… card for the sign-up charge (only later charges decline)', async () => {
    const { user } = await registered({ paymentToken: `dev_tok_renewal_fails_${unique()}` });
    expect(user).toMatchObject({ subscriptionStatus: 'active', ageVerified: true });
  });

  it('creates one user when the same email registers twice at once', async () => {
    const email = `race.${unique()}@example.com`;
    const results = await Promise.all([
      client().post('/api/auth/register').send(signup({ email })),
      client()
        .post('/api/auth/register')
        .send(signup({ email: email.toUpperCase() })),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const events = (await readWholeLog(stack.store)).filter(
      (e) => e.type === 'UserRegistered' && (e.data as { email: string }).email === email,
    );
    expect(events).toHaveLength(1);
    expect(await stack.db('users').where({ email }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with a new session id; the previous session ends', async () => {
    const { agent, body, user, res: registration } = await registered();
    const oldCookie = sessionCookie(registration)!.split(';')[0];
    const res = await agent
      .post('/api/auth/login')
      .send({ email: body.email.toUpperCase(), password: PASSWORD })
      .expect(200);
    expect(res.body.user).toMatchObject({ id: user.id, subscriptionStatus: 'active' });
    const newCookie = sessionCookie(res)!.split(';')[0];
    expect(newCookie).not.toEqual(oldCookie);
    await agent.get('/api/auth/user').expect(200);
    await client().get('/api/auth/user').set('Cookie', oldCookie).expect(401);
    const row = await stack.db('users').where({ id: user.id }).first();
    expect(row.last_login_at).not.toBeNull();
  });

  it('answers an unknown email and a wrong password alike', async () => {
    const { body } = await registered();
    const wrong = await client()
      .post('/api/auth/login')
      .send({ email: body.email, password: 'Wrong0password' })
      .expect(401);
    const unknown = await client()
      .post('/api/auth/login')
      .send({ email: `nobody.${unique()}@example.com`, password: PASSWORD })
      .expect(401);
    expect(wrong.body).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('validates the body with the SPEC §5 messages', async () => {
    const res = await client().post('/api/auth/login').send({ email: '', password: '' }).expect(400);
    expect(res.body.fields).toEqual({ email: 'Email is required', password: 'Password is required' });
    const bad = await client().post('/api/auth/login').send({ email: 'nope', password: 'x' }).expect(400);
    expect(bad.body).toMatchObject({ error: 'Invalid email format', fields: { email: 'Invalid email address' } });
  });

  it('locks the account for 15 minutes after 5 failed attempts', async () => {
    const { body, user } = await registered();
    for (let i = 1; i <= 5; i++) {
      const res = await client()
        .post('/api/auth/login')
        .send({ email: body.email, password: `Wrong${i}password` })
        .expect(401);
      expect(res.body.error).toBe('Invalid email or password');
    }
    const locked = await client().post('/api/auth/login').send({ email: body.email, password: PASSWORD }).expect(403);
    expect(locked.body).toMatchObject({ error: 'Account temporarily locked', code: 'ACCOUNT_LOCKED' });
    // A failure is answered without waiting for the read model (it would make known emails slower).
    const row = await eventually(
      () => stack.db('users').where({ id: user.id }).first(),
      (r) => r.login_attempts === 5,
      10_000,
    );
    expect(row.login_attempts).toBe(5);
    expect(new Date(row.lock_until).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);

    offsetMs = 14 * 60_000;
    await client().post('/api/auth/login').send({ email: body.email, password: PASSWORD }).expect(403);
    offsetMs = 16 * 60_000;
    await client().post('/api/auth/login').send({ email: body.email, password: PASSWORD }).expect(200);
    expect((await stack.db('users').where({ id: user.id }).first()).login_attempts).toBe(0);
  });

  it('keeps the owner signing in from their usual client while another IP fails on purpose', async () => {
    const { agent: owner, body } = await registered(); // a sign-in: this client is now trusted for the account
    const attacker = newIp();
    const answers = [];
    for (let i = 0; i < 25; i++)
      answers.push(
        (
          await client(attacker)
            .post('/api/auth/login')
            .send({ email: body.email, password: `Wrong${i}password` })
        ).status,
      );
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5, 20)).toEqual(Array(15).fill(403)); // locked for strangers
    expect(answers.slice(20)).toEqual(Array(5).fill(429)); // and that account+IP pair is throttled
    // A client that never signed in to this account meets the lock, even with the password (SPEC text).
    const stranger = await client().post('/api/auth/login').send({ email: body.email, password: PASSWORD }).expect(403);
    expect(stranger.body).toMatchObject({ error: 'Account temporarily locked', code: 'ACCOUNT_LOCKED' });
    // The owner's client (its device cookie) is stopped neither by the lock nor by the attacker's throttle.
    const res = await owner.post('/api/auth/login').send({ email: body.email, password: PASSWORD }).expect(200);
    expect(res.body.user.email).toBe(body.email);
    expect(deviceCookie(res)).toMatch(/HttpOnly/);
    expect(deviceCookie(res)).toMatch(/Path=\/api\/auth/);
  });

  it('answers an unknown email exactly like an account under repeated failures, lock included', async () => {
    const { body } = await registered();
    const unknownEmail = `nobody.${unique()}@example.com`;
    const answers = async (email: string) => {
      const seen = [];
      for (let i = 0; i < 8; i++) {
        const res = await client().post('/api/auth/login').send({ email, password: 'Wrong0password' });
        seen.push({ status: res.status, body: res.body });
      }
      offsetMs = 16 * 60_000; // after the lock: counting starts again
      const after = await client().post('/api/auth/login').send({ email, password: 'Wrong0password' });
      offsetMs = 0;
      return [...seen, { status: after.status, body: after.body }];
    };
    const known = await answers(body.email);
    expect(known.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 403, 403, 403, 401]);
    expect(known[5].body).toEqual({ error: 'Account temporarily locked', code: 'ACCOUNT_LOCKED' });
    expect(await answers(unknownEmail)).toEqual(known);
  });

  it('tells a deactivated account so', async () => {
    const { body, user } = await registered();
    await handleCommand(
      stack.store,
      userStream(user.id),
      accountDecider,
      { type: 'DeactivateUser', reason: 'test', now: new Date() },
      { actorId: null, now: new Date() },
    );
    const res = await client().post('/api/auth/login').send({ email: body.email, password: PASSWORD }).expect(403);
    expect(res.body).toMatchObject({ error: 'Account has been deactivated', code: 'ACCOUNT_DEACTIVATED' });
  });
});

describe('sessions and redirects', () => {
  it('marks the session cookie Secure when served over TLS (behind a proxy)', async () => {
    const { body } = await registered();
    const res = await client()
      .post('/api/auth/login')
      .set('X-Forwarded-Proto', 'https')
      .set('Origin', stack.url.replace('http:', 'https:'))
      .send({ email: body.email, password: PASSWORD })
      .expect(200);
    expect(sessionCookie(res)).toMatch(/; Secure/);
    expect(sessionCookie(res)).toMatch(/HttpOnly/);
  });

  it('GET /api/auth/logout ends the session and redirects to /', async () => {
    const { agent } = await registered();
    const res = await agent.get('/api/auth/logout').set('Sec-Fetch-Site', 'same-origin').expect(302);
    expect(res.headers.location).toBe('/');
    expect((await agent.get('/api/auth/user').expect(401)).body).toEqual({
      error: 'Unauthorized',
      code: 'UNAUTHORIZED',
    });
  });

  it('GET /api/auth/logout from another site (Sec-Fetch-Site: cross-site) redirects and leaves the session open', async () => {
    const { agent, user } = await registered();
    const res = await agent.get('/api/auth/logout').set('Sec-Fetch-Site', 'cross-site').expect(302);
    expect(res.headers.location).toBe('/');
    expect(sessionCookie(res)).toBeUndefined(); // the cookie is not cleared
    expect((await agent.get('/api/auth/user').expect(200)).body.id).toBe(user.id);
    // Typed into the address bar (none) still signs out.
    await agent.get('/api/auth/logout').set('Sec-Fetch-Site', 'none').expect(302);
    await agent.get('/api/auth/user').expect(401);
  });

  it('GET /api/login redirects to /login; signed-out reads are 401 Unauthorized', async () => {
    expect((await client().get('/api/login').expect(302)).headers.location).toBe('/login');
    expect((await client().get('/api/auth/user').expect(401)).body.error).toBe('Unauthorized');
    expect((await client().get('/api/subscription-status').expect(401)).body.error).toBe('Unauthorized');
  });
});

describe('password reset', () => {
  const RESET_ANSWER = { message: "If an account exists with that email, we've sent you a password reset link." };
  const outbox = (to: string) => stack.db('email_outbox').where({ to_address: to }).orderBy('created_at', 'desc');
  /** The request is answered first and mailed after (OWASP: its timing tells nothing): wait for the mail. */
  const mailTo = (to: string) =>
    eventually(
      () => outbox(to),
      (mails) => mails.length > 0,
      15_000,
    );
  const tokenOf = (link: string) => new URL(link, 'http://x').searchParams.get('token')!;

  it('answers the same whether or not the account exists, and mails a link only to an account', async () => {
    const { body, user } = await registered();
    const unknownEmail = `ghost.${unique()}@example.com`;
    const a = await client().post('/api/auth/reset-password-request').send({ email: unknownEmail }).expect(200);
    const b = await client()
      .post('/api/auth/reset-password-request')
      .send({ email: body.email.toUpperCase() })
      .expect(200);
    expect(a.body).toEqual(RESET_ANSWER);
    expect(b.body).toEqual(RESET_ANSWER);
    const [mail] = await mailTo(body.email);
    expect(await outbox(unknownEmail)).toEqual([]);
    expect(mail).toMatchObject({ kind: 'password-reset', subject: 'Reset your Lively password' });
    expect(mail.link).toMatch(new RegExp(`^${stack.url}/reset-password\\?token=[A-Za-z0-9_-]{43}$`));
    expect(mail.body).toContain(mail.link);
    const token = tokenOf(mail.link);
    const row = await stack.db('users').where({ id: user.id }).first();
    expect(row.password_reset_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(
      JSON.stringify(await readWholeLog(stack.store), (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
    ).not.toContain(token);
  });

  it('sets the new password once, ends the other sessions, and refuses the token afterwards', async () => {
    const { agent: other, body } = await registered();
    await client().post('/api/auth/reset-password-request').send({ email: body.email }).expect(200);
    const token = tokenOf((await mailTo(body.email))[0].link);
    const NEW = 'NewPassw0rd';
    const res = await client()
      .post('/api/auth/reset-password')
      .send({ token, password: NEW, confirmPassword: NEW })
      .expect(200);
    expect(res.body).toEqual({ message: 'Your password has been reset. You can now sign in.' });
    await other.get('/api/auth/user').expect(401);
    await client().post('/api/auth/login').send({ email: body.email, password: PASSWORD }).expect(401);
    await client().post('/api/auth/login').send({ email: body.email, password: NEW }).expect(200);
    const again = await client()
      .post('/api/auth/reset-password')
      .send({ token, password: 'Another0ne', confirmPassword: 'Another0ne' })
      .expect(400);
    expect(again.body).toMatchObject({ error: 'Invalid or expired reset token', code: 'VALIDATION_ERROR' });
  });

  it('refuses an expired token (after one hour)', async () => {
    const { body } = await registered();
    await client().post('/api/auth/reset-password-request').send({ email: body.email }).expect(200);
    const token = tokenOf((await mailTo(body.email))[0].link);
    offsetMs = 61 * 60_000;
    const res = await client()
      .post('/api/auth/reset-password')
      .send({ token, password: 'NewPassw0rd', confirmPassword: 'NewPassw0rd' })
      .expect(400);
    expect(res.body.error).toBe('Invalid or expired reset token');
  });

  it('validates the reset bodies with the SPEC §5 messages', async () => {
    const missing = await client()
      .post('/api/auth/reset-password')
      .send({ password: 'NewPassw0rd', confirmPassword: 'NewPassw0rd' })
      .expect(400);
    expect(missing.body.fields.token).toBe('Reset token is required');
    const mismatch = await client()
      .post('/api/auth/reset-password')
      .send({ token: 'x', password: 'NewPassw0rd', confirmPassword: 'Other0000' })
      .expect(400);
    expect(mismatch.body.fields.confirmPassword).toBe("Passwords don't match");
    const bad = await client().post('/api/auth/reset-password-request').send({ email: 'bad' }).expect(400);
    expect(bad.body.error).toBe('Invalid email format');
  });
});

describe('rate limits (429)', () => {
  const expect429 = (
    res: { status: number; body: Record<string, unknown>; headers: Record<string, string> },
    message: string,
  ) => {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: message, code: 'RATE_LIMITED', status: 429 });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('limits login per IP and per account+IP pair, never per account alone', async () => {
    const ip = newIp();
    for (let i = 0; i < 100; i++) await client(ip).post('/api/auth/login').send({}).expect(400);
    expect429(
      await client(ip).post('/api/auth/login').send({}),
      'Too many login attempts. Please wait before trying again.',
    );

    const email = `ghost.${unique()}@example.com`;
    const pair = newIp();
    for (let i = 0; i < 20; i++)
      expect([401, 403]).toContain(
        (await client(pair).post('/api/auth/login').send({ email, password: 'Wrong0pass' })).status,
      );
    expect429(
      await client(pair).post('/api/auth/login').send({ email: email.toUpperCase(), password: 'Wrong0pass' }),
      'Too many login attempts. Please wait before trying again.',
    );
    // Another address is not throttled for that account: it meets the (emulated) lock instead.
    expect((await client().post('/api/auth/login').send({ email, password: 'Wrong0pass' })).status).toBe(403);
  });

  it('limits registration per IP and per account', async () => {
    const ip = newIp();
    for (let i = 0; i < 50; i++) await client(ip).post('/api/auth/register').send({}).expect(400);
    expect429(
      await client(ip).post('/api/auth/register').send({}),
      'Too many registration attempts. Please wait before trying again.',
    );
    const email = `many.${unique()}@example.com`;
    for (let i = 0; i < 5; i++) await client().post('/api/auth/register').send({ email }).expect(400);
    expect429(
      await client().post('/api/auth/register').send({ email }),
      'Too many registration attempts. Please wait before trying again.',
    );
  });

  it('limits reset requests per IP and per account', async () => {
    const ip = newIp();
    for (let i = 0; i < 20; i++) await client(ip).post('/api/auth/reset-password-request').send({}).expect(400);
    expect429(
      await client(ip).post('/api/auth/reset-password-request').send({}),
      'Too many reset requests. Please wait before trying again.',
    );
    const email = `ghost.${unique()}@example.com`;
    for (let i = 0; i < 5; i++) await client().post('/api/auth/reset-password-request').send({ email }).expect(200);
    expect429(
      await client().post('/api/auth/reset-password-request').send({ email }),
      'Too many reset requests. Please wait before trying again.',
    );
  });
});
