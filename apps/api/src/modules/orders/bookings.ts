import type { TCustomerDetails, TPromoPreview } from '@tourdesk/contracts';
import { isLanguage, type Language } from '@tourdesk/contracts/i18n';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { lockSlot } from '../availability/slots';
import { getBooking } from './booking-rows';
import * as q from './queries/bookings';
import { departuresOf, priceOf } from './queries/sale';
import { applyPromo } from '../promo-codes/apply';
import { discountByRate, rateOf, sellLine, vatRates } from './sale';
import { bookingEvent, checkAnswers, lockOrder, recomputeOrder, recordAudit, writeOrder } from './records';
import { sellPendingNow } from './order-basics';
import { giveBackSeats } from './order-basics';

/**
 * Bookings: a cart checked out into an order, a booking cancelled, attendance (scanning tickets is
 * the check-in module's).
 * The orders module uses the availability module (slots, their locks, carts), never the reverse.
 */

/**
 * Turns the cart's lines into bookings, all or none, in one transaction: exactly the lines the
 * caller saw (`lines`, the ids the cart showed it), or, without that list, the lines the cart shows
 * now (those whose hold has not run out). Lines added since (another tab) stay in the cart.
 *
 * A listed line whose hold ran out is never booked silently: while it is still in the cart its seats
 * are still counted in the slot's `held` (only a sweep or a hold that needs them deletes it), so
 * checkout re-holds it under the slot's lock, at today's prices, and records that in the order's
 * audit trail. A listed line that is gone (swept, released, or booked by another checkout) or whose
 * slot is not open for sale now — closed, its offer off sale, started or past its booking cut-off,
 * whatever its hold says — refuses the checkout with a 409 naming the line (`lines.<id>`), one item
 * per such line, and nothing is booked.
 *
 * Locks: nothing of a slot is locked until the order, its customer, its bookings, audit and events
 * are written, nor until the caller has added what it adds (a voucher, the confirmation, the
 * answer): the sale runs at the commit (writeOrder()'s `sale`, tourdesk_sale_at_commit()), which
 * locks the slots in id order and then their pools, checks that each is open for sale, deletes the
 * lines and books only those still there and unchanged — a second checkout of the same cart, a
 * release or a sweep in between takes them away, their seats are never booked twice, and this
 * checkout's commit fails with a 409, nothing kept. `now` runs it at once instead (issue 33).
 */
export async function checkout(
  ctx: TenantCtx,
  cartId: string,
  userId: string | null,
  input: {
    customer: TCustomerDetails;
    answers: Record<string, string>;
    lines?: string[];
    storeId?: string;
    manageTokenHash?: string;
    language?: Language;
    /** A partner's booking through OCTO without the questions capability: required answers may be missing (asked later); given ones are still checked. */
    answersLater?: boolean;
    /** A promo code (the counter's checkout, the web store's order): writeOrder() applies it (applyPromo()) or refuses the checkout. */
    promo_code?: string;
    /** Sell now rather than at the commit (sellNow()): for a caller that handles a refusal inside its transaction (an online payment's refund, OCTO's own errors). */
    now?: boolean;
  },
) {
  // A checkout earlier in this transaction (the demo's, several from one cart) is sold first: until then its lines are still in the cart.
  if (q.salePendingIn(ctx)) await sellPendingNow(ctx);
  const empty = () => new AppError('invalid', 'The cart is empty: nothing is held (a hold that ran out was released).');
  const inCart = await q.cartLinesOf(ctx, cartId);
  const now = Date.now();
  const wanted = input.lines ? [...new Set(input.lines)] : inCart.filter((l) => l.expires_at.getTime() > now).map((l) => l.id);
  if (wanted.length === 0) {
    if (inCart.length > 0) throw new AppError('hold_expired', 'Every hold in the cart ran out: choose the times again.', 'lines');
    throw empty();
  }
  const gone = (id: string) => ({ code: 'hold_expired', detail: 'This line is no longer held: its hold ran out and the seats were released, or it was booked or removed in another window. Remove it and choose the time again.', attr: `lines.${id}` });
  const closed = (id: string, s: { local_date: string; local_time: string }) => ({ code: 'hold_expired', detail: `The time slot at ${s.local_time} on ${s.local_date} is no longer open for sale: remove this line from the cart.`, attr: `lines.${id}` });
  const byId = new Map(inCart.map((l) => [l.id, l]));
  const missing = wanted.filter((id) => !byId.has(id));
  const read = wanted.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
  if (read.length === 0) throw refuse(missing.map(gone));
  const slotIds = [...new Set(read.map((l) => l.slot_id))].sort();
  await checkAnswers(ctx, slotIds, input.answers, { allowMissing: input.answersLater });
  const departures = await departuresOf(ctx, slotIds);
  // Refused at once, without a lock (nothing is booked): every line that cannot be booked, in the
  // order they were shown, so the customer sees them all; sellSeats() checks the slots again under
  // their locks.
  const open = new Set(await q.openSlotIds(ctx, slotIds));
  if (missing.length || read.some((l) => !open.has(l.slot_id))) {
    const why = new Map(missing.map((id) => [id, gone(id)]));
    for (const l of read) if (!open.has(l.slot_id)) why.set(l.id, closed(l.id, departures.get(l.slot_id)!));
    throw refuse(wanted.filter((id) => why.has(id)).map((id) => why.get(id)!));
  }
  // A line whose hold ran out is sold at today's prices, as holding it again would price it (its
  // seats stayed in the slot's count while it was in the cart).
  const reholding = read.filter((l) => l.expires_at.getTime() <= now);
  const repriced = new Map<string, Awaited<ReturnType<typeof priceOf>>>();
  for (const l of reholding) repriced.set(l.id, await priceOf(ctx, l.slot_id, l.quantities, l.extras));
  const lines = [...read].sort((x, y) => x.created_at.getTime() - y.created_at.getTime());
  // The customer's language: the caller's (a partner's call), else a web store's cart's (chosen in the store).
  const cartLanguage = input.storeId ? await q.cartLanguageOf(ctx, cartId) : undefined;
  // The QR code whose scan brought the cart's customer stays with the order (every way to check out comes here).
  const copyQrCode = (orderId: string) => q.copyCartQrCode(ctx, cartId, orderId);
  const created = await writeOrder(ctx, {
    userId,
    language: input.language ?? (isLanguage(cartLanguage) ? cartLanguage : undefined),
    storeId: input.storeId,
    manageTokenHash: input.manageTokenHash,
    customer: input.customer,
    answers: input.answers,
    promoCode: input.promo_code,
    // Sold at the commit, as read here: a line changed in another window since refuses the sale.
    sale: { cart: cartId, slots: slotIds, lines: read.map((l) => ({ id: l.id, slot_id: l.slot_id, seats: l.seats, total: l.total, quantities: l.quantities, extras: l.extras })) },
    lines: lines.map((l) => {
      const today = repriced.get(l.id);
      const sold = today ? { total: today.total, items: today.items, currency: today.currency } : { total: l.total, items: l.items, currency: l.currency };
      return { slot_id: l.slot_id, experience_id: departures.get(l.slot_id)!.experience_id, quantities: l.quantities, extras: l.extras, seats: l.seats, ...sold };
    }),
  });
  await copyQrCode(created);
  if (reholding.length) {
    await recordAudit(ctx, { order: created, subject: 'order', subjectId: created, action: 'expired holds re-held', changes: { lines: reholding.length, seats: reholding.reduce((n, l) => n + l.seats, 0) } });
  }
  if (input.now) await sellPendingNow(ctx);
  return created;
}

/**
 * What a promo code would take off the cart's lines (the store's cart, the counter's), before the
 * order: applyPromo() without taking a use, the lines sold as writeOrder() would (sellLine() with
 * their share) for the discount's VAT per rate. A refusal is the checkout's own (promo_* on
 * `promo_code`); the checkout checks the code again and takes its use.
 */
export async function promoPreview(ctx: TenantCtx, cartId: string, input: { code: string; lines?: string[]; email?: string; storeId: string | null }): Promise<TPromoPreview> {
  const lines = await linesAsSold(ctx, cartId, input.lines);
  lines.sort((x, y) => x.created_at.getTime() - y.created_at.getTime());
  const departures = await departuresOf(ctx, [...new Set(lines.map((l) => l.slot_id))]);
  const experienceOf = (slotId: string) => departures.get(slotId)?.experience_id ?? '';
  const promo = await applyPromo(ctx, { code: input.code, storeId: input.storeId, email: input.email, lines: lines.map((l) => ({ key: l.id, experience_id: experienceOf(l.slot_id), slot_id: l.slot_id, items: l.items })) });
  const rates = await vatRates(ctx, [...new Set(lines.map((l) => experienceOf(l.slot_id)))]);
  const sold = lines.map((l) => sellLine(l.items, rateOf(rates, experienceOf(l.slot_id)), undefined, undefined, promo.discounts.get(l.id) ?? 0));
  const subtotal = lines.reduce((s, l) => s + l.total, 0);
  return {
    discount: { code: promo.code, amount: promo.amount, taxes: discountByRate(sold) },
    lines: lines.map((l) => ({ id: l.id, discount: promo.discounts.get(l.id) ?? 0 })),
    subtotal,
    total: subtotal - promo.amount,
    currency: ctx.currency,
  };
}

/**
 * What the cart's lines would cost (`lines`, else those held), after a promo code when one is given
 * (promoPreview()): what a gift voucher's preview compares its balance with.
 */
export async function cartDue(ctx: TenantCtx, cartId: string, input: { lines?: string[]; promo_code?: string; storeId: string | null }) {
  if (input.promo_code) return (await promoPreview(ctx, cartId, { code: input.promo_code, lines: input.lines, storeId: input.storeId })).total;
  return (await linesAsSold(ctx, cartId, input.lines)).reduce((n, l) => n + l.total, 0);
}

/**
 * The cart's lines a checkout would book (`lines`, else those held) at the figures it would sell
 * them at: a named line whose hold ran out is priced again at today's prices (priceOf(), as
 * checkout() re-holds it), the others at their held prices.
 */
async function linesAsSold(ctx: TenantCtx, cartId: string, ids: string[] | undefined) {
  const now = Date.now();
  const inCart = await q.cartLinesOf(ctx, cartId);
  const lines = ids ? inCart.filter((l) => ids.includes(l.id)) : inCart.filter((l) => l.expires_at.getTime() > now);
  if (lines.length === 0) throw new AppError('invalid', 'The cart is empty: choose a time first, then enter the code.', 'lines');
  const sold: typeof lines = [];
  for (const l of lines) {
    if (l.expires_at.getTime() > now) sold.push(l);
    else {
      const today = await priceOf(ctx, l.slot_id, l.quantities, l.extras);
      sold.push({ ...l, items: today.items, total: today.total });
    }
  }
  return sold;
}

/** A 409 with one item per line that cannot be booked. */
function refuse(items: { code: string; detail: string; attr: string }[]) {
  const [first, ...rest] = items;
  return new AppError('hold_expired', first!.detail, first!.attr, rest);
}

/**
 * Cancelling releases the booking's seats at once. The order's row is locked first, then the
 * booking changes only if it is not cancelled yet (so two cancels never release twice), then its
 * slot — the same order as every other change to an order's lines.
 */
export async function cancelBooking(ctx: TenantCtx, id: string) {
  const orderId = await q.orderIdOfBooking(ctx, id);
  if (!orderId) throw notFound('No booking with this id.');
  await lockOrder(ctx, orderId);
  const b = await q.cancelBookingIfOpen(ctx, id);
  if (!b) throw new AppError('conflict', 'This booking is already cancelled.');
  await lockSlot(ctx, b.slot_id);
  await giveBackSeats(ctx, b.slot_id, b.seats);
  await recomputeOrder(ctx, b.order_id);
  await recordAudit(ctx, { order: b.order_id, subject: 'line', subjectId: id, action: 'cancelled', changes: { status: ['Confirmed', 'Canceled'], seats_released: b.seats } });
  await bookingEvent(ctx, 'booking.cancelled', b.order_id, [id]);
  return getBooking(ctx, id);
}

/** Attendance, under the booking's row lock (two changes at once are applied one after the other). */
export async function setAttendance(ctx: TenantCtx, id: string, attendance: 'Open' | 'Arrived' | 'No show') {
  const b = await q.lockBookingRow(ctx, id);
  if (!b) throw notFound('No booking with this id.');
  if (b.status === 'Canceled') throw new AppError('invalid', 'A cancelled booking has no attendance.', 'attendance');
  await q.setBookingAttendance(ctx, id, {
    attendance,
    checked_in_at: attendance === 'Arrived' ? (b.checked_in_at ?? new Date()) : null,
    ...(attendance === 'Arrived' ? {} : { checked_in_by: null, checked_in_device: null }),
  });
  if (attendance !== b.attendance) {
    await recordAudit(ctx, { order: b.order_id, subject: 'line', subjectId: id, action: 'attendance changed', changes: { attendance: [b.attendance, attendance] } });
    if (attendance !== 'Open') await bookingEvent(ctx, attendance === 'Arrived' ? 'booking.checked_in' : 'booking.no_show', b.order_id, [id]);
  }
  return getBooking(ctx, id);
}
