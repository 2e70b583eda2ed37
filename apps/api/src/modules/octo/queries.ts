import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKey, auditEvent, baseAccount, booking, cart, cartLine, experience, octoBooking, order, partnership, partnershipExperience, pricingCategory, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { askedQuestionsOf, type AskedQuestion } from '../orders/queries/experiences';
import type { Contract } from '../partners/contract';
import { rateNetOn } from '../partners/queries';
import { execute } from '../../db/execute';

/** The octo module's only access to the database. */

/** A unit of a product: a priced category. */
export interface UnitRow {
  id: string;
  label: string;
  type: string;
  occupies_seat: boolean;
  min_age: number | null;
  max_age: number | null;
  /** The lowest current retail price of the category for the product. */
  from_price: number;
  /** The net price of the rate that gives `from_price` (null when it has none): what a net-rate contract that leaves the category blank owes. */
  from_net: number | null;
  /** The category's label per language (localize()). */
  translations: Record<string, { label?: string }>;
}

/**
 * A reservation's row, locked FOR UPDATE: every change of one booking UUID (confirm, extend,
 * update, cancel) waits for the one before it, so two confirms of one UUID make one order — the
 * second finds it CONFIRMED. In a file of its own so a test can replace it (test/octo.int.test.ts
 * shows the race without the lock).
 */
export async function lockReservation(ctx: TenantCtx, uuid: string) {
  const [row] = await ctx.tx
    .select()
    .from(octoBooking)
    .where(and(eq(octoBooking.account_id, ctx.accountId), eq(octoBooking.uuid, uuid)))
    .for('update');
  return row;
}

// --- partners' keys (auth.ts; as tourdesk_server, outside any tenant) ----------------------------

/** The key of a secret's hash (not revoked) with its partnership, its supplier, whether both sides' plans have partners, the Active offers it shares and the supplier's seatless categories: one read (its languages are read by sellingLanguages(), organization/queries.ts). */
export async function partnerKeyRow(db: Db, hash: string) {
  const rows = (await execute<{
      key_id: string;
      prefix: string;
      contract: Contract & { created_at: string; updated_at: string; responded_at: string | null };
      name: string;
      subdomain: string;
      time_zone: string;
      default_cutoff_minutes: number;
      reseller_email: string | null;
      supplier_partners: boolean;
      reseller_partners: boolean;
      products: { id: string; title: string; short: string | null; duration: number | null; cutoff: number | null; net: Record<string, number>; manual: boolean; opening: boolean }[];
      seatless: string[];
    }>(db, sql`
    select k.id as key_id, k.prefix, row_to_json(p.*) as contract, a.name, a.subdomain, a.time_zone, a.default_cutoff_minutes,
           (select nullif(r.billing_email, '') from ${baseAccount} r where r.id = p.reseller_account_id) as reseller_email,
           tourdesk_has_partners(p.supplier_account_id) as supplier_partners, tourdesk_has_partners(p.reseller_account_id) as reseller_partners,
           coalesce((select json_agg(json_build_object('id', x.id, 'title', x.title, 'short', x.short_description, 'duration', x.duration_minutes,
                                                       'cutoff', x.booking_cutoff_minutes, 'net', pe.net_rates, 'manual', x.confirmation_mode = 'manual',
                                                       'opening', exists (select 1 from schedule_rule r where r.account_id = x.account_id and r.experience_id = x.id)
                                                                  and not exists (select 1 from schedule_rule r where r.account_id = x.account_id and r.experience_id = x.id and r.kind <> 'opening_hours')) order by x.title)
                     from ${partnershipExperience} pe join ${experience} x on x.id = pe.experience_id and x.account_id = pe.account_id
                     where pe.partnership_id = p.id and pe.account_id = k.account_id and x.status = 'Active'), '[]') as products,
           coalesce((select json_agg(c.id) from ${pricingCategory} c where c.account_id = k.account_id and not c.occupies_seat), '[]') as seatless
    from ${apiKey} k
    join ${partnership} p on p.id = k.partnership_id and p.supplier_account_id = k.account_id
    join ${baseAccount} a on a.id = k.account_id
    where k.secret_hash = ${hash} and k.revoked_at is null`));
  return rows.rows[0];
}

/** Writes a key's last_used_at, unless it was written in the last minute. */
export function touchKeyLastUsed(db: Db, keyId: string) {
  return db.execute(sql`update ${apiKey} set last_used_at = now() where id = ${keyId} and (last_used_at is null or last_used_at < now() - interval '1 minute')`);
}

// --- availability (availability.ts) ------------------------------------------------------------

/** The local days of some departures (by id, as text) of a product of the supplier's. */
export function departureDays(tx: Db, supplierId: string, productId: string, ids: string[]) {
  return tx.select({ day: slot.local_date }).from(slot).where(and(eq(slot.account_id, supplierId), eq(slot.experience_id, productId), sql`${slot.id}::text in ${ids}`));
}

// --- products (service.ts) ---------------------------------------------------------------------

/**
 * The units (priced categories, each at its lowest current retail price, with the net price of the
 * rate that gives it — of equal retail prices, the lowest net) of some products: one aggregate.
 */
export async function productUnits(ctx: TenantCtx, ids: string[]) {
  const units = (await execute<UnitRow & { experience_id: string }>(ctx.tx, sql`
      select r.experience_id, c.id, c.label, c.type, c.occupies_seat, c.min_age, c.max_age, c.translations, min(r.retail_price)::int as from_price,
             (array_agg(r.net_price order by r.retail_price, r.net_price nulls last))[1]::int as from_net
      from pricing_rate r join ${pricingCategory} c on c.id = r.pricing_category_id
      where r.account_id = ${ctx.accountId} and r.experience_id in ${ids} and (r.valid_to is null or r.valid_to >= tourdesk_today(${ctx.accountId}::uuid))
      group by r.experience_id, c.id, c.label, c.type, c.occupies_seat, c.min_age, c.max_age, c.translations`));
  return units.rows;
}

/** An offer's texts as OCTO's content capability serves them (each with its translations, for localize()). */
export interface ProductTexts {
  title: string;
  short_description: string;
  long_description: string;
  highlights: string[];
  inclusions: string[];
  exclusions: string[];
  what_to_bring: string[];
  important_information: string;
  meeting_instructions: string;
  voucher_text: string;
  translations: Record<string, Record<string, string | string[]>>;
}
/** A booking question as OCTO's questions capability serves it (localize() picks its language). */
export type ProductQuestion = AskedQuestion;
/** Some products' cancellation policy (rules and texts), their schedule's start times and their texts: one read. */
export async function productTerms(ctx: TenantCtx, ids: string[]) {
  const extra = (await execute<{
      id: string;
      rules: { hours_before: number; refund_percent: number }[] | null;
      policy: { name: string; description: string; translations: Record<string, { name?: string; description?: string }> } | null;
      texts: ProductTexts;
      times: string[];
      /** The offer's booking questions in the offer's order, each with its translations. */
      questions: ProductQuestion[];
      /** Its ready pictures in their order (octo/content's media). */
      images: { key: string; type: string; name: string }[];
      /** Its meeting points in their order (octo/content's locations). */
      points: { name: string; address: string; latitude: number | null; longitude: number | null; instructions: string }[];
    }>(ctx.tx, sql`
      select x.id, cp.rules,
             case when cp.id is null then null else json_build_object('name', cp.name, 'description', cp.description, 'translations', cp.translations) end as policy,
             json_build_object('title', x.title, 'short_description', x.short_description, 'long_description', x.long_description, 'highlights', x.highlights,
                               'inclusions', x.inclusions, 'exclusions', x.exclusions, 'what_to_bring', x.what_to_bring, 'important_information', x.important_information,
                               'meeting_instructions', x.meeting_instructions, 'voucher_text', x.voucher_text, 'translations', x.translations) as texts,
             coalesce((select array_agg(distinct t order by t) from schedule_rule s, unnest(s.start_times) t where s.account_id = x.account_id and s.experience_id = x.id), '{}') as times,
             ${askedQuestionsOf('x')} as questions,
             coalesce((select json_agg(json_build_object('key', i.storage_key, 'type', i.content_type, 'name', i.original_name) order by i.position)
                       from image i where i.account_id = x.account_id and i.experience_id = x.id and i.status = 'ready'), '[]') as images,
             coalesce((select json_agg(json_build_object('name', m.name, 'address', m.address, 'latitude', m.latitude, 'longitude', m.longitude, 'instructions', m.instructions) order by k.ord)
                       from unnest(x.meeting_point_ids) with ordinality k(id, ord)
                       join meeting_point m on m.account_id = x.account_id and m.id = k.id), '[]') as points
      from experience x left join cancellation_policy cp on cp.id = x.cancellation_policy_id
      where x.account_id = ${ctx.accountId} and x.id in ${ids}`));
  return extra.rows;
}

/** Which of some category ids (as text) have a rate for a product. */
export async function pricedUnitIds(ctx: TenantCtx, productId: string, ids: string[]) {
  const priced = (await execute<{ id: string }>(ctx.tx, sql`
    select distinct r.pricing_category_id::text as id from pricing_rate r
    where r.account_id = ${ctx.accountId} and r.experience_id = ${productId}::uuid and r.pricing_category_id::text in ${ids}`));
  return priced.rows;
}

// --- reservations (service.ts) -----------------------------------------------------------------

/** A reservation's row by its UUID, without a lock. */
export async function findReservation(ctx: TenantCtx, uuid: string) {
  const [row] = await ctx.tx.select().from(octoBooking).where(and(eq(octoBooking.account_id, ctx.accountId), eq(octoBooking.uuid, uuid)));
  return row;
}

/** A partnership's reservations by the reseller's reference or the order's (at most 100, oldest first). */
export function reservationsByReference(ctx: TenantCtx, partnershipId: string, q: { resellerReference?: string; supplierReference?: string }) {
  return ctx.tx
    .select({ b: octoBooking })
    .from(octoBooking)
    .leftJoin(order, eq(order.id, octoBooking.order_id))
    .where(
      and(
        eq(octoBooking.account_id, ctx.accountId),
        eq(octoBooking.partnership_id, partnershipId),
        q.resellerReference ? eq(octoBooking.reseller_reference, q.resellerReference) : undefined,
        q.supplierReference ? eq(order.reference, q.supplierReference) : undefined,
      ),
    )
    .orderBy(octoBooking.created_at)
    .limit(100);
}

/** Records a reservation; null when its UUID was taken at the same moment (at this supplier: the key is (account_id, uuid)). */
export async function insertReservation(ctx: TenantCtx, values: typeof octoBooking.$inferInsert) {
  const [row] = await ctx.tx.insert(octoBooking).values(values).onConflictDoNothing().returning();
  return row;
}

/** Changes a reservation's row by its UUID (unique per supplier: the key is (account_id, uuid)), and answers it. */
export async function updateReservation(ctx: TenantCtx, uuid: string, set: Partial<typeof octoBooking.$inferSelect>) {
  const [row] = await ctx.tx.update(octoBooking).set(set).where(and(eq(octoBooking.account_id, ctx.accountId), eq(octoBooking.uuid, uuid))).returning();
  return row;
}

/** An order's total. */
export async function orderTotal(ctx: TenantCtx, orderId: string) {
  const [o] = await ctx.tx.select({ total: order.total }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  return o?.total;
}

/** Whether an order's audit trail says it was confirmed: a `confirmed` entry, or a `created` one with status Confirmed. */
export async function everConfirmed(ctx: TenantCtx, orderId: string) {
  const [hit] = await ctx.tx
    .select({ id: auditEvent.id })
    .from(auditEvent)
    .where(and(eq(auditEvent.account_id, ctx.accountId), eq(auditEvent.order_id, orderId), sql`(${auditEvent.action} = 'confirmed' or (${auditEvent.action} = 'created' and ${auditEvent.changes}->>'status' = 'Confirmed'))`))
    .limit(1);
  return Boolean(hit);
}

/** A reservation's departure: its times, and the net prices of the rates that price its date (`rateNetOn`). */
export async function departureOf(ctx: TenantCtx, slotId: string) {
  const [s] = await ctx.tx
    .select({
      id: slot.id,
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      local_date: slot.local_date,
      local_time: slot.local_time,
      rate_net: sql<Record<string, number>>`${rateNetOn(sql`${slot.account_id}`, sql`${slot.experience_id}`, sql`${slot.local_date}`)}`,
    })
    .from(slot)
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.id, slotId)));
  return s;
}

/** A departure's local day (by id only). */
export async function departureDay(ctx: TenantCtx, slotId: string) {
  const [s] = await ctx.tx.select({ day: slot.local_date }).from(slot).where(eq(slot.id, slotId));
  return s;
}

/** A product's departure by its OCTO availability id (the slot's id as text), with its local day. */
export async function productDeparture(ctx: TenantCtx, productId: string, availabilityId: string) {
  const [s] = await ctx.tx
    .select({ id: slot.id, day: slot.local_date })
    .from(slot)
    .where(and(eq(slot.account_id, ctx.accountId), eq(slot.experience_id, productId), sql`${slot.id}::text = ${availabilityId}`));
  return s;
}

/** A booked reservation's booking with its order: items, status, ticket, commission, the order's reference and status. */
export async function bookingWithOrder(ctx: TenantCtx, bookingId: string) {
  const [b] = await ctx.tx
    .select({ items: booking.items, status: booking.status, ticket: booking.ticket_code, commission: booking.commission, answers: booking.answers, reference: order.reference, orderStatus: order.status })
    .from(booking)
    .innerJoin(order, eq(order.id, booking.order_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.id, bookingId)));
  return b;
}

/** The first booking of an order (a reservation's order has one). */
export async function firstBookingOf(ctx: TenantCtx, orderId: string) {
  const [sold] = await ctx.tx.select({ id: booking.id }).from(booking).where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId))).limit(1);
  return sold;
}

/** Writes the reseller's reference on an order. */
export function setOrderResellerReference(ctx: TenantCtx, orderId: string, reference: string | undefined) {
  return ctx.tx.update(order).set({ reseller_reference: reference }).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
}

// --- the reservation's cart (service.ts) -------------------------------------------------------

/** A cart of the supplier's for a reservation (its token hash made from the UUID). */
export async function insertCart(ctx: TenantCtx, tokenHash: string) {
  const [c] = await ctx.tx.insert(cart).values({ account_id: ctx.accountId, token_hash: tokenHash }).returning({ id: cart.id });
  return c;
}

/** Deletes a cart (its lines go with it). */
export function deleteCart(ctx: TenantCtx, cartId: string) {
  return ctx.tx.delete(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
}

/** A held line's items and expiry. */
export async function heldLine(ctx: TenantCtx, lineId: string) {
  const [line] = await ctx.tx.select({ items: cartLine.items, expires: cartLine.expires_at }).from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.id, lineId)));
  return line;
}

/** A held line's expiry. */
export async function lineExpiry(ctx: TenantCtx, lineId: string) {
  const [line] = await ctx.tx.select({ expires: cartLine.expires_at }).from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.id, lineId)));
  return line;
}

/** A held line's expiry (by id only: the line just held). */
export async function newLineExpiry(ctx: TenantCtx, lineId: string) {
  const [line] = await ctx.tx.select({ expires: cartLine.expires_at }).from(cartLine).where(eq(cartLine.id, lineId));
  return line;
}

/** A held line expires `minutes` from now. */
export function setLineExpiry(ctx: TenantCtx, lineId: string, minutes: number) {
  return ctx.tx.update(cartLine).set({ expires_at: sql`now() + make_interval(mins => ${minutes})` }).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.id, lineId)));
}

/** A line still held expires `minutes` from now; undefined when it had already expired. */
export async function extendLiveLine(ctx: TenantCtx, lineId: string, minutes: number) {
  const [line] = await ctx.tx
    .update(cartLine)
    .set({ expires_at: sql`now() + make_interval(mins => ${minutes})` })
    .where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.id, lineId), sql`${cartLine.expires_at} > now()`))
    .returning({ expires: cartLine.expires_at });
  return line;
}
