import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { booking, checkInScan, customer, experience, order, slot, users } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { givenCustomer } from '../orders/queries/customers';

/** The check-in module's only access to the database. */

/** The departures of a local day that have bookings, with how many have arrived: one aggregate. */
export function departuresOn(ctx: TenantCtx, date: string) {
  return ctx.tx
    .select({
      slot: slot.id,
      experience: slot.experience_id,
      experience_title: experience.title,
      starts_at: slot.starts_at,
      local_date: slot.local_date,
      local_time: slot.local_time,
      bookings: sql<number>`count(${booking.id})::int`,
      seats: sql<number>`coalesce(sum(${booking.seats}), 0)::int`,
      arrived_bookings: sql<number>`(count(${booking.id}) filter (where ${booking.attendance} = 'Arrived'))::int`,
      arrived_seats: sql<number>`coalesce(sum(${booking.seats}) filter (where ${booking.attendance} = 'Arrived'), 0)::int`,
    })
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .innerJoin(booking, and(eq(booking.account_id, slot.account_id), eq(booking.slot_id, slot.id), ne(booking.status, 'Canceled')))
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.local_date, date)))
    .groupBy(slot.id, experience.title)
    .orderBy(asc(slot.starts_at), asc(experience.title))
    .limit(500);
}

const checker = alias(users, 'checker');

/** A booking with what the door shows: its order, customer, slot, offer and who checked it in. */
function ticketRows(ctx: TenantCtx) {
  return ctx.tx
    .select({
      b: booking,
      reference: order.reference,
      order_id: order.id,
      order_total: order.total,
      order_paid: order.paid,
      payment_status: order.payment_status,
      notes: order.notes,
      // The details given with the order, over the customer's record.
      first_name: givenCustomer.first_name,
      last_name: givenCustomer.last_name,
      email: givenCustomer.email,
      phone: givenCustomer.phone,
      starts_at: slot.starts_at,
      local_date: slot.local_date,
      local_time: slot.local_time,
      title: experience.title,
      checker_first: checker.first_name,
      checker_last: checker.last_name,
      checker_email: checker.email,
    })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .leftJoin(checker, eq(checker.id, booking.checked_in_by));
}
export type TicketRow = Awaited<ReturnType<ReturnType<typeof ticketRows>['execute']>>[number];

const inSlots = (ctx: TenantCtx, slots: string[]) => and(eq(booking.account_id, ctx.accountId), inArray(booking.slot_id, slots));

/** A page of the tickets of some departures (every status: a cancelled ticket must say so offline). */
export function pageTickets(ctx: TenantCtx, slots: string[], limit: number, offset: number) {
  return ticketRows(ctx)
    .where(inSlots(ctx, slots))
    .orderBy(asc(slot.starts_at), asc(givenCustomer.last_name), asc(givenCustomer.first_name), asc(booking.id))
    .limit(limit)
    .offset(offset);
}

export async function countTickets(ctx: TenantCtx, slots: string[]) {
  const [row] = await ctx.tx.select({ n: sql<number>`count(*)::int` }).from(booking).where(inSlots(ctx, slots));
  return Number(row?.n ?? 0);
}

export function ticketsByIds(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ticketRows(ctx).where(and(eq(booking.account_id, ctx.accountId), inArray(booking.id, ids)));
}

/**
 * The bookings of the scanned codes, locked FOR UPDATE in id order for the rest of the transaction:
 * two devices' scans of one ticket are decided one after the other, and two batches never wait on
 * each other in a circle. With their slots' day and time, to tell a wrong day from a wrong departure.
 */
export function lockTickets(ctx: TenantCtx, codes: string[]) {
  if (codes.length === 0) return Promise.resolve([]);
  return ctx.tx
    .select({ b: booking, local_date: slot.local_date, local_time: slot.local_time, starts_at: slot.starts_at })
    .from(booking)
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .where(and(eq(booking.account_id, ctx.accountId), inArray(booking.ticket_code, codes)))
    .orderBy(asc(booking.id))
    .for('update', { of: booking });
}
export type LockedTicket = Awaited<ReturnType<typeof lockTickets>>[number];

/** Scans already received, by the device's scan id (a batch sent again). */
export function scansByIds(ctx: TenantCtx, scanIds: string[]) {
  return ctx.tx.select().from(checkInScan).where(and(eq(checkInScan.account_id, ctx.accountId), inArray(checkInScan.scan_id, scanIds)));
}

/** Records a scan once: a second insert of the same scan id (a concurrent resend) does nothing. */
export async function insertScan(ctx: TenantCtx, row: Omit<typeof checkInScan.$inferInsert, 'account_id'>) {
  const inserted = await ctx.tx
    .insert(checkInScan)
    .values({ ...row, account_id: ctx.accountId })
    .onConflictDoNothing({ target: [checkInScan.account_id, checkInScan.scan_id] })
    .returning({ id: checkInScan.id });
  return inserted.length > 0;
}

/** The earlier admitting scans of a booking become "already checked in" when an earlier scan arrives late. */
export function supersedeAdmissions(ctx: TenantCtx, bookingId: string, before: Date) {
  return ctx.tx
    .update(checkInScan)
    .set({ result: 'already_checked_in' })
    .where(and(eq(checkInScan.account_id, ctx.accountId), eq(checkInScan.booking_id, bookingId), eq(checkInScan.result, 'admitted'), sql`${checkInScan.scanned_at} > ${before.toISOString()}`));
}

export function markArrived(ctx: TenantCtx, id: string, at: Date, by: string | null, device: string) {
  return ctx.tx.update(booking).set({ attendance: 'Arrived', checked_in_at: at, checked_in_by: by, checked_in_device: device, updated_at: new Date() }).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
}

export function markOpen(ctx: TenantCtx, id: string) {
  return ctx.tx.update(booking).set({ attendance: 'Open', checked_in_at: null, checked_in_by: null, checked_in_device: null, updated_at: new Date() }).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
}

export async function lockBooking(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id))).for('update');
  return row;
}

export async function userName(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select({ first_name: users.first_name, last_name: users.last_name, email: users.email }).from(users).where(and(eq(users.account_id, ctx.accountId), eq(users.id, id)));
  return row;
}
