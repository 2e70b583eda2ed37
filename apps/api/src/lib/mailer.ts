import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { QUEUES, type Jobs } from './jobs';
import { emails } from './metrics';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files (tickets, a calendar entry): made by the job that sends the mail, never stored in the queue. */
  attachments?: { filename: string; content: Buffer | string; contentType: string }[];
}

/** An e-mail to queue: the organisation it belongs to (so its Owner sees it if it fails). */
export interface QueuedMail extends Mail {
  account?: string;
}

/**
 * An e-mail as its job stores it: whom it is for, its subject and organisation (the failed e-mails'
 * list shows them), and its text sealed (lib/sealed.ts): a one-time link, the name of whom it is
 * for, never readable in pg-boss's tables or their backups. Jobs queued before sealing carry `text`.
 */
export interface StoredMail {
  to: string;
  subject: string;
  account?: string;
  sealed?: string;
  text?: string;
  html?: string;
}

/** The message a stored e-mail job sends, its text opened with the server's key. */
export function openMail(jobs: Pick<Jobs, 'open'>, stored: StoredMail): Mail {
  const { to, subject } = stored;
  if (!stored.sealed) return { to, subject, text: stored.text ?? '', ...(stored.html ? { html: stored.html } : {}) };
  const body = JSON.parse(jobs.open(stored.sealed)) as { text: string; html?: string };
  return { to, subject, text: body.text, ...(body.html ? { html: body.html } : {}) };
}

export interface Mailer {
  /** Delivers one message now; throws when the SMTP server does not take it (the job retries). */
  send(mail: Mail, messageId?: string): Promise<void>;
  close(): void;
}

/**
 * E-mail goes out through a transactional outbox: `queueMail()` writes the message as a job in the
 * transaction of the change that causes it (lib/jobs.ts), and the e-mail worker delivers it with
 * `send()`. An SMTP server that is down delays mail (the job retries with backoff for hours) and
 * loses none; a message is sent once (its job is completed when the server took it; the timeouts
 * below end an attempt well before the job's own expiry, so no second attempt overlaps a first).
 * A retry after a crash between the hand-over and the job's completion keeps the same Message-ID,
 * by which mail systems recognise the same message.
 *
 * Without SMTP_URL each message is written to the log (subject, recipient and, outside production,
 * the body with its links, so a local user can follow them).
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const from = config.MAIL_FROM ?? `Tourdesk <no-reply@${config.BASE_DOMAIN}>`;
  const transport: Transporter | null = config.SMTP_URL
    ? nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
    : null;
  // In production a log is read by more people than the recipient: its one-time links never go there.
  const production = config.NODE_ENV === 'production';
  if (!transport && production) {
    log.warn('SMTP_URL is not set: e-mails are not sent (their recipient and subject are logged, never their links). Set SMTP_URL.');
  }
  return {
    async send(mail, messageId) {
      if (!transport) {
        const files = mail.attachments?.map((a) => a.filename);
        log.info({ mail: { to: mail.to, subject: mail.subject, ...(files?.length ? { attachments: files } : {}), ...(production ? {} : { text: mail.text }) } }, `e-mail to ${mail.to}: ${mail.subject}`);
        return;
      }
      await transport.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
        ...(messageId ? { messageId: `<${messageId}@${config.BASE_DOMAIN}>` } : {}),
      });
    },
    close() {
      transport?.close();
    },
  };
}

/** The mailer with each message counted as sent or failed (lib/metrics.ts). */
export function countedMailer(inner: Mailer): Mailer {
  return {
    async send(mail, messageId) {
      try {
        await inner.send(mail, messageId);
        emails.inc({ result: 'sent' });
      } catch (error) {
        emails.inc({ result: 'failed' });
        throw error;
      }
    },
    close: () => inner.close(),
  };
}

/**
 * Writes e-mails to send in the caller's transaction: sent once it commits, never if it rolls back;
 * retried EMAIL_RETRY_LIMIT times, the first after EMAIL_RETRY_DELAY_SECONDS, each wait doubling.
 * The job keeps whom and what (recipient, subject, organisation) in the clear and the text sealed;
 * attachments are never queued (the job that sends a message makes its files).
 */
export async function queueMail(jobs: Jobs, config: Config, tx: Db, mails: QueuedMail[]) {
  for (const { to, subject, account, text, html } of mails) {
    const stored: StoredMail = { to, subject, ...(account ? { account } : {}), sealed: jobs.seal(JSON.stringify({ text, ...(html ? { html } : {}) })) };
    await jobs.sendIn(tx, QUEUES.email, stored, { retryLimit: config.EMAIL_RETRY_LIMIT, retryDelay: config.EMAIL_RETRY_DELAY_SECONDS, retryBackoff: true });
  }
}
