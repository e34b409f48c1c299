import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { newId } from '../shared/ids';
import type { EmailMessage, EmailSender } from './email';

/**
 * Development email: every message goes to the `email_outbox` table; nothing is delivered. A
 * developer follows a reset link with `npm run ops -- mail`. The log line names only the kind
 * and the outbox row: links carry live tokens and logs travel further than the database.
 */
export class DevelopmentEmailSender implements EmailSender {
  constructor(
    private readonly db: Knex,
    private readonly logger: Logger,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    const id = newId();
    await this.db('email_outbox').insert({
      id,
      to_address: message.to,
      subject: message.subject,
      body: message.text,
      kind: message.kind,
      link: message.link ?? null,
    });
    this.logger.info(
      { component: 'email', adapter: 'outbox', kind: message.kind, outboxId: id },
      'email written to the outbox: read it with `npm run ops -- mail`',
    );
  }

  async forgetRecipient(address: string): Promise<void> {
    await this.db('email_outbox').whereRaw('lower(to_address) = lower(?)', [address]).delete();
  }
}

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  body: string;
  kind: string;
  link: string | null;
  createdAt: Date;
}

/** The newest outbox messages first, optionally for one recipient (case-insensitive). */
export async function recentOutboxMail(db: Knex, options: { to?: string; limit: number }): Promise<OutboxMail[]> {
  const query = db('email_outbox').orderBy('created_at', 'desc').orderBy('id').limit(options.limit);
  if (options.to) query.whereRaw('lower(to_address) = ?', [options.to.trim().toLowerCase()]);
  const rows = await query;
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    body: row.body,
    kind: row.kind,
    link: row.link,
    createdAt: new Date(row.created_at),
  }));
}
