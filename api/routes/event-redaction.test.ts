import { Writable } from 'node:stream';
import type { EventPage } from '../../domain/contracts/system';
import type { RecordedEvent } from '../../domain/event-store/port';
import { exportEventLog } from '../../ops/commands/event-log';
import { readWholeLog } from '../../ops/testing/read-whole-log';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { eventually, person } from '../../ops/testing/payouts-fixtures';

jest.setTimeout(90_000);

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

const PRIVATE_TEXT = 'Meet me at the blue door, my number is private';
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A member made through the real flows: sign-up with a card, a reset request, a private message to `receiverId`. */
async function memberWithSecrets(receiverId: string) {
  const agent = stack.agent();
  const email = `ann.${unique()}@example.com`;
  const password = 'Passw0rdGood';
  const user = (
    await agent
      .post('/api/auth/register')
      .send({
        firstName: 'Ann',
        lastName: 'Lee',
        email,
        password,
        confirmPassword: password,
        paymentToken: `dev_tok_${unique()}`,
      })
      .expect(201)
  ).body.user;
  await stack.agent().post('/api/auth/reset-password-request').send({ email }).expect(200);
  const message = (await agent.post('/api/messages').send({ receiverId, content: PRIVATE_TEXT }).expect(201)).body;
  const log = await eventually(
    () => readWholeLog(stack.store),
    (events) =>
      events.some((e) => e.type === 'PasswordResetRequested' && (e.data as { userId: string }).userId === user.id),
    20_000,
  );
  return { userId: user.id as string, messageId: message.id as string, log };
}

/** The stored secrets of that member, straight from the event log. */
function secretsIn(log: RecordedEvent[], userId: string) {
  const of = (type: string) =>
    log
      .filter((e) => e.type === type && (e.data as { userId?: string }).userId === userId)
      .map((e) => e.data as Record<string, unknown>);
  const registered = of('UserRegistered')[0];
  const secrets = {
    passwordHash: registered.passwordHash as string,
    gatewayCustomerId: registered.gatewayCustomerId as string,
    tokenHash: of('PasswordResetRequested')[0].tokenHash as string,
    paymentCustomerId: of('PaymentCaptured')[0]?.gatewayCustomerId as string,
  };
  for (const value of Object.values(secrets)) expect(value).toEqual(expect.stringMatching(/.{6,}/)); // the flows really stored them
  return [...Object.values(secrets), PRIVATE_TEXT];
}

const leaks = (body: unknown, secrets: string[]) => secrets.filter((secret) => JSON.stringify(body).includes(secret));

describe('event views for staff hide secrets and private text; ops export keeps them', () => {
  it('masks password and reset token hashes, gateway customer ids and message text in the stream view and the event browser', async () => {
    const admin = await person(stack, 'admin');
    const { userId, messageId, log } = await memberWithSecrets(admin.userId);
    const secrets = secretsIn(log, userId);
    const paymentStream = log.find(
      (e) => e.type === 'PaymentCaptured' && (e.data as { userId: string }).userId === userId,
    )!.streamId;

    const userView = (await admin.agent.get(`/api/admin/streams/user-${userId}/events`).expect(200)).body;
    expect(leaks(userView, secrets)).toEqual([]);
    const registered = userView.events.find((e: { type: string }) => e.type === 'UserRegistered');
    expect(registered.data).toMatchObject({
      userId,
      firstName: 'Ann',
      passwordHash: '[REDACTED]',
      gatewayCustomerId: '[REDACTED]',
      cardLast4: expect.any(String),
    });
    expect(userView.events.find((e: { type: string }) => e.type === 'PasswordResetRequested').data).toMatchObject({
      tokenHash: '[REDACTED]',
      expiresAt: expect.any(String),
    });

    const messageView = (await admin.agent.get(`/api/admin/streams/message-${messageId}/events`).expect(200)).body;
    expect(messageView.events[0].data).toMatchObject({ messageId, senderId: userId, content: '[REDACTED]' });
    const paymentView = (await admin.agent.get(`/api/admin/streams/${paymentStream}/events`).expect(200)).body;
    expect(leaks(paymentView, secrets)).toEqual([]);
    expect(paymentView.events[0].data).toMatchObject({ amountCents: 199, gatewayCustomerId: '[REDACTED]' });

    // The `related` search runs on what is shown: it cannot confirm a hash's prefix.
    const tokenHash = secrets[2];
    const probe = (
      await admin.agent
        .get(`/api/admin/streams/user-${userId}/events`)
        .query({ related: tokenHash.slice(0, 12) })
        .expect(200)
    ).body;
    expect(probe.events).toEqual([]);

    const browsed: EventPage = (await admin.agent.get('/api/system/events').query({ limit: 200 }).expect(200)).body;
    expect(browsed.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['UserRegistered', 'PasswordResetRequested', 'MessageSent', 'PaymentCaptured']),
    );
    expect(leaks(browsed, secrets)).toEqual([]);
    for (const type of ['UserRegistered', 'PasswordResetRequested', 'MessageSent', 'PaymentCaptured']) {
      expect(leaks((await admin.agent.get('/api/system/events').query({ type }).expect(200)).body, secrets)).toEqual(
        [],
      );
    }

    // The engineers' full backup keeps every field.
    const chunks: string[] = [];
    await exportEventLog(
      stack.store,
      new Writable({ write: (chunk, _enc, done) => (chunks.push(String(chunk)), done()) }),
    );
    expect(secrets.filter((secret) => !chunks.join('').includes(secret))).toEqual([]);
  });

  it('masks secret-named fields of event types it does not know, at any depth, but keeps public ones', async () => {
    const admin = await person(stack, 'admin');
    const stream = `probe-${unique()}`;
    const data = {
      apiSecret: 'sek-1234567',
      nested: { refreshToken: 'rt-1234567', list: [{ customerId: 'cus-1234567' }] },
      amountCents: 5,
      note: 'visible',
    };
    await stack.store.append(
      stream,
      [{ type: 'SomethingNew', data, metadata: { actorId: 'ops', sessionToken: 'st-1234567' } }],
      { expectedRevision: 'no_stream' },
    );
    const view = (await admin.agent.get(`/api/admin/streams/${stream}/events`).expect(200)).body;
    expect(view.events[0].data).toEqual({
      apiSecret: '[REDACTED]',
      nested: { refreshToken: '[REDACTED]', list: [{ customerId: '[REDACTED]' }] },
      amountCents: 5,
      note: 'visible',
    });
    expect(view.events[0].metadata).toMatchObject({ actorId: 'ops', sessionToken: '[REDACTED]' });
    const browsed = (await admin.agent.get('/api/system/events').query({ stream }).expect(200)).body;
    expect(JSON.stringify(browsed)).not.toMatch(/sek-|rt-|cus-|st-1234567/);

    const completed = `cryptoTransaction-${unique()}`;
    await stack.store.append(
      completed,
      [
        {
          type: 'CryptoConversionCompleted',
          data: { transactionId: 't', transactionHash: '0xabc123', netCents: 1000 },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const conversion = (await admin.agent.get(`/api/admin/streams/${completed}/events`).expect(200)).body;
    expect(conversion.events[0].data).toMatchObject({ transactionHash: '0xabc123' });
  });
});
