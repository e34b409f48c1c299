import { Writable } from 'node:stream';
import { createLogger } from '../../api/logger';
import { startLoopbackSmtp, type LoopbackSmtp } from '../../ops/testing/loopback-smtp';
import { EmailDeliveryError, SmtpEmailSender } from './smtp-email';

let smtp: LoopbackSmtp;
beforeAll(async () => {
  smtp = await startLoopbackSmtp();
});
afterAll(() => smtp.close());

const capture = () => {
  const lines: string[] = [];
  const destination = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  return { lines, logger: createLogger({ level: 'trace', destination }) };
};

const LINK = 'http://localhost:3000/reset-password?token=SeCrEtToKeN_1234567890abcdefghijklmnopqrstu';

describe('SMTP email adapter', () => {
  it('delivers the message to the SMTP server and logs only its kind', async () => {
    const { lines, logger } = capture();
    const sender = new SmtpEmailSender(smtp.url, logger, 'Lively <no-reply@lively.test>');
    await sender.send({
      to: 'ann@example.com',
      subject: 'Reset your Lively password',
      text: `Open ${LINK}`,
      kind: 'password-reset',
      link: LINK,
    });
    const mail = smtp.received.find((m) => m.to.includes('ann@example.com'));
    expect(mail).toMatchObject({ from: 'no-reply@lively.test', to: ['ann@example.com'] });
    expect(mail!.text).toContain(LINK);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ component: 'email', adapter: 'smtp', kind: 'password-reset', msg: 'email sent' }),
    ]);
    expect(lines.join('')).not.toMatch(/SeCrEtToKeN|ann@example\.com/);
  });

  it('fails a refused delivery with an error that does not quote the recipient', async () => {
    const { logger } = capture();
    const sender = new SmtpEmailSender(smtp.url, logger);
    const failure = await sender
      .send({ to: 'reject.bob@example.com', subject: 'Hi', text: `Open ${LINK}`, kind: 'password-reset', link: LINK })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EmailDeliveryError);
    const error = failure as Error;
    expect(error.message).toMatch(/^Could not deliver a password-reset email \(\w+ 550\)$/);
    expect(`${error.message}\n${error.stack}\n${JSON.stringify(error)}`).not.toMatch(/reject\.bob|SeCrEtToKeN/);
  });
});
