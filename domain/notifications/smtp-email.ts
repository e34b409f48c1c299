import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { EmailMessage, EmailSender } from './email';

export const DEFAULT_FROM = 'Lively <no-reply@localhost>';

/**
 * A failed delivery, described without the server's reply: SMTP replies quote the recipient
 * ("550 <ann@example.com>: no such user"), and whoever catches this may log it.
 */
export class EmailDeliveryError extends Error {
  constructor(kind: string, code: string | undefined, responseCode: number | undefined) {
    super(
      `Could not deliver a ${kind} email (${[code, responseCode].filter((part) => part !== undefined).join(' ') || 'unknown error'})`,
    );
    this.name = 'EmailDeliveryError';
  }
}

/** Real delivery through an SMTP server (`SMTP_URL`, e.g. smtps://user:pass@mail.example.com). */
export class SmtpEmailSender implements EmailSender {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly logger: Logger,
    private readonly from = DEFAULT_FROM,
  ) {
    // nodemailer's own logger stays off: it would print envelopes (addresses) and message bodies.
    this.transport = nodemailer.createTransport(smtpUrl, { from });
  }

  async send(message: EmailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    } catch (error) {
      const e = error as { code?: string; responseCode?: number };
      throw new EmailDeliveryError(message.kind, e.code, e.responseCode);
    }
    this.logger.info({ component: 'email', adapter: 'smtp', kind: message.kind }, 'email sent');
  }

  close(): void {
    this.transport.close();
  }
}
