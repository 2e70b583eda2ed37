import type { TBooking } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import * as q from './queries/bookings';
import { asGiven } from './queries/customers';

const pickName = ({ email, first_name, last_name }: { email: string; first_name: string; last_name: string }) => ({ email, first_name, last_name });

/** Bookings read with their order, customer, slot and experience: one joined query per list. */

const presentBooking = ({ b, o, c, starts_at, title }: q.BookingRow): TBooking => ({
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
  discount: b.discount,
  currency: b.currency,
  customer: { id: c.id, ...pickName(asGiven(o, c)) },
  checked_in_at: b.checked_in_at?.toISOString() ?? null,
  created_at: b.created_at.toISOString(),
});

/** A page of bookings, newest start first, filtered in SQL. */
export async function pageBookings(ctx: TenantCtx, f: q.BookingListFilter, limit: number, offset: number) {
  return (await q.pageBookingRows(ctx, f, limit, offset)).map(presentBooking);
}

export const countBookingsWhere = q.countBookingsWhere;

/** The bookings of a slot, a local day or an order, by start. */
export async function listBookings(ctx: TenantCtx, filter: { slot?: string; date?: string; order?: string }) {
  return (await q.bookingRowsWhere(ctx, filter)).map(presentBooking);
}

export async function getBooking(ctx: TenantCtx, id: string) {
  const row = await q.bookingRowById(ctx, id);
  if (!row) throw notFound('No booking with this id.');
  return presentBooking(row);
}
