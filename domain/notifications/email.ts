/**
 * The email port. Side effects never run in projectors: commands' handlers send mail after
 * their events are written. The development adapter (dev-email.ts) writes an outbox row and a
 * log line instead of delivering.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** What kind of mail, for filtering the outbox (e.g. 'password-reset'). */
  kind: string;
  /** A link the mail carries (logged in development so it can be followed by hand). */
  link?: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}
