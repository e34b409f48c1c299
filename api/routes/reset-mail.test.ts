import { Writable } from 'node:stream';
import { createLogger } from '../logger';
import { eventually } from '../../ops/testing/eventually';
import { startTestStack, type TestStack } from '../../ops/testing/harness';
import { startLoopbackSmtp, type LoopbackSmtp } from '../../ops/testing/loopback-smtp';
import { person } from '../../ops/testing/payouts-fixtures';

jest.setTimeout(60_000);

/** Every line the whole stack logs while this file runs, at the most verbose level. */
const logLines: string[] = [];
const destination = new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) });

let smtp: LoopbackSmtp;
let stack: TestStack;
const previousSmtpUrl = process.env.SMTP_URL;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  process.env.SMTP_URL = smtp.url; // read by the composition root (ops/wiring.ts), as in production
  stack = await startTestStack({ logger: createLogger({ level: 'trace', destination }) });
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
  if (previousSmtpUrl === undefined) delete process.env.SMTP_URL;
  else process.env.SMTP_URL = previousSmtpUrl;
});

describe('password reset mail over SMTP (SMTP_URL set)', () => {
  it('delivers the link to the SMTP server, and no log line holds the token, the link or the address', async () => {
    const { userId } = await person(stack, 'member');
    const email = `member-${userId}@example.com`;
    await stack.agent().post('/api/auth/reset-password-request').send({ email }).expect(200);

    const delivered = await eventually(
      async () => smtp.received.filter((mail) => mail.to.includes(email)),
      (mails) => mails.length === 1,
      15_000,
    );
    expect(delivered).toHaveLength(1);
    const link = delivered[0].text.match(/http:\/\/\S+\/reset-password\?token=([A-Za-z0-9_-]{43})/);
    expect(link).not.toBeNull();
    expect(delivered[0].text).toContain('Subject: Reset your Lively password');
    // Nothing went to the development outbox: SMTP replaced it.
    expect(await stack.db('email_outbox').where({ to_address: email })).toEqual([]);

    const log = logLines.join('');
    expect(log).toContain('"path":"/api/auth/reset-password-request"'); // the flow was logged at all
    expect(log).toContain('"kind":"password-reset"');
    expect(log).not.toContain(link![1]); // the token
    expect(log).not.toContain(link![0]); // the link
    expect(log).not.toContain(email);
  });
});
