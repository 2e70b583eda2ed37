import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TCustomerDetails } from '@tourdesk/contracts';
import { booking, cartLine, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { accountSettings, lockSlot, type SlotRow } from '../availability/slots';
import { getBooking } from './booking-rows';
import { checkAnswers, lockOrder, presentOrder, recomputeOrder, recordAudit, writeOrder } from './records';

/**
 * Bookings: a cart checked out into an order, a booking cancelled, attendance and check-in.
 * The orders module uses the availability module (slots, their locks, carts), never the reverse.
 */

/**
 * Turns every held line of a cart into bookings, all or none, in one transaction. The slots are
 * locked first, in id order (no deadlock between two checkouts, nor with the sweep, which locks a
 * slot before its lines); then the lines read are deleted and only those that were still there
 * are booked — a second checkout of the same cart, a release or a sweep in between takes them
 * away, and their seats are never booked twice. A line still in the cart still holds its seats,
 * expired or not (they count in slot.held until deleted); a slot closed since the hold refuses.
 */
export async function checkout(
  ctx: TenantCtx,
  cartId: string,
  userId: string,
  input: { customer: TCustomerDetails; answers: Record<string, string> },
) {
  const empty = () => new AppError('invalid', 'The cart is empty: nothing is held (a hold that ran out was released).');
  const read = await ctx.tx.select().from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId)));
  if (read.length === 0) throw empty();
  const slotIds = [...new Set(read.map((l) => l.slot_id))].sort();
  await checkAnswers(ctx, slotIds, input.answers);
  const slots = new Map<string, SlotRow>();
  for (const id of slotIds) slots.set(id, await lockSlot(ctx, id));
  const closed = [...slots.values()].find((s) => s.closed);
  if (closed) throw new AppError('invalid', `The time slot at ${closed.local_time} on ${closed.local_date} was closed after your hold. Remove it from the cart.`);
  // Deleting the lines takes their seats out of slot.held (trigger); writeOrder adds them to booked.
  const lines = await ctx.tx
    .delete(cartLine)
    .where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId), inArray(cartLine.id, read.map((l) => l.id))))
    .returning();
  if (lines.length === 0) throw empty();
  lines.sort((x, y) => x.created_at.getTime() - y.created_at.getTime());
  const created = await writeOrder(ctx, {
    userId,
    customer: input.customer,
    answers: input.answers,
    lines: lines.map((l) => ({ slot_id: l.slot_id, experience_id: slots.get(l.slot_id)!.experience_id, quantities: l.quantities, extras: l.extras, seats: l.seats, total: l.total })),
  });
  return presentOrder(ctx, created);
}

/**
 * Cancelling releases the booking's seats at once. The order's row is locked first, then the
 * booking changes only if it is not cancelled yet (so two cancels never release twice), then its
 * slot — the same order as every other change to an order's lines.
 */
export async function cancelBooking(ctx: TenantCtx, id: string) {
  const [found] = await ctx.tx.select({ order_id: booking.order_id }).from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
  if (!found) throw notFound('No booking with this id.');
  await lockOrder(ctx, found.order_id);
  const [b] = await ctx.tx
    .update(booking)
    .set({ status: 'Canceled', canceled_at: new Date(), updated_at: new Date() })
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id), sql`${booking.status} <> 'Canceled'`))
    .returning();
  if (!b) throw new AppError('conflict', 'This booking is already cancelled.');
  await lockSlot(ctx, b.slot_id);
  await ctx.tx.update(slot).set({ booked: sql`${slot.booked} - ${b.seats}`, updated_at: new Date() }).where(eq(slot.id, b.slot_id));
  await recomputeOrder(ctx, b.order_id);
  await recordAudit(ctx, { order: b.order_id, subject: 'line', subjectId: id, action: 'cancelled', changes: { status: ['Confirmed', 'Canceled'], seats_released: b.seats } });
  return getBooking(ctx, id);
}

/** Attendance, under the booking's row lock (two changes at once are applied one after the other). */
export async function setAttendance(ctx: TenantCtx, id: string, attendance: 'Open' | 'Arrived' | 'No show') {
  const [b] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id))).for('update');
  if (!b) throw notFound('No booking with this id.');
  if (b.status === 'Canceled') throw new AppError('invalid', 'A cancelled booking has no attendance.', 'attendance');
  await ctx.tx
    .update(booking)
    .set({ attendance, checked_in_at: attendance === 'Arrived' ? b.checked_in_at ?? new Date() : null, updated_at: new Date() })
    .where(eq(booking.id, id));
  if (attendance !== b.attendance) await recordAudit(ctx, { order: b.order_id, subject: 'line', subjectId: id, action: 'attendance changed', changes: { attendance: [b.attendance, attendance] } });
  return getBooking(ctx, id);
}

/** Scanning a ticket: Arrived the first time; a second scan — even at the same moment — says when. */
export async function checkIn(ctx: TenantCtx, code: string) {
  const [b] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.ticket_code, code.toUpperCase()))).for('update');
  if (!b) throw new AppError('not_found', 'Unknown ticket: it is not a booking of this organisation.');
  if (b.status === 'Canceled') throw new AppError('invalid', 'This booking was cancelled: the ticket is not valid.', 'ticket_code');
  if (b.status === 'Created') throw new AppError('invalid', 'This booking is not confirmed yet: confirm its order first.', 'ticket_code');
  if (b.attendance === 'Arrived' && b.checked_in_at) {
    const zone = (await accountSettings(ctx.tx, ctx.accountId)).time_zone;
    const at = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(b.checked_in_at);
    throw new AppError('already_checked_in', `Already checked in at ${at}.`, 'ticket_code');
  }
  await ctx.tx.update(booking).set({ attendance: 'Arrived', checked_in_at: new Date(), updated_at: new Date() }).where(eq(booking.id, b.id));
  await recordAudit(ctx, { order: b.order_id, subject: 'line', subjectId: b.id, action: 'checked in', changes: { attendance: [b.attendance, 'Arrived'], ticket_code: b.ticket_code } });
  return getBooking(ctx, b.id);
}
