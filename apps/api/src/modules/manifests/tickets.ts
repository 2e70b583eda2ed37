import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import type { Jobs } from '../../lib/jobs';
import { recordAudit } from '../orders/order-basics';
import { confirmationPdf, ticketSource, ticketsPdf } from '../orders/tickets';
import { queueOrderMail } from '../order-mail/service';
import { renewManageSecret } from '../orders/web-order';
import * as q from './queries';

/**
 * Staff's copies of what the customer received: the tickets (drawn by orders/tickets.ts from the
 * same source as the confirmation e-mail's, so the codes and the PDF are the same), the order
 * confirmation, and sending both again through the order e-mail job.
 */

export async function orderTickets(ctx: TenantCtx, orderId: string) {
  const { tickets } = await ticketSource(ctx, orderId);
  return { name: `tickets-${tickets.reference}.pdf`, body: await ticketsPdf(tickets) };
}

export async function orderConfirmation(ctx: TenantCtx, orderId: string) {
  const { tickets } = await ticketSource(ctx, orderId);
  return { name: `confirmation-${tickets.reference}.pdf`, body: await confirmationPdf(tickets) };
}

/** One booking's page of its order's tickets; a cancelled booking has none (409). */
export async function bookingTicket(ctx: TenantCtx, bookingId: string) {
  const b = await q.bookingTicketOf(ctx, bookingId);
  if (!b) throw notFound('No booking with this id.');
  if (b.status === 'Canceled') throw new AppError('conflict', 'This booking is cancelled: it has no ticket.');
  const { tickets } = await ticketSource(ctx, b.order);
  return { name: `ticket-${b.code}.pdf`, body: await ticketsPdf({ ...tickets, bookings: tickets.bookings.filter((x) => x.id === bookingId) }) };
}

/**
 * Queues the confirmation e-mail again, with the tickets and the confirmation PDF, in this
 * transaction (the outbox: sent if and only if it commits), and writes it in the audit trail. A
 * web order's booking-page secret is only kept hashed, so a new one is made for the e-mail's link
 * (the link of earlier e-mails stops working). An order whose customer has no e-mail is a 400.
 */
export async function sendTickets(ctx: TenantCtx, jobs: Jobs, orderId: string) {
  const source = await ticketSource(ctx, orderId);
  const to = source.email.trim();
  if (!to) throw new AppError('invalid', 'This order’s customer has no e-mail address: add one to the customer first.', 'customer.email');
  if (source.tickets.bookings.every((b) => b.status === 'Canceled')) throw new AppError('conflict', 'Every booking of this order is cancelled: there are no tickets to send.');
  const manage = source.storeId ? await renewManageSecret(ctx, orderId) : undefined;
  await queueOrderMail(jobs, ctx.tx, { account: ctx.accountId, store: source.storeId, order: orderId, kind: 'confirmation', manage, resent: true, to, subject: 'Tickets sent again' });
  await recordAudit(ctx, { order: orderId, subject: 'order', subjectId: orderId, action: 'tickets e-mailed', changes: { to, tickets: source.tickets.bookings.filter((b) => b.status !== 'Canceled').length, ...(manage ? { booking_page_link: 'renewed' } : {}) } });
  return { to, detail: `The tickets and the order confirmation are on their way to ${to}.` };
}
