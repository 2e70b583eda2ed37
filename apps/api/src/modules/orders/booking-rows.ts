import { and, asc, eq, sql } from 'drizzle-orm';
import type { TBooking } from '@tourdesk/contracts';
import { booking, customer, experience, order, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';

/** Bookings read with their order, customer, slot and experience: one joined query per list. */

/** A booking with its order, customer, slot start and experience title: one query, joined. */
function selectBookings(ctx: TenantCtx) {
  return ctx.tx
    .select({ b: booking, o: order, c: customer, starts_at: slot.starts_at, title: experience.title })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id));
}

function bookingRows(ctx: TenantCtx, where: ReturnType<typeof and>) {
  return selectBookings(ctx).where(where).orderBy(asc(slot.starts_at), asc(booking.created_at));
}

const presentBooking = ({ b, o, c, starts_at, title }: Awaited<ReturnType<typeof bookingRows>>[number]): TBooking => ({
  id: b.id,
  order: o.id,
  order_reference: o.reference,
  experience: b.experience_id,
  experience_title: title,
  slot: b.slot_id,
  starts_at: starts_at.toISOString(),
  status: b.status as TBooking['status'],
  attendance: b.attendance as TBooking['attendance'],
  ticket_code: b.ticket_code,
  quantities: b.quantities,
  extras: b.extras,
  answers: b.answers,
  seats: b.seats,
  total: b.total,
  tax_rate_bp: b.tax_rate_bp,
  tax_rate_pending: b.tax_rate_pending,
  net: b.net,
  tax: b.tax,
  items: b.items,
  currency: b.currency,
  customer: { id: c.id, email: c.email, first_name: c.first_name, last_name: c.last_name },
  checked_in_at: b.checked_in_at?.toISOString() ?? null,
  created_at: b.created_at.toISOString(),
});

export interface BookingListFilter {
  status?: 'Confirmed' | 'In progress' | 'Canceled' | 'Completed';
  from?: string;
  to?: string;
  experience?: string;
  search?: string;
}

/** The spec's booking status filter: in progress and completed follow from the slot's times. */
function bookingListWhere(ctx: TenantCtx, f: BookingListFilter) {
  const term = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  const byStatus = {
    Confirmed: sql`${booking.status} = 'Confirmed' and ${slot.starts_at} > now()`,
    'In progress': sql`${booking.status} = 'Confirmed' and ${slot.starts_at} <= now() and ${slot.ends_at} > now()`,
    Completed: sql`${booking.status} = 'Confirmed' and ${slot.ends_at} <= now()`,
    Canceled: sql`${booking.status} = 'Canceled'`,
  } as const;
  return and(
    eq(booking.account_id, ctx.accountId),
    f.status ? byStatus[f.status] : undefined,
    f.from ? sql`${slot.local_date} >= ${f.from}` : undefined,
    f.to ? sql`${slot.local_date} <= ${f.to}` : undefined,
    f.experience ? eq(booking.experience_id, f.experience) : undefined,
    term
      ? sql`(${customer.email} ilike ${term} or ${customer.first_name} || ' ' || ${customer.last_name} ilike ${term} or ${order.reference} ilike ${term} or ${booking.ticket_code} ilike ${term})`
      : undefined,
  );
}

/** A page of bookings, newest start first, filtered in SQL. */
export async function pageBookings(ctx: TenantCtx, f: BookingListFilter, limit: number, offset: number) {
  const where = bookingListWhere(ctx, f);
  const rows = await selectBookings(ctx).where(where).orderBy(sql`${slot.starts_at} desc`, sql`${booking.id} desc`).limit(limit).offset(offset);
  return rows.map(presentBooking);
}

export async function countBookingsWhere(ctx: TenantCtx, f: BookingListFilter) {
  const [row] = await ctx.tx
    .select({ n: sql<number>`count(*)::int` })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .where(bookingListWhere(ctx, f));
  return Number(row?.n ?? 0);
}

export async function listBookings(ctx: TenantCtx, filter: { slot?: string; date?: string; order?: string }) {
  const rows = await bookingRows(
    ctx,
    and(
      eq(booking.account_id, ctx.accountId),
      filter.slot ? eq(booking.slot_id, filter.slot) : undefined,
      filter.date ? eq(slot.local_date, filter.date) : undefined,
      filter.order ? eq(booking.order_id, filter.order) : undefined,
    ),
  );
  return rows.map(presentBooking);
}

export async function getBooking(ctx: TenantCtx, id: string) {
  const [row] = await bookingRows(ctx, and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
  if (!row) throw notFound('No booking with this id.');
  return presentBooking(row);
}

