import { and, eq, isNull, sql } from 'drizzle-orm';
import { formatMoney } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { booking, customer, experience, order, slot } from '../../db/schema';
import { QUEUES, type Jobs } from '../../lib/jobs';
import type { Mail } from '../../lib/mailer';
import { bookingsIcs, localWhen, ticketsPdf, type TicketOrder } from '../orders/tickets';
import { tenantOrigin } from '../../lib/host';
import { inStoreById, manageUrlFor, presentWebOrder, type WebCtx } from './service';

/**
 * The e-mails of a web order, each a job (lib/jobs.ts), queued in the transaction that makes the
 * order: the customer's confirmation (the order, a ticket per booking as a PDF with its QR code,
 * an .ics calendar file, the private link of their booking page), the organisation's new-booking
 * note when the store asks for it, and the customer's reminder the day before. The job composes
 * the message when it runs, so the queue keeps ids, never tickets.
 */
export interface OrderMailJob {
  /** The organisation (so its Owners see the job if it fails), the store and the order. */
  account: string;
  store: string;
  order: string;
  kind: 'confirmation' | 'store-notification' | 'reminder';
  /** The secret of the customer's booking page (only the confirmation carries it). */
  manage?: string;
  /** For a failed job's list: whom it was for and what. */
  to?: string;
  subject?: string;
}

export async function queueOrderMail(jobs: Jobs, tx: Db, job: OrderMailJob) {
  await jobs.sendIn(tx, QUEUES.orderMail, job);
}

function ticketOrder(ctx: WebCtx, o: Awaited<ReturnType<typeof presentWebOrder>>): TicketOrder {
  return {
    reference: o.reference,
    organisation: ctx.organisation,
    customer: o.customer,
    currency: o.currency,
    total: o.total,
    paid: o.paid,
    bookings: o.bookings.map((b) => ({ ...b })),
  };
}

const lineText = (o: Awaited<ReturnType<typeof presentWebOrder>>) =>
  o.bookings
    .filter((b) => b.status !== 'Canceled')
    .map((b) => [`${b.offer_title}, ${localWhen(b.starts_at, b.time_zone)}`, ...b.items.map((i) => `  ${i.quantity} × ${i.label}  ${formatMoney(i.total, o.currency)}`), ...(b.meeting_point ? [`  Meeting point: ${b.meeting_point}`] : []), `  Ticket: ${b.ticket_code}`].join('\n'))
    .join('\n\n');

/** Composes and sends one order e-mail; throws when the mail server refuses (the job retries). */
export async function sendOrderMail(db: Db, config: Config, send: (mail: Mail, id: string) => Promise<void>, job: OrderMailJob, jobId: string) {
  const mail = await inStoreById(db, job.account, job.store, async (ctx) => {
    const storeUrl = `${tenantOrigin(config, ctx.subdomain)}/s/${ctx.store.slug}/`;
    const o = await presentWebOrder(ctx, job.order, job.manage ? manageUrlFor(config, ctx, job.manage) : () => storeUrl);
    const link = o.manage_url;
    const due = o.total - o.paid;
    if (job.kind === 'store-notification') {
      return {
        to: ctx.store.notify_email,
        subject: `New booking ${o.reference} in ${ctx.store.name}`,
        text: `${o.customer.first_name} ${o.customer.last_name} (${o.customer.email}) booked in ${ctx.store.name}:\n\n${lineText(o)}\n\nTotal ${formatMoney(o.total, o.currency)}.`,
      } satisfies Mail;
    }
    const durations = new Map(
      (await ctx.tx.select({ id: booking.id, minutes: experience.duration_minutes }).from(booking).innerJoin(experience, eq(experience.id, booking.experience_id)).where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, job.order)))).map((r) => [r.id, r.minutes]),
    );
    const tickets = ticketOrder(ctx, o);
    const attachments = [
      { filename: `tickets-${o.reference}.pdf`, content: Buffer.from(await ticketsPdf(tickets)), contentType: 'application/pdf' },
      { filename: `booking-${o.reference}.ics`, content: bookingsIcs(tickets, config.BASE_DOMAIN, (b) => durations.get(b.id) ?? null), contentType: 'text/calendar; charset=utf-8; method=PUBLISH' },
    ];
    if (job.kind === 'reminder') {
      return {
        to: o.customer.email,
        subject: `Tomorrow: ${o.bookings.find((b) => b.status !== 'Canceled')?.offer_title ?? 'your booking'} (${o.reference})`,
        text: `Hello ${o.customer.first_name},\n\nA reminder of your booking with ${ctx.organisation}:\n\n${lineText(o)}\n\n${due > 0 ? `To pay on site: ${formatMoney(due, o.currency)}.\n\n` : ''}Your tickets are attached. See you there!`,
        attachments,
      } satisfies Mail;
    }
    return {
      to: o.customer.email,
      subject: `Your booking ${o.reference} with ${ctx.organisation}`,
      text:
        `Hello ${o.customer.first_name},\n\nthank you for booking with ${ctx.organisation}. Your order ${o.reference}:\n\n${lineText(o)}\n\n` +
        `Total ${formatMoney(o.total, o.currency)}${due > 0 ? `, to pay on site: ${formatMoney(due, o.currency)}` : ''}.\n\n` +
        `Your tickets (one QR code per booking) and a calendar entry are attached.\n` +
        `See your booking, download your tickets or cancel it: ${link}\n`,
      attachments,
    } satisfies Mail;
  });
  await send(mail, jobId);
}

/**
 * The reminders due: confirmed bookings with a customer that start within the next 24 hours (and
 * not within 2: too late to help), not reminded yet; one e-mail job per order, marked in the same
 * transaction so each is reminded once. Web orders only: their customers chose the store.
 */
export async function queueReminders(db: Db, jobs: Jobs) {
  const due = (await db.execute(sql`
    select distinct o.account_id, o.store_id, o.id as order_id
    from ${booking} b join ${slot} s on s.id = b.slot_id join ${order} o on o.id = b.order_id
    where b.status = 'Confirmed' and b.reminder_sent_at is null and o.store_id is not null
      and s.starts_at > now() + interval '2 hours' and s.starts_at <= now() + interval '24 hours'
    limit 500`)) as unknown as { rows: { account_id: string; store_id: string; order_id: string }[] };
  for (const r of due.rows) {
    await db.transaction(async (tx) => {
      const marked = await tx
        .update(booking)
        .set({ reminder_sent_at: new Date() })
        .where(and(eq(booking.order_id, r.order_id), isNull(booking.reminder_sent_at), eq(booking.status, 'Confirmed')))
        .returning({ id: booking.id });
      if (marked.length === 0) return;
      const [c] = await tx.select({ email: customer.email }).from(order).innerJoin(customer, eq(customer.id, order.customer_id)).where(eq(order.id, r.order_id));
      await queueOrderMail(jobs, tx as unknown as Db, { account: r.account_id, store: r.store_id, order: r.order_id, kind: 'reminder', to: c?.email, subject: 'Reminder' });
    });
  }
  return due.rows.length;
}
