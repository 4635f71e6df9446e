// Outgoing e-mail (nodemailer): to SMTP_URL when it is set; otherwise each message is written to the log, so that a
// try-out instance without a mail server still shows the links it would have sent.
import type { Transporter } from 'nodemailer';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Sends one message; rejects when the server refuses it or does not answer in time. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** How long a step of an SMTP conversation may take before the message counts as failed. */
const SMTP_TIMEOUT_MS = 10_000;

export function createMailer(config: Config['mail'], logger: Logger): Mailer {
  if (!config.smtpUrl) {
    return {
      send: async (mail) => logger.info({ mail }, 'e-mail not sent (SMTP_URL is unset); its text follows'),
      close: () => {},
    };
  }
  const url = new URL(config.smtpUrl);
  // nodemailer is loaded by the first message, not at start-up.
  let transporter: Promise<Transporter> | undefined;
  const transport = () =>
    (transporter ??= import('nodemailer').then(({ createTransport }) =>
      createTransport(
        {
          host: url.hostname,
          port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
          secure: url.protocol === 'smtps:',
          auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        },
        { from: config.from },
      ),
    ));
  return {
    send: async (mail) => {
      await (await transport()).sendMail(mail);
    },
    close: () => {
      void transporter?.then((created) => created.close());
    },
  };
}
