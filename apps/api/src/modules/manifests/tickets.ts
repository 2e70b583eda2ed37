import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import type { Jobs } from '../../lib/jobs';
import { confirmationPdf, ticketSource, ticketsPdf } from '../orders/tickets';
import { mailTickets } from '../order-mail/service';
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

/** Staff's "E-mail tickets": the confirmation e-mail again, with the order confirmation PDF (`mailTickets()`). */
export function sendTickets(ctx: TenantCtx, jobs: Jobs, orderId: string) {
  return mailTickets(ctx, jobs, orderId, { again: true });
}
