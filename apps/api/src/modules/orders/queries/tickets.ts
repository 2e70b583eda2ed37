import { and, asc, eq, inArray } from 'drizzle-orm';
import { baseAccount, booking, cancellationPolicy, customer, experience, inventoryItem, meetingPoint, order, pricingCategory, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { asGiven } from './customers';

/** What an order's customer sees: its tickets and confirmation, and the booking page of a web order. */

/** The order with its customer as given with it (`asGiven`) and the organisation's name, zone, ticket fields, time format and languages; undefined when not the organisation's. */
export async function orderForTickets(ctx: TenantCtx, orderId: string) {
  const [o] = await ctx.tx
    .select({ o: order, c: customer, organisation: baseAccount.name, zone: baseAccount.time_zone, fields: baseAccount.ticket_fields, timeFormat: baseAccount.time_format })
    .from(order)
    .innerJoin(customer, eq(customer.id, order.customer_id))
    .innerJoin(baseAccount, eq(baseAccount.id, order.account_id))
    .where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  return o && { ...o, c: asGiven(o.o, o.c) };
}

/** Every booking of the order (cancelled ones too), by start, with its offer's title (and its translations), meeting points and duration. */
export function ticketBookingRows(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, orderId: string) {
  return ctx.tx
    .select({ b: booking, title: experience.title, translations: experience.translations, starts: slot.starts_at, points: experience.meeting_point_ids, minutes: experience.duration_minutes })
    .from(booking)
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId)))
    .orderBy(asc(slot.starts_at), asc(booking.id));
}

/** The order with its customer as given with it (`asGiven`: a web order's head); undefined when not the organisation's. */
export async function orderWithCustomer(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, orderId: string) {
  const [o] = await ctx.tx.select({ o: order, c: customer }).from(order).innerJoin(customer, eq(customer.id, order.customer_id)).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  return o && { ...o, c: asGiven(o.o, o.c) };
}

/** Every booking of the order (cancelled ones too), by start, with its offer's title, meeting points and cancellation policy rules. */
export function webOrderBookingRows(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, orderId: string) {
  return ctx.tx
    .select({ b: booking, title: experience.title, starts: slot.starts_at, points: experience.meeting_point_ids, policy: cancellationPolicy.rules })
    .from(booking)
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .leftJoin(cancellationPolicy, eq(cancellationPolicy.id, experience.cancellation_policy_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId)))
    .orderBy(asc(slot.starts_at), asc(booking.id));
}

/** These meeting points of the organisation (one query). */
export function meetingPointsByIds(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, ids: string[]) {
  return ctx.tx.select().from(meetingPoint).where(and(eq(meetingPoint.account_id, ctx.accountId), inArray(meetingPoint.id, ids)));
}

/** The translations of the pricing categories' labels and the extras' names sold (by id), for tickets in the customer's language. */
export async function soldLabelTranslations(ctx: Pick<TenantCtx, 'tx' | 'accountId'>, categoryIds: string[], extraIds: string[]) {
  const categories = categoryIds.length
    ? await ctx.tx.select({ id: pricingCategory.id, label: pricingCategory.label, translations: pricingCategory.translations }).from(pricingCategory).where(and(eq(pricingCategory.account_id, ctx.accountId), inArray(pricingCategory.id, categoryIds)))
    : [];
  const extras = extraIds.length
    ? await ctx.tx.select({ id: inventoryItem.id, name: inventoryItem.name, translations: inventoryItem.translations }).from(inventoryItem).where(and(eq(inventoryItem.account_id, ctx.accountId), inArray(inventoryItem.id, extraIds)))
    : [];
  return { categories, extras };
}
