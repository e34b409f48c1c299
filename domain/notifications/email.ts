/**
 * The email port. Side effects never run in projectors: commands' handlers send mail after
 * their events are written. Two adapters: SMTP (smtp-email.ts, when SMTP_URL is set) and the
 * development outbox (dev-email.ts), read with `npm run ops -- mail`.
 *
 * A message carries links with tokens and a recipient's address: neither adapter writes them
 * to a log line (DESIGN §11), only the kind of mail.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** What kind of mail, for filtering the outbox and for log lines (e.g. 'password-reset'). */
  kind: string;
  /** A link the mail carries (kept in the development outbox so it can be followed by hand). */
  link?: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
  /**
   * The account of `address` was deleted: mail kept for it is deleted (the development outbox);
   * mail already handed to a mail service is that service's to keep, so SMTP does nothing.
   */
  forgetRecipient?(address: string): Promise<void>;
}
