import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { MAIL_FORMAT, QUEUES, type Jobs } from './jobs';
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
 * An e-mail whose one-time link is made when it is sent: its job keeps the kind and ids only (a
 * user, an invitation, a language), and the module that knows the kind mints the token and writes
 * the text in the worker (users/link-mails.ts, partners' invitation). Nothing in the queue's tables
 * or their backups can be followed, whoever holds the key.
 */
export type MailLink = { kind: string } & Record<string, string>;

/** An e-mail to queue whose link is made when it is sent: whom for, its subject, organisation and link's kind and ids. */
export interface QueuedLinkMail {
  to: string;
  subject: string;
  account?: string;
  link: MailLink;
}

/**
 * An e-mail as its job stores it: whom it is for, its subject and organisation (the failed e-mails'
 * list shows them), and either the kind and ids its link is made from when it is sent (`link`) or,
 * for a message with no secret to mint (a notice that a password changed), its text sealed
 * (lib/sealed.ts): the name of whom it is for is never readable in pg-boss's tables. Jobs of the old
 * format (no `v`) carry a sealed text with its one-time link, or before that the text itself
 * (`text`): the latter is never sent, and the migration run forgets them once sent or failed, and
 * any in the clear (`forgetOldMailJobs()` in lib/jobs.ts).
 */
export interface StoredMail {
  v?: typeof MAIL_FORMAT;
  to: string;
  subject: string;
  account?: string;
  link?: MailLink;
  sealed?: string;
  text?: string;
  html?: string;
}

/** Makes the message of a link's e-mail when it is sent (mints its token), or null when there is nothing to send any more (its user or invitation is gone). */
export type ComposeLinkMail = (to: string, link: MailLink) => Promise<Mail | null>;

/**
 * The message a stored e-mail job sends: its link made now, or its text opened with the server's
 * key; null when it is not to be sent (its link's user is gone; a job of the oldest format, whose
 * text was stored in the clear, is refused).
 */
export async function mailToSend(jobs: Pick<Jobs, 'open'>, stored: StoredMail, compose: ComposeLinkMail): Promise<Mail | null> {
  const { to, subject } = stored;
  if (stored.link) return compose(to, stored.link);
  if (!stored.sealed) return null;
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
 * The job keeps whom and what (recipient, subject, organisation) in the clear; an e-mail with a
 * one-time link keeps its link's kind and ids (made when sent), any other its text sealed;
 * attachments are never queued (the job that sends a message makes its files).
 */
export async function queueMail(jobs: Jobs, config: Config, tx: Db, mails: (QueuedMail | QueuedLinkMail)[]) {
  for (const mail of mails) {
    const { to, subject, account } = mail;
    const stored: StoredMail = {
      v: MAIL_FORMAT,
      to,
      subject,
      ...(account ? { account } : {}),
      ...('link' in mail ? { link: mail.link } : { sealed: jobs.seal(JSON.stringify({ text: mail.text, ...(mail.html ? { html: mail.html } : {}) })) }),
    };
    await jobs.sendIn(tx, QUEUES.email, stored, { retryLimit: config.EMAIL_RETRY_LIMIT, retryDelay: config.EMAIL_RETRY_DELAY_SECONDS, retryBackoff: true });
  }
}
