import type { Config } from '../../config';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import { recordAudit } from '../orders/order-basics';
import type { Db } from '../../db/client';
import { QUEUES, type Jobs } from '../../lib/jobs';
import type { Mail } from '../../lib/mailer';
import { notFound } from '../../lib/errors';
import { inTenant } from '../../lib/tenancy';
import { tenantOrigin } from '../../lib/host';
import { localDate, localWhen, mailMoney, translateFor, vatRate, type CustomerTranslate } from '../../lib/customer-text';
import type { TWebOrder } from '@tourdesk/contracts';
import { staffLanguage, staffTranslate } from '../../lib/staff-text';
import { bookingsIcs, confirmationPdf, ticketSource, ticketsPdf, type TicketOrder } from '../orders/tickets';
import { questionsOwed } from '../orders/answers';
import { manageUrlFor, presentWebOrder, renewManageSecret } from '../orders/web-order';
import { sellingLanguages } from '../organization/queries';
import { inStoreById, type WebCtx } from '../stores/scope';
import * as q from './queries';

/**
 * The e-mails of an order, each a job (lib/jobs.ts), queued in the transaction that causes it: the
 * customer's confirmation (the order, a ticket per booking as a PDF with its QR code, an .ics
 * calendar file, the private link of their booking page; sent again by staff with the order
 * confirmation), the organisation's new-booking note when the store asks for it, and the
 * customer's reminder the day before, and the customer's note that their order is cancelled (when
 * they cancel it on their booking page: what is refunded, what the policy keeps) and of each refund
 * staff record (the amount, and for a card that it goes back to it). The job composes
 * the message when it runs, so the queue keeps ids, never tickets. The web store, online payments and staff's copies queue them; the job
 * workers send them. This module has no routes and imports neither the web store nor payments.
 *
 * What goes to the customer is in the order's language (orders.language, translateFor() in
 * lib/customer-text.ts): the subject, the text, the dates and times (the offer's zone, the
 * organisation's 12/24-hour setting), the money and the attached tickets, confirmation and calendar
 * file. The store's new-booking note goes to the organisation's address, in its main language when
 * the back office speaks it, else English (lib/staff-text.ts).
 */
export interface OrderMailJob {
  /** The organisation (so its Owners see the job if it fails), the store and the order. */
  account: string;
  /** The store of a web order; null for an order sold in the back office (staff send its tickets). */
  store: string | null;
  order: string;
  kind: 'confirmation' | 'store-notification' | 'reminder' | 'cancellation' | 'refund' | 'answers' | 'payment-link' | 'balance-reminder';
  /** A refund's amount (positive) and how the money goes back (only the refund carries it). */
  refund?: { amount: number; method: string };
  /** The secret of the customer's booking page (only the confirmation carries it); the job stores it sealed. */
  manage?: string;
  /** A payment link's address (only the payment link carries it: payments/links.ts); the job stores it sealed. */
  pay?: string;
  /** Sent again by staff: the order confirmation as a PDF joins the tickets. */
  resent?: boolean;
  /** For a failed job's list: whom it was for and what. */
  to?: string;
  subject?: string;
}

/** An order e-mail as its job stores it: ids, and the booking page's secret sealed (lib/sealed.ts), never in the clear. */
export type StoredOrderMailJob = Omit<OrderMailJob, 'manage' | 'pay'> & { manage_sealed?: string; manage?: string; pay_sealed?: string };

export async function queueOrderMail(jobs: Jobs, tx: Db, job: OrderMailJob) {
  const { manage, pay, ...ids } = job;
  const stored: StoredOrderMailJob = { ...ids, ...(manage ? { manage_sealed: jobs.seal(manage) } : {}), ...(pay ? { pay_sealed: jobs.seal(pay) } : {}) };
  await jobs.sendIn(tx, QUEUES.orderMail, stored);
}

/**
 * Queues the customer's confirmation with their tickets and calendar file, in this transaction (the
 * outbox: sent if and only if it commits), and writes it in the audit trail: at a counter sale when
 * staff leave "E-mail the confirmation" ticked (`again: false`), or when staff send it again
 * (`again: true`: the order confirmation PDF joins). A web order's booking-page secret is only kept
 * hashed, so a new one is made for the e-mail's link (the link of earlier e-mails stops working). An
 * order whose customer has no e-mail is a 400; one whose bookings are all cancelled, a 409.
 */
export async function mailTickets(ctx: TenantCtx, jobs: Jobs, orderId: string, { again }: { again: boolean }) {
  const source = await ticketSource(ctx, orderId);
  const to = source.email.trim();
  if (!to) throw new AppError('invalid', 'This order’s customer has no e-mail address: add one to the customer first.', 'customer.email');
  if (source.tickets.bookings.every((b) => b.status === 'Canceled')) throw new AppError('conflict', 'Every booking of this order is cancelled: there are no tickets to send.');
  const manage = source.storeId ? await renewManageSecret(ctx, orderId) : undefined;
  await queueOrderMail(jobs, ctx.tx, { account: ctx.accountId, store: source.storeId, order: orderId, kind: 'confirmation', manage, resent: again, to, subject: again ? 'Tickets sent again' : 'Booking confirmation' });
  const tickets = source.tickets.bookings.filter((b) => b.status !== 'Canceled').length;
  await recordAudit(ctx, { order: orderId, subject: 'order', subjectId: orderId, action: again ? 'tickets e-mailed' : 'confirmation e-mailed', changes: { to, tickets, ...(manage ? { booking_page_link: 'renewed' } : {}) } });
  return { to, detail: again ? `The tickets and the order confirmation are on their way to ${to}.` : `The confirmation and the tickets are on their way to ${to}.` };
}

/** The job as composing needs it: the booking page's secret opened (a job queued before sealing carries it as it was). */
export function openOrderMail(jobs: Pick<Jobs, 'open'>, stored: StoredOrderMailJob): OrderMailJob {
  const { manage_sealed, pay_sealed, ...job } = stored;
  return { ...job, ...(manage_sealed ? { manage: jobs.open(manage_sealed) } : {}), ...(pay_sealed ? { pay: jobs.open(pay_sealed) } : {}) };
}

/** What composing needs: the organisation, and the store when the order was made in one. */
type MailCtx = Omit<WebCtx, 'store'> & { store: WebCtx['store'] | null };

/** The organisation's context for an order without a store. */
async function inOrganisation<T>(db: Db, accountId: string, fn: (ctx: MailCtx) => Promise<T>): Promise<T> {
  return inTenant(db, accountId, async (tx) => {
    const a = await q.organisationForMail(tx, accountId);
    if (!a) throw notFound('No organisation with this id.');
    return fn({ tx, accountId, currency: a.currency, store: null, timeZone: a.zone, subdomain: a.subdomain, organisation: a.name, partner: null });
  });
}

/** Each open booking of the order: its offer and local time, its items with their prices, its meeting point and ticket code. */
const lineText = (t: CustomerTranslate, o: Pick<TicketOrder, 'bookings' | 'currency' | 'time_format'>) =>
  o.bookings
    .filter((b) => b.status !== 'Canceled')
    .map((b) =>
      [
        `${b.offer_title}, ${localWhen(t, b.starts_at, b.time_zone, o.time_format)}`,
        ...b.items.map((i) => `  ${i.quantity} × ${i.label}  ${mailMoney(t, i.total ?? 0, o.currency)}`),
        ...(b.meeting_point ? [`  ${t('mail.line.meetingPoint', { place: b.meeting_point })}`] : []),
        `  ${t('mail.line.ticket', { code: b.ticket_code })}`,
      ].join('\n'),
    )
    .join('\n\n');

/** The promo code's discount as its own row, with its VAT per rate (nothing without a code). */
const discountText = (t: CustomerTranslate, d: TWebOrder['discount'], currency: string) =>
  d && d.amount > 0
    ? `${[t('mail.discount', { code: d.code, amount: mailMoney(t, d.amount, currency) }), ...d.taxes.map((x) => `  ${t('mail.discountVat', { rate: vatRate(t, x.vat_rate_bp), tax: mailMoney(t, x.tax, currency) })}`)].join('\n')}\n`
    : '';

/** Composes and sends one order e-mail; throws when the mail server refuses (the job retries). */
export async function sendOrderMail(db: Db, config: Config, send: (mail: Mail, id: string) => Promise<void>, job: OrderMailJob, jobId: string) {
  const compose = async (ctx: MailCtx): Promise<Mail> => {
    const shop = ctx.store;
    const storeUrl = shop ? `${tenantOrigin(config, ctx.subdomain)}/s/${shop.slug}/` : null;
    const o = await presentWebOrder(ctx, job.order, shop && job.manage ? manageUrlFor(config, { ...ctx, store: shop }, job.manage) : () => storeUrl ?? '');
    const link = shop && job.manage ? o.manage_url : null;
    const due = o.total - o.paid;
    // The tickets from the one source every ticket PDF is drawn from (orders/tickets.ts): the order's
    // language, its offers' titles and categories in it; the mail's lines read the same bookings.
    const source = await ticketSource(ctx, job.order);
    if (job.kind === 'store-notification') {
      // To the organisation's address, read by its team: in its main language when the back office has it, else English.
      const language = staffLanguage(null, await sellingLanguages(ctx.tx, { id: ctx.accountId }));
      const staff = staffTranslate(language);
      const words = translateFor(language);
      const where = { store: shop?.name ?? ctx.organisation };
      const intro = staff('storeNotification.intro', { customer: `${o.customer.first_name} ${o.customer.last_name}`, email: o.customer.email, ...where });
      return {
        to: shop?.notify_email ?? '',
        subject: staff('storeNotification.subject', { reference: o.reference, ...where }),
        text: `${intro}\n\n${lineText(words, { ...source.tickets, bookings: o.bookings })}\n\n${discountText(words, o.discount, o.currency)}${staff('storeNotification.total', { total: mailMoney(words, o.total, o.currency) })}`,
      } satisfies Mail;
    }
    const t = translateFor(source.tickets.language);
    const shown = source.tickets.bookings;
    const lines = lineText(t, source.tickets);
    const count = shown.filter((b) => b.status !== 'Canceled').length;
    const money = (n: number) => mailMoney(t, n, o.currency);
    const greeting = t('mail.greeting', { name: o.customer.first_name });
    const about = { reference: o.reference, organisation: ctx.organisation };
    if (job.kind === 'refund') {
      const refund = job.refund ?? { amount: 0, method: '' };
      return {
        to: o.customer.email,
        subject: t('mail.refund.subject', about),
        text: `${greeting}\n\n${t('mail.refund.body', { ...about, amount: money(refund.amount) })}${refund.method === 'online' ? ` ${t('mail.refund.card')}` : ''}\n`,
      } satisfies Mail;
    }
    if (job.kind === 'payment-link') {
      // Its address first (what the customer is asked to open), then the order; what is due is read when the job runs.
      return {
        to: due > 0 && job.pay ? o.customer.email : '',
        subject: t('mail.paymentLink.subject', about),
        text: `${greeting}\n\n${t('mail.paymentLink.intro', { ...about, due: money(due) })}\n\n${job.pay ?? ''}\n\n${t('mail.paymentLink.outro')}\n\n${lines}\n`,
      } satisfies Mail;
    }
    if (job.kind === 'balance-reminder') {
      // A deposit's balance due soon (payments/reminders.ts): nothing is sent when it was paid or cancelled meanwhile.
      const date = o.balance_due_on ? localDate(t, o.balance_due_on) : '';
      const dated = { ...about, date };
      return {
        to: due > 0 && job.pay && o.status !== 'Canceled' ? o.customer.email : '',
        subject: t('mail.balanceReminder.subject', dated),
        text: `${greeting}\n\n${t('mail.balanceReminder.intro', { ...dated, due: money(due) })}\n\n${job.pay ?? ''}\n\n${t('mail.paymentLink.outro')}\n\n${lines}\n`,
      } satisfies Mail;
    }
    if (job.kind === 'answers') {
      // What the booking still owes when the job runs (answered meanwhile: nothing is sent), in the order's language.
      const owed = await questionsOwed(ctx, job.order, source.tickets.language, (await sellingLanguages(ctx.tx, { id: ctx.accountId }))[0]);
      return {
        to: owed.length ? o.customer.email : '',
        subject: t('mail.answers.subject', about),
        text: `${greeting}\n\n${t('mail.answers.intro', about)}\n\n${owed.map((q) => `- ${q.question}`).join('\n')}\n\n${link ? t('mail.answers.link', { link }) : t('mail.answers.reply', about)}\n\n${lines}\n`,
      } satisfies Mail;
    }
    if (job.kind === 'cancellation') {
      // After the cancellation the order's total is what the policy keeps; what was paid beyond it goes back.
      const back = o.paid - o.total;
      const cancelled = shown.map((b) => `${b.offer_title}, ${localWhen(t, b.starts_at, b.time_zone, source.tickets.time_format)}`).join('\n');
      return {
        to: o.customer.email,
        subject: t('mail.cancellation.subject', about),
        text:
          `${greeting}\n\n${t('mail.cancellation.intro', about)}\n\n${cancelled}\n\n` +
          (back > 0 ? `${t('mail.cancellation.refund', { amount: money(back) })}\n` : '') +
          (o.total > 0 ? `${t('mail.cancellation.fee', { amount: money(o.total) })}\n` : '') +
          `${back > 0 || o.total > 0 ? '\n' : ''}${t('mail.cancellation.outro')}\n`,
      } satisfies Mail;
    }
    const attachments = [
      { filename: `tickets-${o.reference}.pdf`, content: Buffer.from(await ticketsPdf(source.tickets)), contentType: 'application/pdf' },
      { filename: `booking-${o.reference}.ics`, content: bookingsIcs(source.tickets, config.BASE_DOMAIN, (b) => source.durations.get(b.id) ?? null), contentType: 'text/calendar; charset=utf-8; method=PUBLISH' },
      ...(job.resent ? [{ filename: `confirmation-${o.reference}.pdf`, content: Buffer.from(await confirmationPdf(source.tickets)), contentType: 'application/pdf' }] : []),
    ];
    if (job.kind === 'reminder') {
      return {
        to: o.customer.email,
        subject: t('mail.reminder.subject', { title: shown.find((b) => b.status !== 'Canceled')?.offer_title ?? t('mail.reminder.yourBooking'), reference: o.reference }),
        text: `${greeting}\n\n${t('mail.reminder.intro', { organisation: ctx.organisation })}\n\n${lines}\n\n${due > 0 ? `${t('mail.reminder.due', { due: money(due) })}\n\n` : ''}${t('mail.reminder.outro', { count })}`,
        attachments,
      } satisfies Mail;
    }
    return {
      to: o.customer.email,
      subject: t('mail.confirmation.subject', about),
      text:
        `${greeting}\n\n${t(job.resent ? 'mail.confirmation.introAgain' : 'mail.confirmation.intro', about)}\n\n${lines}\n\n` +
        discountText(t, o.discount, o.currency) +
        (due > 0 && o.balance_due_on
          ? `${t('mail.totalDueBy', { total: money(o.total), paid: money(o.paid), due: money(due), date: localDate(t, o.balance_due_on) })}\n`
          : `${due > 0 ? t('mail.totalDue', { total: money(o.total), due: money(due) }) : t('mail.total', { total: money(o.total) })}\n`) +
        (due > 0 && job.pay ? `${t('mail.payRest', { link: job.pay })}\n` : '') +
        '\n' +
        `${t(job.resent ? 'mail.attachedAgain' : 'mail.attached', { count })}\n` +
        (link ? `${t('mail.manageLink', { link })}\n` : ''),
      attachments,
    } satisfies Mail;
  };
  const mail = job.store ? await inStoreById(db, job.account, job.store, compose) : await inOrganisation(db, job.account, compose);
  // A customer without an e-mail address (an order from before addresses were required) gets none.
  if (!mail.to) return;
  await send(mail, jobId);
}

/**
 * The reminders due: confirmed bookings with a customer that start within the next 24 hours (and
 * not within 2: too late to help), not reminded yet; one e-mail job per order, marked in the same
 * transaction so each is reminded once. Web orders only: their customers chose the store.
 */
export async function queueReminders(db: Db, jobs: Jobs) {
  const due = await q.ordersDueReminders(db);
  for (const r of due) {
    await q.inTransaction(db, async (tx) => {
      const marked = await q.markRemindersSent(tx, r.order_id);
      if (marked.length === 0) return;
      const email = await q.customerEmailOfOrder(tx, r.order_id);
      await queueOrderMail(jobs, tx, { account: r.account_id, store: r.store_id, order: r.order_id, kind: 'reminder', to: email, subject: 'Reminder' });
    });
  }
  return due.length;
}
