import { recentOutboxMail, type OutboxMail } from '../../domain/notifications/dev-email';
import { parseArgs, type OpsCommand } from './command';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 500;

/** One message as a few terminal lines; the link on a line of its own so it can be clicked. */
export function renderMail(mail: OutboxMail, withBody: boolean): string {
  const lines = [`${mail.createdAt.toISOString()}  ${mail.kind}  to ${mail.to}`, `  Subject: ${mail.subject}`];
  if (mail.link) lines.push(`  Link:    ${mail.link}`);
  if (withBody) lines.push('', ...mail.body.split('\n').map((line) => `  | ${line}`));
  return lines.join('\n');
}

/**
 * The development outbox in the developer's terminal. Reset links are read here and never from
 * the log (a terminal is not a log line: it is not shipped or kept).
 */
export const mailCommand: OpsCommand = {
  name: 'mail',
  args: '[--to email] [--limit n] [--body]',
  summary: 'List the newest mail of the development outbox, with links (e.g. password resets)',
  help: `Without SMTP_URL, mail is not delivered but written to the outbox table; this lists the
newest messages first: time, kind, recipient, subject and link. --to keeps one recipient's
mail, --limit sets how many (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}), --body prints the text too.
Example: npm run ops -- mail --to ann@example.com --limit 1`,
  async run(args, context) {
    const { options } = parseArgs(args);
    const limit = options.limit === undefined ? DEFAULT_LIMIT : Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT || options.to === true) {
      context.out(`Usage: npm run ops -- mail [--to email] [--limit 1-${MAX_LIMIT}] [--body]`);
      return 2;
    }
    const { db } = await context.connect();
    const mails = await recentOutboxMail(db, { to: typeof options.to === 'string' ? options.to : undefined, limit });
    if (mails.length === 0) {
      context.out(
        `The outbox is empty${options.to ? ` for ${options.to}` : ''} (with SMTP_URL set, mail is delivered instead).`,
      );
      return 0;
    }
    context.out(mails.map((mail) => renderMail(mail, options.body === true)).join('\n\n'));
    return 0;
  },
};
