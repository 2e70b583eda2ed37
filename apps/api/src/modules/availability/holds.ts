import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { TBooking, TCart, TOrder } from '@tourdesk/contracts';
import { booking, cart, cartLine, customer, experience, order, pricingCategory, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { accountSettings, heldBySlot, lockSlot, pricesOn, type SlotRow } from './slots';

/** The signed-in user's cart (the spec's `user.cart`), made on first use. */
export async function userCart(ctx: TenantCtx, userId: string) {
  await ctx.tx.insert(cart).values({ account_id: ctx.accountId, user_id: userId }).onConflictDoNothing();
  const [row] = await ctx.tx.select().from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.user_id, userId)));
  return row!;
}

async function seatsAndTotal(ctx: TenantCtx, s: SlotRow, quantities: Record<string, number>) {
  const ids = Object.keys(quantities).filter((id) => quantities[id]! > 0);
  const categories = ids.length
    ? await ctx.tx.select().from(pricingCategory).where(and(eq(pricingCategory.account_id, ctx.accountId), inArray(pricingCategory.id, ids)))
    : [];
  const unknown = ids.filter((id) => !categories.some((c) => c.id === id));
  if (unknown.length) throw new AppError('invalid', 'Unknown pricing category.', 'quantities');
  const prices = (await pricesOn(ctx.tx, ctx.accountId, s.experience_id, [s.local_date])).get(s.local_date) ?? [];
  let seats = 0;
  let total = 0;
  for (const c of categories) {
    const n = quantities[c.id]!;
    const price = prices.find((p) => p.pricing_category === c.id);
    if (!price) throw new AppError('invalid', `${c.label} cannot be booked on this date: it has no price.`, 'quantities');
    if (c.occupies_seat) seats += n;
    total += n * price.retail_price;
  }
  return { seats, total, participants: ids.reduce((sum, id) => sum + quantities[id]!, 0) };
}

/**
 * Holds seats in a slot for a cart line. Everything that needs no lock is checked first (the
 * offer, cutoff, participants, prices); then one statement locks the slot's row, adds up what is
 * booked and held in it, and writes the line only if the seats are there — seats of confirmed
 * bookings plus seats held by unexpired lines never exceed the slot's capacity, and the lock is
 * held for that one statement and the commit.
 */
export async function holdSeats(ctx: TenantCtx, cartId: string, input: { slot: string; quantities: Record<string, number>; extras: Record<string, number> }, lineId?: string) {
  const [s] = await ctx.tx.select().from(slot).where(and(eq(slot.account_id, ctx.accountId), eq(slot.id, input.slot)));
  if (!s) throw new AppError('not_found', 'No such time slot.');
  const [exp] = await ctx.tx.select().from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, s.experience_id)));
  const settings = await accountSettings(ctx.tx, ctx.accountId);
  if (exp!.status !== 'Active') throw new AppError('invalid', 'This offer is not on sale.', 'slot');
  if (s.closed) throw new AppError('invalid', 'This time slot is closed.', 'slot');
  const cutoff = (exp!.booking_cutoff_minutes || settings.default_cutoff_minutes) * 60_000;
  if (s.starts_at.getTime() - cutoff <= Date.now()) throw new AppError('invalid', 'Bookings for this time slot have closed.', 'slot');
  const { seats, total, participants } = await seatsAndTotal(ctx, s, input.quantities);
  if (participants < exp!.min_participants) throw new AppError('invalid', `Book at least ${exp!.min_participants} participants.`, 'quantities');
  if (exp!.max_participants !== null && participants > exp!.max_participants) {
    throw new AppError('invalid', `Book at most ${exp!.max_participants} participants.`, 'quantities');
  }

  // The slot's row lock first, in its own statement: the statement that counts must start after
  // the lock is ours, or (in READ COMMITTED) it would count with a snapshot taken before the
  // previous holder committed, and oversell. The test in test/oversell.int.test.ts caught that.
  await lockSlot(ctx, s.id);
  const others = lineId ? sql`and l.id <> ${lineId}::uuid` : sql``;
  const quantities = JSON.stringify(input.quantities);
  const extras = JSON.stringify(input.extras);
  const write = lineId
    ? sql`update ${cartLine} set quantities = ${quantities}::jsonb, extras = ${extras}::jsonb, seats = ${seats}, total = ${total},
            expires_at = now() + make_interval(mins => ${settings.hold_minutes})
          from free where free.remaining >= ${seats} and ${cartLine.id} = ${lineId}::uuid returning ${cartLine.id} as id, free.remaining`
    : sql`insert into ${cartLine} (account_id, cart_id, slot_id, quantities, extras, seats, total, currency, expires_at)
          select ${ctx.accountId}::uuid, ${cartId}::uuid, ${s.id}::uuid, ${quantities}::jsonb, ${extras}::jsonb, ${seats}, ${total}, ${settings.currency},
                 now() + make_interval(mins => ${settings.hold_minutes})
          from free where free.remaining >= ${seats} returning id, (select remaining from free)`;
  const result = (await ctx.tx.execute(sql`
      with locked as (select capacity, booked from ${slot} where id = ${s.id}::uuid),
      free as (
        select locked.capacity - locked.booked - coalesce((
          select sum(l.seats) from ${cartLine} l where l.slot_id = ${s.id}::uuid and l.expires_at > now() ${others}), 0)::int as remaining
        from locked)
      ${write}`)) as unknown as { rows: { id: string | null; remaining: number }[] };
  if (result.rows.length === 0) {
    const held = (await heldBySlot(ctx.tx, [s.id])).get(s.id) ?? 0;
    const [own] = lineId ? await ctx.tx.select({ seats: cartLine.seats }).from(cartLine).where(eq(cartLine.id, lineId)) : [];
    const [fresh] = await ctx.tx.select({ capacity: slot.capacity, booked: slot.booked }).from(slot).where(eq(slot.id, s.id));
    const remaining = Math.max(0, fresh!.capacity - fresh!.booked - held + (own?.seats ?? 0));
    throw new AppError('sold_out', remaining <= 0 ? 'Sold out: no seats are left in this time slot.' : `Sold out: only ${remaining} seat${remaining === 1 ? '' : 's'} left in this time slot.`, 'quantities');
  }
}

export async function presentCart(ctx: TenantCtx, cartId: string): Promise<TCart> {
  const settings = await accountSettings(ctx.tx, ctx.accountId);
  const lines = await ctx.tx
    .select({ line: cartLine, starts_at: slot.starts_at, experience_id: slot.experience_id, title: experience.title })
    .from(cartLine)
    .innerJoin(slot, eq(slot.id, cartLine.slot_id))
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId), gt(cartLine.expires_at, sql`now()`)))
    .orderBy(asc(cartLine.created_at));
  return {
    id: cartId,
    lines: lines.map(({ line, starts_at, experience_id, title }) => ({
      id: line.id,
      slot: line.slot_id,
      experience: experience_id,
      experience_title: title,
      starts_at: starts_at.toISOString(),
      quantities: line.quantities,
      extras: line.extras,
      seats: line.seats,
      total: line.total,
      currency: line.currency,
      expires_at: line.expires_at.toISOString(),
    })),
    total: lines.reduce((sum, l) => sum + l.line.total, 0),
    currency: settings.currency,
    expires_at: lines.length ? new Date(Math.min(...lines.map((l) => l.line.expires_at.getTime()))).toISOString() : null,
  };
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
  if (lines.length === 0) throw new AppError('invalid', 'The cart is empty.');
  const slots = new Map<string, SlotRow>();
  for (const id of [...new Set(lines.map((l) => l.slot_id))].sort()) slots.set(id, await lockSlot(ctx, id));
  const now = Date.now();
  for (const line of lines.filter((l) => l.expires_at.getTime() <= now)) {
    // The hold ran out: the seats count only if they are still free.
    const s = slots.get(line.slot_id)!;
    const held = (await heldBySlot(ctx.tx, [s.id])).get(s.id) ?? 0;
    if (s.capacity - s.booked - held < line.seats) {
      throw new AppError('hold_expired', 'Your hold expired and the seats have been taken meanwhile. Choose another time.');
    }
  }
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

/** Changes a held line: its seats are checked against the slot again. */
export async function changeLine(ctx: TenantCtx, cartId: string, lineId: string, input: { quantities: Record<string, number>; extras: Record<string, number> }) {
  const line = await ownLine(ctx, cartId, lineId);
  await holdSeats(ctx, cartId, { slot: line.slot_id, ...input }, line.id);
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
