import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { newId } from '../shared/ids';
import type { EmailMessage, EmailSender } from './email';

/**
 * Development email: every message goes to the `email_outbox` table and the log (with its
 * link, so a reset can be followed by hand). Nothing is delivered.
 */
export class DevelopmentEmailSender implements EmailSender {
  constructor(private readonly db: Knex, private readonly logger: Logger) {}

  async send(message: EmailMessage): Promise<void> {
    await this.db('email_outbox').insert({
      id: newId(),
      to_address: message.to,
      subject: message.subject,
      body: message.text,
      kind: message.kind,
      link: message.link ?? null,
    });
    this.logger.info({ component: 'email', to: message.to, subject: message.subject, kind: message.kind, link: message.link }, 'email written to the outbox (development adapter)');
  }
}
