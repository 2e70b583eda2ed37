import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { baseAccount, booking, customer, experience, order, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { givenCustomer } from '../orders/queries/customers';

/**
 * The manifests' reads, each one statement whatever the number of bookings: the departures (one
 * slot, or every slot of a local date), the bookings of those departures with their orders and
 * customers, and the text of the questions they answered.
 */

export async function organisationZone(ctx: TenantCtx) {
  const [row] = await ctx.tx.select({ zone: baseAccount.time_zone, currency: baseAccount.currency, name: baseAccount.name }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return row ?? { zone: 'UTC', currency: ctx.currency, name: '' };
}

const departureColumns = {
  id: slot.id,
  experience: slot.experience_id,
  title: experience.title,
  starts_at: slot.starts_at,
  ends_at: slot.ends_at,
  local_date: slot.local_date,
  local_time: slot.local_time,
  capacity: slot.capacity,
  closed: slot.closed,
  /** Its assigned guides (tourdesk_guides_of(), 07-guides.sql). */
  guides: sql<{ id: string; name: string }[]>`tourdesk_guides_of(${slot.id})`,
  /** The offer's required booking questions (what missingAnswers() checks a booking against). */
  required_questions: sql<{ id: string; question: string; required: boolean }[]>`coalesce((select json_agg(json_build_object('id', bq.id, 'question', bq.question, 'required', bq.required))
    from booking_question bq where bq.account_id = ${experience.account_id} and bq.id = any(${experience.booking_question_ids}) and bq.required), '[]')`,
};

/** One departure (404 is the caller's when it is not the organisation's). */
export async function departure(ctx: TenantCtx, slotId: string) {
  return ctx.tx
    .select(departureColumns)
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.id, slotId)));
}

/** Every departure of a local date, by start then offer (index slot_account_day_idx). */
export async function departuresOn(ctx: TenantCtx, date: string) {
  return ctx.tx
    .select(departureColumns)
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.local_date, date)))
    .orderBy(asc(slot.starts_at), asc(experience.title), asc(slot.id));
}
export type Departure = Awaited<ReturnType<typeof departuresOn>>[number];

/** The given departures, by start then offer (a guide's own: guides/service.ts). */
export async function departuresIn(ctx: TenantCtx, slotIds: string[]) {
  if (slotIds.length === 0) return [];
  return ctx.tx
    .select(departureColumns)
    .from(slot)
    .innerJoin(experience, eq(experience.id, slot.experience_id))
    .where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, slotIds)))
    .orderBy(asc(slot.starts_at), asc(experience.title), asc(slot.id));
}

/** The bookings (not cancelled) of the given departures, by guest name (index booking_slot_idx). */
export async function bookingsOf(ctx: TenantCtx, slotIds: string[]) {
  if (slotIds.length === 0) return [];
  return ctx.tx
    .select({
      id: booking.id,
      slot: booking.slot_id,
      order: booking.order_id,
      reference: order.reference,
      ticket_code: booking.ticket_code,
      status: booking.status,
      attendance: booking.attendance,
      checked_in_at: booking.checked_in_at,
      seats: booking.seats,
      items: booking.items,
      answers: booking.answers,
      currency: booking.currency,
      order_total: order.total,
      order_paid: order.paid,
      order_notes: order.notes,
      // The details given with the order, over the customer's record.
      first_name: givenCustomer.first_name,
      last_name: givenCustomer.last_name,
      email: givenCustomer.email,
      phone: givenCustomer.phone,
      customer_notes: customer.notes,
    })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .where(and(eq(booking.account_id, ctx.accountId), inArray(booking.slot_id, slotIds), ne(booking.status, 'Canceled')))
    .orderBy(sql`lower(${givenCustomer.last_name})`, sql`lower(${givenCustomer.first_name})`, asc(booking.created_at), asc(booking.id));
}
export type ManifestRow = Awaited<ReturnType<typeof bookingsOf>>[number];


/** A booking's order, status and ticket code, for its ticket (undefined when it is not the organisation's). */
export async function bookingTicketOf(ctx: TenantCtx, bookingId: string) {
  const [b] = await ctx.tx.select({ order: booking.order_id, status: booking.status, code: booking.ticket_code }).from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, bookingId)));
  return b;
}
