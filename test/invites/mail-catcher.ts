// A real SMTP server in the test process (smtp-server), on a free loopback port: it keeps every message it accepts,
// parsed (mailparser), and refuses the recipients a test tells it to.
import { connect } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface MailCatcher {
  /** SMTP_URL for the service. */
  url: string;
  messages: ParsedMail[];
  /** The messages sent to this address (as mailparser reads the To header). */
  to(address: string): ParsedMail[];
  close(): Promise<void>;
}

export async function startMailCatcher(options: { refuse?: (recipient: string) => boolean } = {}): Promise<MailCatcher> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) {
        callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      } else callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) =>
      messages.filter((mail) => {
        const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
        return to.some((list) => list.value.some((entry) => entry.address?.toLowerCase() === address.toLowerCase()));
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * An SMTP_URL where nothing listens: the first port below 1024 that refuses a connection. The system never hands those
 * out for `listen(0)`, so no other test's server can take it meanwhile (an ephemeral port given back could be, and
 * then the mailer met a server that never greets).
 */
export async function closedSmtpUrl(): Promise<string> {
  for (let port = 1; port < 1024; port++) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return `smtp://127.0.0.1:${port}`;
  }
  throw new Error('Every port below 1024 answers on 127.0.0.1.');
}

/** The join link's secret in an invite's text. */
export function joinSecret(text: string | undefined): string {
  const secret = /\/join\/([A-Za-z0-9_-]{43})/.exec(text ?? '')?.[1];
  if (!secret) throw new Error(`No join link in: ${text}`);
  return secret;
}
