import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set. Otherwise each message is written to the log (subject, recipient
 * and, outside production, the body with its links, so a local user can follow them). A failure to send is logged and
 * never fails the request that caused it: the user can ask for the e-mail again.
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const from = config.MAIL_FROM ?? `Tourdesk <no-reply@${config.BASE_DOMAIN}>`;
  const transport: Transporter | null = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
  // In production a log is read by more people than the recipient: its one-time links never go there.
  const production = config.NODE_ENV === 'production';
  if (!transport && production) {
    log.warn('SMTP_URL is not set: e-mails are not sent (their recipient and subject are logged, never their links). Set SMTP_URL.');
  }
  return {
    async send(mail) {
      if (!transport) {
        log.info({ mail: { to: mail.to, subject: mail.subject, ...(production ? {} : { text: mail.text }) } }, `e-mail to ${mail.to}: ${mail.subject}`);
        return;
      }
      try {
        await transport.sendMail({ from, ...mail });
      } catch (err) {
        log.error({ err, to: mail.to, subject: mail.subject }, 'e-mail could not be sent');
      }
    },
    close() {
      transport?.close();
    },
  };
}
