import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { booking, cancellationPolicy, cart, cartLine, customer, experience, order, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { givenCustomer } from './customers';
import { askedQuestionsOf, type AskedQuestion } from './experiences';
import { execute } from '../../../db/execute';

export type { AskedQuestion } from './experiences';

/** Bookings (an order's lines), the seats they take from their slots, and the cart lines checkout books. */

// --- bookings read with their order, customer, slot and experience ----------------------------

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
export type BookingRow = Awaited<ReturnType<typeof bookingRows>>[number];

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
      ? sql`(${givenCustomer.email} ilike ${term} or ${givenCustomer.first_name} || ' ' || ${givenCustomer.last_name} ilike ${term} or ${order.reference} ilike ${term} or ${booking.ticket_code} ilike ${term})`
      : undefined,
  );
}

/** A page of bookings with their order, customer, slot and experience, newest start first, filtered in SQL. */
export function pageBookingRows(ctx: TenantCtx, f: BookingListFilter, limit: number, offset: number) {
  return selectBookings(ctx).where(bookingListWhere(ctx, f)).orderBy(sql`${slot.starts_at} desc`, sql`${booking.id} desc`).limit(limit).offset(offset);
}

/** How many bookings the list's filter matches. */
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

/** The bookings of a slot, a local day or an order (any of them), with their order, customer, slot and experience, by start. */
export function bookingRowsWhere(ctx: TenantCtx, filter: { slot?: string; date?: string; order?: string }) {
  return bookingRows(
    ctx,
    and(
      eq(booking.account_id, ctx.accountId),
      filter.slot ? eq(booking.slot_id, filter.slot) : undefined,
      filter.date ? eq(slot.local_date, filter.date) : undefined,
      filter.order ? eq(booking.order_id, filter.order) : undefined,
    ),
  );
}

/** One booking with its order, customer, slot and experience; undefined when not the organisation's. */
export async function bookingRowById(ctx: TenantCtx, id: string) {
  const [row] = await bookingRows(ctx, and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
  return row;
}

// --- an order's bookings ----------------------------------------------------------------------

/** The order's bookings that are not cancelled, by slot id (the order their slots are locked in). */
export function openBookingsBySlot(ctx: TenantCtx, orderId: string) {
  return ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), sql`${booking.status} <> 'Canceled'`)).orderBy(asc(booking.slot_id));
}

/** The order's open bookings with their start and their offer's cancellation policy rules, earliest first. */
export function openBookingTerms(ctx: TenantCtx, orderId: string) {
  return ctx.tx
    .select({ id: booking.id, total: booking.total, starts: slot.starts_at, rules: cancellationPolicy.rules })
    .from(booking)
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .leftJoin(cancellationPolicy, eq(cancellationPolicy.id, experience.cancellation_policy_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), ne(booking.status, 'Canceled')))
    .orderBy(asc(slot.starts_at), asc(booking.id));
}

/** One line (booking) of the order; undefined when it is not one of the order's. */
export async function bookingOfOrder(ctx: TenantCtx, orderId: string, lineId: string) {
  const [b] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), eq(booking.id, lineId)));
  return b;
}

/** The order a booking belongs to; undefined when the booking is not the organisation's. */
export async function orderIdOfBooking(ctx: TenantCtx, id: string) {
  const [found] = await ctx.tx.select({ order_id: booking.order_id }).from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
  return found?.order_id;
}

/** The booking's row, locked FOR UPDATE; undefined when not the organisation's. */
export async function lockBookingRow(ctx: TenantCtx, id: string) {
  const [b] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id))).for('update');
  return b;
}

/** The order's lines sold while the VAT rate was pending (to be given today's rate). */
export function pendingRateBookings(ctx: TenantCtx, orderId: string) {
  return ctx.tx
    .select({ id: booking.id, experience_id: booking.experience_id, items: booking.items, discount: booking.discount })
    .from(booking)
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), eq(booking.tax_rate_pending, true)));
}

/** Inserts an order's bookings; answers their ids. */
export function insertBookings(ctx: TenantCtx, rows: Omit<typeof booking.$inferInsert, 'account_id'>[]) {
  return ctx.tx
    .insert(booking)
    .values(rows.map((row) => ({ ...row, account_id: ctx.accountId })))
    .returning({ id: booking.id });
}

/** Writes a line's figures as sold again (its quantities, seats, items and VAT), by id. */
export async function updateBookingSale(ctx: TenantCtx, id: string, set: Partial<typeof booking.$inferInsert>) {
  await ctx.tx.update(booking).set({ ...set, updated_at: new Date() }).where(eq(booking.id, id));
}

/** Marks one booking Canceled, by id. */
export async function markBookingCanceled(ctx: TenantCtx, id: string) {
  await ctx.tx.update(booking).set({ status: 'Canceled', canceled_at: new Date(), updated_at: new Date() }).where(eq(booking.id, id));
}

/** Marks the booking Canceled only if it is not yet; answers it then (undefined when it already was, or is not the organisation's). */
export async function cancelBookingIfOpen(ctx: TenantCtx, id: string) {
  const [b] = await ctx.tx
    .update(booking)
    .set({ status: 'Canceled', canceled_at: new Date(), updated_at: new Date() })
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id), sql`${booking.status} <> 'Canceled'`))
    .returning();
  return b;
}

/** Marks every booking of the order not cancelled yet Canceled. */
export async function cancelOpenBookings(ctx: TenantCtx, orderId: string, at: Date) {
  await ctx.tx.update(booking).set({ status: 'Canceled', canceled_at: at, updated_at: at }).where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), sql`${booking.status} <> 'Canceled'`));
}

/** Keeps a cancelled booking's share of the order's cancellation fee. */
export async function setBookingCancellationFee(ctx: TenantCtx, id: string, share: number) {
  await ctx.tx.update(booking).set({ cancellation_fee: share }).where(eq(booking.id, id));
}

/** Marks the order's bookings waiting for confirmation (Created) Confirmed. */
export async function confirmCreatedBookings(ctx: TenantCtx, orderId: string) {
  await ctx.tx.update(booking).set({ status: 'Confirmed', updated_at: new Date() }).where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), eq(booking.status, 'Created')));
}

/** Writes a booking's attendance and who checked it in. */
export async function setBookingAttendance(ctx: TenantCtx, id: string, set: Pick<typeof booking.$inferInsert, 'attendance' | 'checked_in_at' | 'checked_in_by' | 'checked_in_device'>) {
  await ctx.tx
    .update(booking)
    .set({ ...set, updated_at: new Date() })
    .where(eq(booking.id, id));
}

// --- seats booked on slots --------------------------------------------------------------------

/** Adds seats to the slot's booked seats (a negative number gives some back). */
export async function bookSeats(ctx: TenantCtx, slotId: string, seats: number) {
  await ctx.tx.update(slot).set({ booked: sql`${slot.booked} + ${seats}`, updated_at: new Date() }).where(eq(slot.id, slotId));
}

/** Takes seats out of the slot's booked seats (a cancelled line's). */
export async function releaseSeats(ctx: TenantCtx, slotId: string, seats: number) {
  await ctx.tx.update(slot).set({ booked: sql`${slot.booked} - ${seats}`, updated_at: new Date() }).where(eq(slot.id, slotId));
}

// --- a sale's seats: the part under the slots' locks -------------------------------------------

/** A cart line as tourdesk_sell_seats() deleted it. */
export interface SoldLine {
  id: string;
  slot_id: string;
  seats: number;
  quantities: Record<string, number>;
  extras: Record<string, number>;
  total: number;
  currency: string;
}

/**
 * tourdesk_sell_seats() (04-carts.sql), one statement: locks the slots in id order; for a cart's
 * lines, answers the slots not open for sale (`shut`, nothing changed) or deletes the lines and books
 * their seats (a line gone meanwhile is missing from `lines`, nothing booked); without a cart, adds
 * `book` (seats per slot) to booked.
 */
export async function sellSeats(ctx: TenantCtx, orderId: string, sale: { slots: string[]; cart?: { id: string; lines: string[] }; book?: Record<string, number> }) {
  const cart = sale.cart ? sql`${sale.cart.id}::uuid, ${`{${sale.cart.lines.join(',')}}`}::uuid[]` : sql`null, '{}'::uuid[]`;
  const rows = await execute<{ sold: { shut: { slot: string; local_date: string; local_time: string }[]; lines?: SoldLine[] } }>(
    ctx.tx,
    sql`select tourdesk_sell_seats(${ctx.accountId}, ${orderId}, ${`{${sale.slots.join(',')}}`}::uuid[], ${cart}, ${JSON.stringify(sale.book ?? {})}::jsonb) as sold`,
  );
  return rows.rows[0]!.sold;
}

/** What a checkout's sale at its commit sells: the cart, its lines' slots, and each line as the checkout read it (a line changed since refuses the sale). */
export type SaleAtCommit = {
  cart: string;
  slots: string[];
  lines: { id: string; slot_id: string; seats: number; total: number; quantities: Record<string, number>; extras: Record<string, number> }[];
  promo: { id: string; code: string; email: string | null } | null;
};

/**
 * The next order reference of the organisation (tourdesk_order_reference(): its sequence for the
 * local year, 2026-000123); with `pending`, in the same statement, leaves the sale of the order
 * `orderId` (inserted next) for the transaction's commit: the transaction's settings
 * tourdesk.sale_pending (the order's insert then queues the deferred trigger orders_sale_at_commit)
 * and tourdesk.sale ({order id: what to sell}, read by tourdesk_sale_at_commit()).
 */
export async function orderReference(ctx: TenantCtx, pending?: { orderId: string; sale: SaleAtCommit }) {
  if (pending) salesPending.add(ctx.tx);
  const sale = pending
    ? sql`, set_config('tourdesk.sale_pending', 'on', true),
        set_config('tourdesk.sale', (coalesce(nullif(current_setting('tourdesk.sale', true), ''), '{}')::jsonb || jsonb_build_object(${pending.orderId}::text, ${JSON.stringify(pending.sale)}::jsonb))::text, true)`
    : sql``;
  return (await execute<{ reference: string }>(ctx.tx, sql`select tourdesk_order_reference() as reference${sale}`)).rows[0]!.reference;
}

/**
 * Sells the transaction's pending checkouts now (tourdesk_sell_pending()), for a caller that must
 * know the outcome inside its transaction, or changes an order afterwards; nothing when none is pending.
 */
export async function sellNow(ctx: TenantCtx) {
  await execute(ctx.tx, sql`select tourdesk_sell_pending()`);
  salesPending.delete(ctx.tx);
}

/** The transactions (their handles) that left a sale for their commit in this process: checkout() sells them first (salePendingIn()). */
const salesPending = new WeakSet<object>();

/** Whether this transaction left a checkout's sale for its commit (a second checkout in it sells that first: its cart still shows the lines). */
export const salePendingIn = (ctx: TenantCtx) => salesPending.has(ctx.tx);

// --- checkout: the cart's lines ---------------------------------------------------------------

/** The lines of a cart, every one (holds run out included). */
export function cartLinesOf(ctx: TenantCtx, cartId: string) {
  return ctx.tx.select().from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId)));
}

/** Which of these slots are open for sale now (the one definition, slot_api.open). */
export async function openSlotIds(ctx: TenantCtx, slotIds: string[]) {
  const result = (await execute<{ id: string }>(ctx.tx, sql`select id from slot_api where account_id = ${ctx.accountId} and id in ${slotIds} and open`));
  return result.rows.map((r) => r.id);
}

/** Deletes these lines of the cart (their seats leave slot.held by trigger); answers the lines deleted. */
export function deleteCartLines(ctx: TenantCtx, cartId: string, ids: string[]) {
  return ctx.tx
    .delete(cartLine)
    .where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId), inArray(cartLine.id, ids)))
    .returning();
}

/** The cart's QR code (whose scan brought its customer), if any, written on the order. */
export async function copyCartQrCode(ctx: TenantCtx, cartId: string, orderId: string) {
  await ctx.tx.execute(sql`update ${order} o set qr_code_id = c.qr_code_id from ${cart} c where c.account_id = ${ctx.accountId} and c.id = ${cartId} and c.qr_code_id is not null and o.account_id = c.account_id and o.id = ${orderId}`);
}

/** The language of a guest cart (the customer's, chosen in the store): its order's e-mails and documents follow it. */
export async function cartLanguageOf(ctx: TenantCtx, cartId: string) {
  const [row] = await ctx.tx.select({ language: cart.language }).from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
  return row?.language;
}

// --- booking questions and their answers (answers.ts) -----------------------------------------

/** The open bookings of an order with their answers and the questions their offer asks, in the offer's order: one query. */
export async function bookingQuestionsOfOrder(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, orderId: string) {
  const rows = (await execute<{ id: string; answers: Record<string, string>; questions: AskedQuestion[] }>(ctx.tx, sql`
    select b.id, b.answers, ${askedQuestionsOf('x')} as questions
    from booking b join experience x on x.account_id = b.account_id and x.id = b.experience_id
    where b.account_id = ${ctx.accountId} and b.order_id = ${orderId} and b.status <> 'Canceled'
    order by b.created_at`));
  return rows.rows;
}

/** Writes a booking's answers. */
export function setBookingAnswers(ctx: TenantCtx, bookingId: string, answers: Record<string, string>) {
  return ctx.tx.update(booking).set({ answers, updated_at: new Date() }).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, bookingId)));
}
