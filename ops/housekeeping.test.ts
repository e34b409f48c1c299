import { startTestStack, type TestStack } from './testing/harness';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs);
const keys = async (table: string, column: string) => (await stack.db(table).pluck(column)).sort();

it('the housekeeping ticker prunes expired sessions, rate-limit rows, idempotency keys and sign-in throttling rows, and keeps live ones', async () => {
  await stack.db('http_sessions').insert([
    { id: 'old-session', user_id: 'u1', expires_at: at(-60_000) },
    { id: 'live-session', user_id: 'u1', expires_at: at(24 * HOUR) },
  ]);
  await stack.db('rate_limits').insert([
    { key: 'old-window', count: 3, window_ends_at: at(-1_000) },
    { key: 'live-window', count: 3, window_ends_at: at(15 * 60_000) },
  ]);
  await stack.db('idempotency_keys').insert([
    { key: 'old-key', request_hash: 'h', status: 200, body: '{}', created_at: at(-25 * HOUR) },
    { key: 'live-key', request_hash: 'h', status: 200, body: '{}', created_at: at(-1 * HOUR) },
  ]);
  await stack.db('login_devices').insert([
    { token_hash: 'old-device', user_id: 'u1', expires_at: at(-1_000) },
    { token_hash: 'live-device', user_id: 'u1', expires_at: at(300 * 24 * HOUR) },
  ]);
  await stack.db('login_failures').insert([
    {
      key: 'old-failures',
      failed_attempts: 5,
      last_failure_at: at(-2 * HOUR),
      locked_until: at(-HOUR - 45 * 60_000),
      updated_at: at(-2 * HOUR),
    },
    {
      key: 'live-failures',
      failed_attempts: 5,
      last_failure_at: at(-60_000),
      locked_until: at(14 * 60_000),
      updated_at: at(-60_000),
    },
  ]);
  // A member signed in through the API keeps the session.
  const member = stack.agent();
  const email = `keep.${Date.now()}@example.com`;
  await member
    .post('/api/auth/register')
    .send({
      firstName: 'Kee',
      lastName: 'P',
      email,
      password: 'Passw0rdGood',
      confirmPassword: 'Passw0rdGood',
      paymentToken: `dev_tok_${Date.now()}`,
    })
    .expect(201);

  await stack.tickers.runOnce();

  expect(await keys('http_sessions', 'id')).toEqual(expect.arrayContaining(['live-session']));
  expect(await keys('http_sessions', 'id')).not.toContain('old-session');
  expect(await keys('rate_limits', 'key')).toEqual(expect.arrayContaining(['live-window']));
  expect(await keys('rate_limits', 'key')).not.toContain('old-window');
  expect(await keys('idempotency_keys', 'key')).toEqual(['live-key']);
  expect(await keys('login_devices', 'token_hash')).toEqual(expect.arrayContaining(['live-device']));
  expect(await keys('login_devices', 'token_hash')).not.toContain('old-device');
  expect(await keys('login_failures', 'key')).toEqual(['live-failures']);
  await member.get('/api/auth/user').expect(200);
});
