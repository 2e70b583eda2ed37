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
 * and body with its links) so a local user can follow them. A failure to send is logged and
 * never fails the request that caused it: the user can ask for the e-mail again.
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const from = config.MAIL_FROM ?? `Tourdesk <no-reply@${config.BASE_DOMAIN}>`;
  const transport: Transporter | null = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
  if (!transport && config.NODE_ENV === 'production') {
    log.warn('SMTP_URL is not set: e-mails (with their one-time links) go to the log. Set SMTP_URL in production.');
  }
  return {
    async send(mail) {
      if (!transport) {
        log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, `e-mail to ${mail.to}: ${mail.subject}`);
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
