import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../logger';
import { redactEventData, REDACTED } from '../http/event-redaction';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { eventually } from '../../ops/testing/eventually';
import { earn, person, ready } from '../../ops/testing/payouts-fixtures';
import { secretOf, totpCode, turnOnTwoFactor } from '../../ops/testing/two-factor';

jest.setTimeout(120_000);

const PASSWORD = 'Secret123';
const STEP_MS = 30_000;
const logLines: string[] = [];
const destination = new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) });

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ logger: createLogger({ level: 'trace', destination }) });
  await ready(stack);
});
afterAll(() => stack?.close());

/** A member signed up through the API (a real password), with the agent that signed up. */
async function member() {
  const email = `tf-${randomUUID()}@example.com`;
  const agent = stack.agent();
  const res = await agent
    .post('/api/auth/register')
    .send({
      firstName: 'Tia',
      lastName: 'Factor',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      paymentToken: `dev_tok_${randomUUID()}`,
    })
    .expect(201);
  return { email, agent, userId: res.body.user.id as string };
}

/**
 * Setup and enable on `agent`, the enabling code one step back (so the current one is still free).
 * Sent early in a step: a code one step back sent as the step turns would arrive two steps old.
 */
async function enable(agent: ReturnType<TestStack['agent']>) {
  const setup = await agent.post('/api/auth/2fa/setup').expect(200);
  const secret = secretOf(setup.body.otpauthUrl);
  const intoStep = Date.now() % STEP_MS;
  if (intoStep > STEP_MS - 10_000) await new Promise((resolve) => setTimeout(resolve, STEP_MS - intoStep + 100));
  const res = await agent
    .post('/api/auth/2fa/enable')
    .send({ code: await totpCode(secret, new Date(Date.now() - STEP_MS)) })
    .expect(200);
  return { secret, recoveryCodes: res.body.recoveryCodes as string[] };
}

const mailsTo = (email: string) => stack.db('email_outbox').where({ to_address: email, kind: 'new-device-sign-in' });

describe('two-factor authentication', () => {
  it('sets up (a re-setup replaces the pending secret), enables with a code of it, and disables with a recovery code', async () => {
    const { agent, userId } = await member();
    expect((await agent.get('/api/auth/2fa').expect(200)).body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const first = await agent.post('/api/auth/2fa/setup').expect(200);
    expect(first.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Lively:.+\?.*secret=[A-Z2-7]+/);
    expect(first.body.qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const second = await agent.post('/api/auth/2fa/setup').expect(200);
    const [oldSecret, secret] = [secretOf(first.body.otpauthUrl), secretOf(second.body.otpauthUrl)];
    expect(secret).not.toBe(oldSecret);

    const refused = await agent
      .post('/api/auth/2fa/enable')
      .send({ code: await totpCode(oldSecret) })
      .expect(400);
    expect(refused.body).toMatchObject({ error: 'Invalid authentication code', code: 'VALIDATION_ERROR' });
    const enabled = await agent
      .post('/api/auth/2fa/enable')
      .send({ code: await totpCode(secret) })
      .expect(200);
    const codes: string[] = enabled.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    codes.forEach((code) => expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/));
    expect((await agent.get('/api/auth/2fa').expect(200)).body).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    await agent.post('/api/auth/2fa/setup').expect(409);

    // The log holds the secret sealed and the codes as digests; the staff view masks both.
    const events = await stack.store.readStream(`user-${userId}`);
    const stored = JSON.stringify(events.map((event) => event.data));
    expect(stored).not.toContain(secret);
    codes.forEach((code) => expect(stored).not.toContain(code));
    const setupEvent = events.find((event) => event.type === 'TwoFactorSetupStarted')!;
    expect(redactEventData(setupEvent.type, setupEvent.data)).toMatchObject({ sealedSecret: REDACTED });
    const enabledEvent = events.find((event) => event.type === 'TwoFactorEnabled')!;
    expect(redactEventData(enabledEvent.type, enabledEvent.data)).toMatchObject({ recoveryCodeHashes: REDACTED });

    await agent.post('/api/auth/2fa/disable').send({ code: '000000' }).expect(400);
    await agent.post('/api/auth/2fa/disable').send({ code: '' }).expect(400);
    const disabled = await agent.post('/api/auth/2fa/disable').send({ code: codes[3].toUpperCase() }).expect(200);
    expect(disabled.body).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(logLines.some((line) => line.includes(secret) || codes.some((code) => line.includes(code)))).toBe(false);
  });

  it('asks for the code after the password, refuses a wrong or replayed code, and takes each recovery code once', async () => {
    const { email, agent: owner } = await member();
    const { secret, recoveryCodes } = await enable(owner);
    const login = async () => {
      const agent = stack.agent();
      const res = await agent.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200);
      expect(res.body).toEqual({ twoFactorRequired: true });
      await agent.get('/api/auth/user').expect(401); // no session yet
      return agent;
    };

    const first = await login();
    const wrong = await first.post('/api/auth/login/2fa').send({ code: '123456' }).expect(400);
    expect(wrong.body.error).toBe('Invalid authentication code');
    const code = await totpCode(secret);
    const signedIn = await first.post('/api/auth/login/2fa').send({ code }).expect(200);
    expect(signedIn.body.user.email).toBe(email);
    expect((await first.get('/api/auth/user').expect(200)).body.email).toBe(email);
    await first.post('/api/auth/login/2fa').send({ code }).expect(401); // the pending sign-in is over

    const replay = await (await login()).post('/api/auth/login/2fa').send({ code }).expect(400);
    expect(replay.body.error).toBe('This code was already used. Wait for the next one.');

    const third = await login();
    await third.post('/api/auth/login/2fa').send({ code: recoveryCodes[0] }).expect(200);
    await third.get('/api/auth/user').expect(200);
    await (await login()).post('/api/auth/login/2fa').send({ code: recoveryCodes[0] }).expect(400);
    expect((await owner.get('/api/auth/2fa').expect(200)).body).toEqual({ enabled: true, recoveryCodesLeft: 9 });
  });

  it('allows 5 codes per pending sign-in, then the password again; without one the step is refused', async () => {
    const { email, agent: owner } = await member();
    const { secret } = await enable(owner);
    await stack.agent().post('/api/auth/login/2fa').send({ code: '123456' }).expect(401);
    const agent = stack.agent();
    await agent.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200);
    for (let attempt = 1; attempt <= 5; attempt++)
      await agent.post('/api/auth/login/2fa').send({ code: '000000' }).expect(400);
    const limited = await agent
      .post('/api/auth/login/2fa')
      .send({ code: await totpCode(secret) })
      .expect(429);
    expect(limited.body).toMatchObject({ error: 'Too many wrong codes. Please sign in again.', code: 'RATE_LIMITED' });
    const expired = await agent
      .post('/api/auth/login/2fa')
      .send({ code: await totpCode(secret) })
      .expect(401);
    expect(expired.body).toMatchObject({
      error: 'Your sign-in expired. Please sign in again.',
      code: 'SIGN_IN_EXPIRED',
    });
    await agent.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200);
    await agent
      .post('/api/auth/login/2fa')
      .send({ code: await totpCode(secret) })
      .expect(200);
  });

  it('refuses a creator without two-factor a payment account and a payout, and allows them once it is on', async () => {
    const creator = await person(stack, 'creator', { twoFactor: false });
    await earn(stack, creator.userId, 2000, 10);
    const bank = { accountHolderName: 'Cleo Creator' }; // a Stripe account: verified at once
    const refused = await creator.agent.post('/api/payment-accounts').send(bank).expect(403);
    expect(refused.body).toMatchObject({
      error: 'Turn on two-factor authentication to add a payment account',
      code: 'TWO_FACTOR_REQUIRED',
    });
    const payout = await creator.agent
      .post('/api/payouts')
      .send({ paymentAccountId: randomUUID(), amount: '18.00' })
      .expect(403);
    expect(payout.body.error).toBe('Turn on two-factor authentication to request a payout');

    await turnOnTwoFactor(stack, creator.userId);
    const account = (await creator.agent.post('/api/payment-accounts').send(bank).expect(201)).body;
    await eventually(
      () => creator.agent.get(`/api/payouts/${creator.userId}/dashboard`),
      (res) => res.body.availableBalance === '18.00',
    );
    await creator.agent.post('/api/payouts').send({ paymentAccountId: account.id, amount: '18.00' }).expect(201);
  });

  it('emails the owner once per new device, after the password alone or the second factor', async () => {
    const { email, agent: signUpDevice } = await member();
    await signUpDevice.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200); // known device
    const phone = stack.agent();
    await phone.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200);
    await phone.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200); // known now
    const mails = await eventually(
      () => mailsTo(email),
      (rows) => rows.length === 1,
    );
    expect(mails[0].subject).toBe('New sign-in to your Lively account');
    expect(mails[0].body).toContain('from a new device');

    const { secret } = await enable(signUpDevice);
    const laptop = stack.agent();
    await laptop.post('/api/auth/login').send({ email, password: PASSWORD }).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mailsTo(email)).toHaveLength(1); // the password alone opens nothing, so no mail yet
    await laptop
      .post('/api/auth/login/2fa')
      .send({ code: await totpCode(secret) })
      .expect(200);
    await eventually(
      () => mailsTo(email),
      (rows) => rows.length === 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await mailsTo(email)).toHaveLength(2);
    expect(logLines.some((line) => line.includes(email))).toBe(false);
  });
});
