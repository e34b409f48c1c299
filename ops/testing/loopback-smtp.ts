import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string | null;
  to: string[];
  /** The message as received, with quoted-printable soft breaks and escapes undone. */
  text: string;
}

export interface LoopbackSmtp {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/** Undoes quoted-printable (nodemailer uses it for long lines such as links): enough to search the text. */
const unquote = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * A real SMTP server on 127.0.0.1 for tests (plain SMTP, no TLS or AUTH). Recipients starting
 * with "reject" are refused with a reply quoting the address, as real servers do.
 */
export async function startLoopbackSmtp(): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!address.address.startsWith('reject')) return callback();
      const refusal = Object.assign(new Error(`<${address.address}>: Recipient address rejected: no such user`), {
        responseCode: 550,
      });
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
        received.push({
          from,
          to: session.envelope.rcptTo.map((r) => r.address),
          text: unquote(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
