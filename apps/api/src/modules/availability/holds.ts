import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { TBooking, TCart, TOrder } from '@tourdesk/contracts';
import { booking, bookingQuestion, cart, cartLine, customer, experience, order, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import type { Db } from '../../db/client';
import { accountSettings, capacityLock, lockSlot, type SlotRow } from './slots';

/** The signed-in user's cart (the spec's `user.cart`), made on first use. */
export async function userCart(ctx: TenantCtx, userId: string) {
  await ctx.tx.insert(cart).values({ account_id: ctx.accountId, user_id: userId }).onConflictDoNothing();
  const [row] = await ctx.tx.select().from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.user_id, userId)));
  return row!;
}

/**
 * Holds seats in a slot for a new cart line, or changes a held line (capacity checked again):
 * one call of the database function tourdesk_hold (migration 0006), outside any transaction, so
 * the statement commits on its own and the slot's lock is held only for its final write, like a
 * single-row conditional decrement. It checks the offer, slot, cutoff, categories, prices,
 * extras and participants before it locks; the cart it answers with is read afterwards.
 */
export async function hold(db: Db, who: { accountId: string; userId: string }, input: { slot?: string; quantities: Record<string, number>; extras: Record<string, number> }, lineId: string | null = null): Promise<TCart> {
  const held = (await db.execute(sql`
    select tourdesk_hold(${who.accountId}::uuid, ${who.userId}::uuid, ${input.slot ?? null}::uuid, ${lineId}::uuid,
                         ${JSON.stringify(input.quantities)}::jsonb, ${JSON.stringify(input.extras)}::jsonb, ${capacityLock.enabled}) as cart`)) as unknown as { rows: { cart: string }[] };
  // The lock is released: the cart is read in a statement of its own.
  const result = (await db.execute(sql`select tourdesk_cart_scoped(${who.accountId}::uuid, ${held.rows[0]!.cart}::uuid) as cart`)) as unknown as { rows: { cart: TCart | string }[] };
  const cart = result.rows[0]!.cart;
  return typeof cart === 'string' ? JSON.parse(cart) : cart;
}

/**
 * Deletes expired cart lines, one slot at a time (each delete takes only that slot's lock, for a
 * moment, through the trigger that keeps slot.held). Expired lines already stop counting in every
 * seat count shown, and a hold that needs their seats sweeps its slot itself; this keeps the
 * tables small. Returns how many lines went.
 */
export async function sweepExpiredHolds(db: Db, maxSlots = 200) {
  const slots = (await db.execute(sql`select distinct slot_id from ${cartLine} where expires_at <= now() limit ${maxSlots}`)) as unknown as { rows: { slot_id: string }[] };
  let swept = 0;
  for (const { slot_id } of slots.rows) {
    const result = (await db.execute(sql`delete from ${cartLine} where slot_id = ${slot_id}::uuid and expires_at <= now()`)) as unknown as { rowCount?: number; affectedRows?: number };
    swept += Number(result.rowCount ?? result.affectedRows ?? 0);
  }
  return swept;
}

/** The cart as the API shows it (tourdesk_cart: its unexpired lines, total, first expiry). */
export async function presentCart(ctx: TenantCtx, cartId: string): Promise<TCart> {
  const result = (await ctx.tx.execute(sql`select tourdesk_cart(${ctx.accountId}::uuid, ${cartId}::uuid) as cart`)) as unknown as { rows: { cart: TCart | string }[] };
  const cart = result.rows[0]!.cart;
  return typeof cart === 'string' ? JSON.parse(cart) : cart;
}

/** The customer with this e-mail (in any case), updated with the latest details, or a new one. */
async function upsertCustomer(ctx: TenantCtx, details: { email: string; first_name: string; last_name: string; phone: string; country: string | null; marketing_consent: boolean }) {
  const byEmail = and(eq(customer.account_id, ctx.accountId), sql`lower(${customer.email}) = lower(${details.email})`);
  const [existing] = await ctx.tx.select().from(customer).where(byEmail).for('update');
  if (existing) {
    const [row] = await ctx.tx
      .update(customer)
      .set({ first_name: details.first_name, last_name: details.last_name || existing.last_name, phone: details.phone || existing.phone, country: details.country ?? existing.country, updated_at: new Date() })
      .where(eq(customer.id, existing.id))
      .returning();
    return row!;
  }
  const [row] = await ctx.tx.insert(customer).values({ account_id: ctx.accountId, ...details }).returning();
  return row!;
}

/** An unguessable ticket code, readable from a QR code or over the phone. */
const ticketCode = () => randomBytes(10).toString('base64url').replace(/[-_]/g, 'X').toUpperCase().slice(0, 12);
const orderReference = () => `TD-${randomBytes(4).toString('hex').toUpperCase()}`;

/**
 * The answers to the booking questions of the experiences being booked: every required question
 * answered, nothing answered that was not asked, a number for a number, yes or no for yes/no, one
 * of the choices for a choice. One query for the questions of all the cart's experiences.
 */
async function checkAnswers(ctx: TenantCtx, slotIds: string[], answers: Record<string, string>) {
  const questions = await ctx.tx
    .selectDistinct({ q: bookingQuestion })
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .innerJoin(bookingQuestion, sql`${bookingQuestion.id} = any(${experience.booking_question_ids})`)
    .where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, slotIds)));
  const asked = new Map(questions.map(({ q }) => [q.id, q]));
  for (const id of Object.keys(answers)) {
    if (!asked.has(id)) throw new AppError('invalid', 'This question is not asked for these bookings.', `answers.${id}`);
  }
  for (const q of asked.values()) {
    const answer = (answers[q.id] ?? '').trim();
    const attr = `answers.${q.id}`;
    if (!answer) {
      if (q.required) throw new AppError('required', `Please answer: ${q.question}`, attr);
      continue;
    }
    if (q.answer_type === 'number' && !/^-?\d+(\.\d+)?$/.test(answer)) throw new AppError('invalid', `Answer with a number: ${q.question}`, attr);
    if (q.answer_type === 'yes_no' && !['yes', 'no'].includes(answer)) throw new AppError('invalid', `Answer yes or no: ${q.question}`, attr);
    if (q.answer_type === 'choice' && !q.choices.includes(answer)) throw new AppError('invalid', `Choose one of the options: ${q.question}`, attr);
  }
}

/**
 * Turns every held line of a cart into bookings, all or none, in one transaction. The slots are
 * locked in a fixed order (no deadlock between two checkouts); an expired hold is re-checked
 * against the seats that are left, and refused if they are gone.
 */
export async function checkout(
  ctx: TenantCtx,
  cartId: string,
  userId: string,
  input: { customer: { email: string; first_name: string; last_name: string; phone: string; country: string | null; marketing_consent: boolean }; answers: Record<string, string> },
) {
  const lines = await ctx.tx.select().from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId))).orderBy(asc(cartLine.slot_id));
  if (lines.length === 0) throw new AppError('invalid', 'The cart is empty: nothing is held (a hold that ran out was released).');
  await checkAnswers(ctx, [...new Set(lines.map((l) => l.slot_id))], input.answers);
  // A line counts in its slot's held seats until it is swept, expired or not: a line still in
  // the cart still has its seats. Slots are locked in a fixed order (no deadlock between two
  // checkouts); deleting the lines takes their seats out of slot.held (trigger) as they are booked.
  const slots = new Map<string, SlotRow>();
  for (const id of [...new Set(lines.map((l) => l.slot_id))].sort()) slots.set(id, await lockSlot(ctx, id));
  const found = await upsertCustomer(ctx, input.customer);
  const settings = await accountSettings(ctx.tx, ctx.accountId);
  const total = lines.reduce((sum, l) => sum + l.total, 0);
  const [created] = await ctx.tx
    .insert(order)
    .values({ account_id: ctx.accountId, reference: orderReference(), status: 'Confirmed', payment_status: 'Not paid', customer_id: found.id, total, currency: settings.currency, created_by: userId })
    .returning();
  for (const line of lines) {
    const s = slots.get(line.slot_id)!;
    await ctx.tx.update(slot).set({ booked: sql`${slot.booked} + ${line.seats}`, updated_at: new Date() }).where(eq(slot.id, s.id));
    await ctx.tx.insert(booking).values({
      account_id: ctx.accountId,
      order_id: created!.id,
      experience_id: s.experience_id,
      slot_id: s.id,
      status: 'Confirmed',
      ticket_code: ticketCode(),
      quantities: line.quantities,
      extras: line.extras,
      answers: input.answers,
      seats: line.seats,
      total: line.total,
      currency: line.currency,
    });
  }
  await ctx.tx.delete(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId)));
  return presentOrder(ctx, created!.id);
}

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

export async function presentOrder(ctx: TenantCtx, id: string): Promise<TOrder> {
  const [o] = await ctx.tx.select({ o: order, c: customer }).from(order).innerJoin(customer, eq(customer.id, order.customer_id)).where(and(eq(order.account_id, ctx.accountId), eq(order.id, id)));
  if (!o) throw notFound('No order with this id.');
  return {
    id: o.o.id,
    reference: o.o.reference,
    status: o.o.status as TOrder['status'],
    payment_status: o.o.payment_status as TOrder['payment_status'],
    total: o.o.total,
    currency: o.o.currency,
    customer: { id: o.c.id, email: o.c.email, first_name: o.c.first_name, last_name: o.c.last_name },
    bookings: await listBookings(ctx, { order: id }),
    created_at: o.o.created_at.toISOString(),
  };
}

/** Cancelling releases the booking's seats at once (under the slot's lock). */
export async function cancelBooking(ctx: TenantCtx, id: string) {
  const [b] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
  if (!b) throw notFound('No booking with this id.');
  if (b.status === 'Canceled') throw new AppError('conflict', 'This booking is already cancelled.');
  await lockSlot(ctx, b.slot_id);
  await ctx.tx.update(slot).set({ booked: sql`${slot.booked} - ${b.seats}`, updated_at: new Date() }).where(eq(slot.id, b.slot_id));
  await ctx.tx.update(booking).set({ status: 'Canceled', canceled_at: new Date(), updated_at: new Date() }).where(eq(booking.id, id));
  return getBooking(ctx, id);
}

export async function setAttendance(ctx: TenantCtx, id: string, attendance: 'Open' | 'Arrived' | 'No show') {
  const [b] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, id)));
  if (!b) throw notFound('No booking with this id.');
  if (b.status === 'Canceled') throw new AppError('invalid', 'A cancelled booking has no attendance.', 'attendance');
  await ctx.tx
    .update(booking)
    .set({ attendance, checked_in_at: attendance === 'Arrived' ? b.checked_in_at ?? new Date() : null, updated_at: new Date() })
    .where(eq(booking.id, id));
  return getBooking(ctx, id);
}

/** A line of the user's cart, or 404. */
async function ownLine(ctx: TenantCtx, cartId: string, lineId: string) {
  const [line] = await ctx.tx.select().from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId), eq(cartLine.id, lineId)));
  if (!line) throw notFound('No such line in your cart.');
  return line;
}

export async function releaseLine(ctx: TenantCtx, cartId: string, lineId: string) {
  await ownLine(ctx, cartId, lineId);
  await ctx.tx.delete(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.id, lineId)));
}

/** Scanning a ticket: Arrived the first time; a second scan says when. */
export async function checkIn(ctx: TenantCtx, code: string) {
  const [b] = await ctx.tx.select().from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.ticket_code, code.toUpperCase())));
  if (!b) throw new AppError('not_found', 'Unknown ticket: it is not a booking of this organisation.');
  if (b.status === 'Canceled') throw new AppError('invalid', 'This booking was cancelled: the ticket is not valid.', 'ticket_code');
  if (b.attendance === 'Arrived' && b.checked_in_at) {
    const zone = (await accountSettings(ctx.tx, ctx.accountId)).time_zone;
    const at = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(b.checked_in_at);
    throw new AppError('already_checked_in', `Already checked in at ${at}.`, 'ticket_code');
  }
  await ctx.tx.update(booking).set({ attendance: 'Arrived', checked_in_at: new Date(), updated_at: new Date() }).where(eq(booking.id, b.id));
  return getBooking(ctx, b.id);
}
