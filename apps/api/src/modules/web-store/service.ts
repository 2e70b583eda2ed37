import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import { seatsForSale, type TCart, type TSlot, type TWebCart, type TWebDay, type TWebMonth, type TWebOffer, type TWebOfferSummary, type TWebStore } from '@tourdesk/contracts';
import type { z } from 'zod';
import type { ZWebOrderInput } from '@tourdesk/contracts';
import {
  baseAccount,
  bookingQuestion,
  cancellationPolicy,
  cart,
  cartLine,
  experience,
  image,
  inventoryItem,
  meetingPoint,
  onlineCheckout,
  order,
  partnership,
  paymentAccount,
  pricingCategory,
  slot,
  store,
  storeVisit,
} from '../../db/schema';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { requestHost } from '../../lib/host';
import { addDays, todayIn } from '../../lib/local-time';
import { readCart, releaseLine } from '../availability/holds';
import { availabilityJson } from '../availability/slots';
import { mediaUrl } from '../media/images';
import { checkout } from '../orders/bookings';
import { cancelOrder } from '../orders/service';
import { closeOpenPayments } from '../payments/online';
import { contractRefusal } from '../partners/contract';
import { contractOfCart, markResale } from '../partners/resale';
import { inSeller, type FoundStore, type WebCtx } from '../stores/scope';
import { presentWebOrder } from '../orders/web-order';

/**
 * The public web store: what a customer without an account sees and does at /s/{slug}/ on the
 * organisation's host. Every call finds the organisation by the host and the store by its address
 * (active stores only), then works inside that organisation's transaction (row-level security).
 * The guest cart is proven by a secret the page keeps (X-Cart-Token), never a cookie: carts survive
 * in a frame on another site whose browser blocks third-party cookies.
 */

// The store's scope (stores/scope.ts), with the finders below: the web store's pages and routes take both from here.
export { inSeller, type FoundStore, type WebCtx };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const secret = () => randomBytes(24).toString('base64url');
function sameSecret(given: string | undefined, hash: string | null) {
  if (!given || !hash) return false;
  const a = Buffer.from(sha256(given), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

/** The active store at this host and address (read on the server's connection), or a 404. */
export async function storeByHost(request: FastifyRequest, slug: string): Promise<FoundStore> {
  const { subdomain } = requestHost(request);
  if (!subdomain) throw notFound('No store here.');
  const [found] = await request.server.database.db
    .select({ s: store, zone: baseAccount.time_zone, name: baseAccount.name, subdomain: baseAccount.subdomain })
    .from(store)
    .innerJoin(baseAccount, eq(baseAccount.id, store.account_id))
    .where(and(eq(baseAccount.subdomain, subdomain), eq(store.slug, slug), eq(store.active, true)));
  if (!found) throw notFound('This store does not exist or is closed.');
  return found;
}

/** Runs `fn` in the store's own organisation, the store found by host and address; 404 when there is none. */
export async function inStore<T>(request: FastifyRequest, slug: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(request, slug);
  return inSeller(request.server.database.db, found, found.s.account_id, fn);
}

/** One offer the store sells now (tourdesk_store_offers: its own, or a partner's), or null. */
async function storeOffer(db: Db, storeId: string, experienceId: string) {
  const [row] = rowsOf<{ seller: string; partnership: string | null }>(
    await db.execute(sql`select seller_account_id as seller, partnership_id as partnership from tourdesk_store_offers(${storeId}::uuid) where experience_id = ${experienceId}::uuid`),
  );
  return row ?? null;
}

/** Runs `fn` in the books of the organisation that sells offer `id` in this store; 404 when the store does not sell it. */
export async function inOfferSeller<T>(request: FastifyRequest, slug: string, id: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(request, slug);
  const o = await storeOffer(request.server.database.db, found.s.id, id);
  if (!o) throw notFound('This offer is not sold in this store.');
  return inSeller(request.server.database.db, found, o.seller, fn);
}

/**
 * Runs `fn` in the books of a guest cart of this store: carts of the store's own offers are its
 * organisation's, carts of a partner's offers the supplier's (where their seats are held). 404 for
 * a cart of another store; the cart's secret is checked in `fn` (ownCart).
 */
export async function inCart<T>(request: FastifyRequest, slug: string, cartId: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(request, slug);
  const db = request.server.database.db;
  const [row] = await db.select({ account: cart.account_id }).from(cart).where(and(eq(cart.id, cartId), eq(cart.store_id, found.s.id)));
  if (!row) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  return inSeller(db, found, row.account, fn);
}

/** Runs `fn` in the books of an online payment made in this store (the seller's: a partner's offers are paid to the supplier); 404 for another store's. */
export async function inCheckout<T>(request: FastifyRequest, slug: string, checkoutId: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(request, slug);
  const db = request.server.database.db;
  const [row] = await db.select({ account: onlineCheckout.account_id }).from(onlineCheckout).where(and(eq(onlineCheckout.id, checkoutId), eq(onlineCheckout.store_id, found.s.id)));
  if (!row) throw notFound('No payment with this id.');
  return inSeller(db, found, row.account, fn);
}

/** Runs `fn` in the books of the customer's order (by reference and the secret of their link); 404 for anything else. */
export async function inOrder<T>(request: FastifyRequest, slug: string, reference: string, token: string | undefined, fn: (ctx: WebCtx, orderId: string) => Promise<T>): Promise<T> {
  const found = await storeByHost(request, slug);
  const db = request.server.database.db;
  // A reference is unique per organisation: the store's own order and a partner's may share one; the secret tells.
  const rows = await db.select({ id: order.id, account: order.account_id, hash: order.manage_token_hash }).from(order).where(and(eq(order.store_id, found.s.id), eq(order.reference, reference)));
  const mine = rows.find((r) => sameSecret(token, r.hash));
  if (!mine) throw notFound('No order with this reference and link.');
  return inSeller(db, found, mine.account, (ctx) => fn(ctx, mine.id));
}

/**
 * The hot, read-only calls (a month, a day of times) skip the transaction: a store found by host
 * and address is kept for two seconds in this process with the offers it sells (tourdesk_store_offers:
 * each with the organisation whose slots it uses, and a partner's contract validity), and the slots
 * come from one statement that enters the seller's tenant scope itself (tourdesk_availability), as
 * the back office's calendar does. A store closed or an offer taken off it shows for two more seconds.
 */
interface PublicOffer {
  seller: string;
  zone: string;
  validFrom: string | null;
  validTo: string | null;
}
interface PublicStore {
  accountId: string;
  timeZone: string;
  offers: Map<string, PublicOffer>;
  expires: number;
}
const publicStores = new Map<string, PublicStore>();
const PUBLIC_STORE_TTL_MS = 2_000;

export async function publicStore(request: FastifyRequest, slug: string): Promise<PublicStore> {
  const { subdomain } = requestHost(request);
  if (!subdomain) throw notFound('No store here.');
  const key = `${subdomain}/${slug}`;
  const now = Date.now();
  const known = publicStores.get(key);
  if (known && known.expires > now) return known;
  const [row] = rowsOf<{ account_id: string; time_zone: string; offers: { id: string; seller: string; zone: string; valid_from: string | null; valid_to: string | null }[] }>(
    await request.server.database.db.execute(sql`
    select s.account_id, a.time_zone,
      coalesce((select json_agg(json_build_object('id', o.experience_id, 'seller', o.seller_account_id, 'zone', sa.time_zone, 'valid_from', p.valid_from, 'valid_to', p.valid_to))
                from tourdesk_store_offers(s.id) o join ${baseAccount} sa on sa.id = o.seller_account_id left join ${partnership} p on p.id = o.partnership_id), '[]') as offers
    from ${store} s join ${baseAccount} a on a.id = s.account_id
    where a.subdomain = ${subdomain} and s.slug = ${slug} and s.active`),
  );
  if (!row) {
    publicStores.delete(key);
    throw notFound('This store does not exist or is closed.');
  }
  if (publicStores.size > 10_000) publicStores.clear();
  const offers = new Map(row.offers.map((o) => [o.id, { seller: o.seller, zone: o.zone, validFrom: o.valid_from, validTo: o.valid_to }]));
  const found = { accountId: row.account_id, timeZone: row.time_zone, offers, expires: now + PUBLIC_STORE_TTL_MS };
  publicStores.set(key, found);
  return found;
}

export function presentWebStore(ctx: WebCtx, logoKey: string | null, onlineReady: boolean): TWebStore {
  const s = ctx.store;
  return {
    slug: s.slug,
    name: s.name,
    organisation: ctx.organisation,
    intro: s.intro,
    logo_url: mediaUrl(logoKey),
    primary_color: s.primary_color,
    currency: s.currency,
    terms_url: s.terms_url,
    contact_email: s.contact_email,
    contact_phone: s.contact_phone,
    // Online payment only while the platform has Stripe and the organisation's account can charge.
    payment_options: (s.payment_options as TWebStore['payment_options']).filter((o) => o !== 'online' || onlineReady),
  };
}

/** Whether this organisation can take online payments now. */
export async function onlineReady(ctx: TenantCtx, platformHasStripe: boolean) {
  if (!platformHasStripe) return false;
  const [row] = await ctx.tx.select({ ok: paymentAccount.charges_enabled }).from(paymentAccount).where(eq(paymentAccount.account_id, ctx.accountId));
  return Boolean(row?.ok);
}

export async function webStore(ctx: WebCtx, platformHasStripe: boolean): Promise<TWebStore> {
  const logo = ctx.store.logo_image_id
    ? (await ctx.tx.select({ key: image.storage_key }).from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.id, ctx.store.logo_image_id))))[0]?.key ?? null
    : null;
  return presentWebStore(ctx, logo, await onlineReady(ctx, platformHasStripe));
}

/** How many offers the store sells now (tourdesk_store_offers, on the server's connection). */
export async function countOffers(db: Db, storeId: string) {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from tourdesk_store_offers(${storeId}::uuid)`));
  return Number(row?.n ?? 0);
}

/**
 * A page of the offers the store sells, in its order, its own and its partners' alike: one query
 * on the server's connection over tourdesk_store_offers (which filters every row by the store, its
 * organisation and its contracts), each offer's cover and from price read in its seller's rows.
 */
export async function offers(db: Db, found: Pick<FoundStore, 's'>, limit: number, offset: number): Promise<TWebOfferSummary[]> {
  const rows = rowsOf<{ id: string; title: string; short_description: string; duration_minutes: number | null; time_zone: string; seller: string; partnership: string | null; cover: string | null; from_price: number | null }>(
    await db.execute(sql`
      select x.id, x.title, x.short_description, x.duration_minutes, sa.time_zone, sa.name as seller, o.partnership_id as partnership,
             (select i.storage_key from ${image} i where i.account_id = x.account_id and i.experience_id = x.id and i.status = 'ready' order by i.position limit 1) as cover,
             tourdesk_from_price(x.account_id, x.id) as from_price
      from tourdesk_store_offers(${found.s.id}::uuid) o join ${experience} x on x.id = o.experience_id join ${baseAccount} sa on sa.id = x.account_id
      order by o.position, o.title, x.id
      limit ${limit} offset ${offset}`),
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    short_description: r.short_description,
    image_url: mediaUrl(r.cover),
    duration_minutes: r.duration_minutes,
    from_price: r.from_price === null ? null : Number(r.from_price),
    currency: found.s.currency,
    time_zone: r.time_zone,
    operated_by: r.partnership ? r.seller : null,
  }));
}

const coverKey = sql<string | null>`(select i.storage_key from ${image} i where i.account_id = ${experience.account_id} and i.experience_id = ${experience.id} and i.status = 'ready' order by i.position limit 1)`;
const fromPrice = sql<number | null>`tourdesk_from_price(${experience.account_id}, ${experience.id})`;

function summary(ctx: WebCtx, e: typeof experience.$inferSelect, cover: string | null, from: number | string | null): TWebOfferSummary {
  return {
    id: e.id,
    title: e.title,
    short_description: e.short_description,
    image_url: mediaUrl(cover),
    duration_minutes: e.duration_minutes,
    from_price: from === null ? null : Number(from),
    currency: ctx.currency,
    time_zone: ctx.timeZone,
    operated_by: ctx.partner?.supplier ?? null,
  };
}

/**
 * One offer with everything its page shows, read in its seller's books (ctx from inOfferSeller,
 * which found it among what the store sells); 404 unless it is still on sale.
 */
export async function offer(ctx: WebCtx, id: string): Promise<TWebOffer> {
  const [row] = await ctx.tx
    .select({ e: experience, cover: coverKey, from: fromPrice })
    .from(experience)
    .where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, id), eq(experience.status, 'Active')));
  if (!row) throw notFound('This offer is not sold in this store.');
  const e = row.e;
  const [images, points, policy, categories, extras, questions] = await Promise.all([
    ctx.tx.select().from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, id), eq(image.status, 'ready'))).orderBy(asc(image.position)),
    e.meeting_point_ids.length ? ctx.tx.select().from(meetingPoint).where(and(eq(meetingPoint.account_id, ctx.accountId), inArray(meetingPoint.id, e.meeting_point_ids))) : [],
    e.cancellation_policy_id ? ctx.tx.select().from(cancellationPolicy).where(and(eq(cancellationPolicy.account_id, ctx.accountId), eq(cancellationPolicy.id, e.cancellation_policy_id))) : [],
    ctx.tx.execute(sql`
      select distinct c.id, c.label, c.type, c.occupies_seat, c.min_age, c.max_age
      from pricing_rate r join ${pricingCategory} c on c.id = r.pricing_category_id
      where r.account_id = ${ctx.accountId} and r.experience_id = ${id}::uuid and (r.valid_to is null or r.valid_to >= current_date)`) as unknown as Promise<{ rows: { id: string; label: string; type: string; occupies_seat: boolean; min_age: number | null; max_age: number | null }[] }>,
    e.extra_item_ids.length ? ctx.tx.select().from(inventoryItem).where(and(eq(inventoryItem.account_id, ctx.accountId), inArray(inventoryItem.id, e.extra_item_ids))) : [],
    e.booking_question_ids.length ? ctx.tx.select().from(bookingQuestion).where(and(eq(bookingQuestion.account_id, ctx.accountId), inArray(bookingQuestion.id, e.booking_question_ids))) : [],
  ]);
  // Adults first, then by age, then by name: the order people read a price list in.
  const rank = (type: string) => ['Adult', 'Senior', 'Teenager', 'Child', 'Infant'].indexOf(type) >>> 0;
  const cats = (await categories).rows.sort((a, b) => rank(a.type) - rank(b.type) || a.label.localeCompare(b.label));
  const byIdOrder = <T extends { id: string }>(list: T[], ids: string[]) => [...list].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const p = policy[0];
  return {
    ...summary(ctx, e, row.cover, row.from),
    long_description: e.long_description,
    highlights: e.highlights,
    inclusions: e.inclusions,
    exclusions: e.exclusions,
    what_to_bring: e.what_to_bring,
    important_information: e.important_information,
    meeting_instructions: e.meeting_instructions,
    images: images.map((i) => ({ url: mediaUrl(i.storage_key)!, thumbnail_url: mediaUrl(i.thumbnail_key), width: i.width, height: i.height })),
    meeting_points: byIdOrder(points, e.meeting_point_ids).map((m) => ({ name: m.name, address: m.address, latitude: m.latitude, longitude: m.longitude })),
    cancellation_policy: p ? { name: p.name, description: p.description, rules: p.rules } : null,
    categories: cats.map((c) => ({ id: c.id, label: c.label, type: c.type, occupies_seat: c.occupies_seat, min_age: c.min_age, max_age: c.max_age })),
    extras: byIdOrder(extras, e.extra_item_ids).map((x) => ({ id: x.id, name: x.name, description: x.description, price: x.price })),
    questions: byIdOrder(questions, e.booking_question_ids).map((q) => ({ id: q.id, question: q.question, answer_type: q.answer_type, required: q.required, options: q.choices })),
    min_participants: e.min_participants,
    max_participants: e.max_participants,
  };
}

/**
 * The offer's slots between two local dates, from the one definition of seats and open for sale,
 * in its seller's books; a partner's offer only on the days its contract is valid (contractRefusal).
 */
async function slotsBetween(db: Db, shop: PublicStore, id: string, from: string, to: string) {
  const o = shop.offers.get(id);
  if (!o) throw notFound('This offer is not sold in this store.');
  const slots = JSON.parse(await availabilityJson(db, o.seller, id, from, to)) as TSlot[];
  return o.seller === shop.accountId ? slots : slots.filter((s) => contractRefusal({ status: 'Active', valid_from: o.validFrom, valid_to: o.validTo }, s.local_date) === null);
}

/** A month: each day with times customers can book, and how many seats they have in all. */
export async function month(db: Db, shop: PublicStore, id: string, monthKey: string): Promise<TWebMonth> {
  const o = shop.offers.get(id);
  if (!o) throw notFound('This offer is not sold in this store.');
  const first = `${monthKey}-01`;
  const last = addDays(addDays(first, 31).slice(0, 7) + '-01', -1);
  const today = todayIn(o.zone);
  const days = new Map<string, { date: string; seats_left: number; times: number }>();
  if (last >= today) {
    for (const s of await slotsBetween(db, shop, id, first < today ? today : first, last)) {
      if (!s.bookable && s.status !== 'sold_out') continue;
      const day = days.get(s.local_date) ?? { date: s.local_date, seats_left: 0, times: 0 };
      day.seats_left += seatsForSale(s);
      day.times += 1;
      days.set(s.local_date, day);
    }
  }
  return { month: monthKey, time_zone: o.zone, days: [...days.values()] };
}

/** A day's start times with their seats left and prices (sold-out times included, to be shown as such). */
export async function day(db: Db, shop: PublicStore, id: string, date: string): Promise<TWebDay> {
  const slots = (await slotsBetween(db, shop, id, date, date)).filter((s) => s.bookable || s.status === 'sold_out');
  return {
    date,
    time_zone: shop.offers.get(id)!.zone,
    slots: slots.map((s) => ({
      id: s.id,
      starts_at: s.starts_at,
      local_time: s.local_time,
      seats_left: seatsForSale(s),
      prices: s.prices.map((p) => ({ category: p.pricing_category, price: p.retail_price })),
    })),
  };
}

/** A visit (one browser session's), counted once per day. */
export async function recordVisit(ctx: WebCtx, visitId: string) {
  await ctx.tx
    .insert(storeVisit)
    .values({ account_id: ctx.accountId, store_id: ctx.store.id, visit_id: visitId, day: todayIn(ctx.timeZone) })
    .onConflictDoNothing();
}

// --- the guest cart --------------------------------------------------------------------------

export async function createCart(ctx: WebCtx) {
  const token = secret();
  const [row] = await ctx.tx.insert(cart).values({ account_id: ctx.accountId, store_id: ctx.store.id, token_hash: sha256(token) }).returning({ id: cart.id });
  return { id: row!.id, token };
}

/** The guest cart, if the page's secret is its own (else 404: a cart is not guessable). */
export async function ownCart(ctx: WebCtx, cartId: string, token: string | undefined) {
  const [row] = await ctx.tx.select().from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId), eq(cart.store_id, ctx.store.id)));
  if (!row || !sameSecret(token, row.token_hash)) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  return row;
}

/** The cart as the web store shows it. */
export function presentWebCart(ctx: WebCtx, c: TCart, payableOnline: boolean): TWebCart {
  return {
    payable_online: payableOnline,
    id: c.id,
    currency: c.currency,
    total: c.total,
    expires_at: c.expires_at,
    sold_by: ctx.partner?.supplier ?? null,
    lines: c.lines.map((l) => ({
      id: l.id,
      offer: l.experience,
      offer_title: l.experience_title,
      starts_at: l.starts_at,
      time_zone: ctx.timeZone,
      items: l.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity, unit_price: i.unit_price })),
      seats: l.seats,
      total: l.total,
      expires_at: l.expires_at,
    })),
  };
}

export async function webCart(ctx: WebCtx, cartId: string, platformHasStripe: boolean) {
  return presentWebCart(ctx, await readCart(ctx, cartId), await payableOnline(ctx, platformHasStripe));
}

/**
 * Whether a cart of this seller may be paid online in this store: the store offers it, the
 * seller's account (ctx's: the supplier's for a partner's offers) takes charges, and a partner's
 * contract says the supplier collects — the money goes to the seller's account, never another's.
 */
export async function payableOnline(ctx: WebCtx, platformHasStripe: boolean) {
  if (!ctx.store.payment_options.includes('online') || !(await onlineReady(ctx, platformHasStripe))) return false;
  if (!ctx.partner) return true;
  const [p] = await ctx.tx.select({ collector: partnership.payment_collector }).from(partnership).where(eq(partnership.id, ctx.partner.partnershipId));
  return p?.collector === 'supplier';
}

/** Gives a guest line's seats back (the slot locked first, as every writer). */
export const releaseGuestLine = (ctx: WebCtx, cartId: string, lineId: string) => releaseLine(ctx, cartId, lineId);

/**
 * Where a hold of `slotId` goes in this store: the organisation that sells the slot's offer here
 * (its own, or a partner's under their contract), with the offer and the slot's local date. A slot
 * of an offer the store does not sell is a 400.
 */
export async function slotSeller(db: Db, found: FoundStore, slotId: string) {
  const [row] = rowsOf<{ seller: string; partnership: string | null; experience: string; day: string }>(
    await db.execute(sql`
      select o.seller_account_id as seller, o.partnership_id as partnership, s.experience_id as experience, s.local_date::text as day
      from ${slot} s join tourdesk_store_offers(${found.s.id}::uuid) o on o.experience_id = s.experience_id and o.seller_account_id = s.account_id
      where s.id = ${slotId}::uuid`),
  );
  if (!row) throw new AppError('invalid', 'This time is not sold in this store.', 'slot');
  return row;
}

/**
 * A cart holds the offers of one seller (the orders it becomes are that seller's). An empty cart
 * moves to the seller of the line it is about to hold: a new cart in the seller's books with the
 * same secret (the page keeps its token, and takes the new id from the answer). A cart that holds
 * another seller's lines is a 409 that says what to do.
 */
export async function cartFor(db: Db, found: FoundStore, cartId: string, token: string | undefined, sellerId: string): Promise<string> {
  const [row] = await db.select({ account: cart.account_id }).from(cart).where(and(eq(cart.id, cartId), eq(cart.store_id, found.s.id)));
  if (!row) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  if (row.account === sellerId) return cartId;
  const moved = await inSeller(db, found, row.account, async (ctx) => {
    const c = await ownCart(ctx, cartId, token);
    const [held] = await ctx.tx.select({ n: count() }).from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId)));
    if (Number(held?.n ?? 0) > 0) {
      throw new AppError('conflict', `Your cart holds offers of ${ctx.partner?.supplier ?? ctx.organisation}: book them first, or remove them, then add this one.`, 'slot');
    }
    await ctx.tx.delete(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
    return c.token_hash;
  });
  return inSeller(db, found, sellerId, async (ctx) => {
    const [made] = await ctx.tx.insert(cart).values({ account_id: ctx.accountId, store_id: ctx.store.id, token_hash: moved }).returning({ id: cart.id });
    return made!.id;
  });
}

// --- the order -------------------------------------------------------------------------------

/**
 * The customer's order from their guest cart: exactly the lines they saw (checkout, the same rule
 * as the counter's), in the store, without a seller; terms accepted and a payment option the store
 * offers. Queues its confirmation (and the organisation's new-booking e-mail) in the same
 * transaction. Answers the order and the secret of its "my booking" page.
 */
export async function placeOrder(
  ctx: WebCtx,
  input: z.output<typeof ZWebOrderInput>,
  token: string | undefined,
  queue: (tx: Db, job: { kind: 'confirmation' | 'store-notification'; order: string; manage?: string }) => Promise<void>,
  stripe: Stripe | null,
) {
  if (input.payment_option === 'online') throw new AppError('invalid', 'An online payment starts at POST …/payments/: the order is made once it is paid.', 'payment_option');
  if (!ctx.store.payment_options.includes(input.payment_option)) throw new AppError('invalid', 'This store does not offer this way to pay.', 'payment_option');
  await ownCart(ctx, input.cart, token);
  // An online payment still open for the cart ends first (its page in another tab could otherwise
  // book the same seats again once paid); one already paid refuses this booking.
  await closeOpenPayments(ctx, stripe, input.cart);
  const resold = ctx.partner ? await contractOfCart(ctx, ctx.partner.partnershipId, input.cart, input.lines) : null;
  const manage = secret();
  const orderId = await checkout(ctx, input.cart, null, {
    customer: { ...input.customer, country: input.customer.country ?? null },
    answers: input.answers,
    lines: input.lines,
    storeId: ctx.store.id,
    manageTokenHash: sha256(manage),
  } as Parameters<typeof checkout>[3]);
  // A partner's offers: the supplier's order, named as resold by the store's organisation, each line's commission fixed now.
  if (resold) await markResale(ctx, orderId, resold.contract, resold.rates, null, { store: ctx.store.id });
  await queue(ctx.tx, { kind: 'confirmation', order: orderId, manage });
  if (ctx.store.notify_new_bookings && ctx.store.notify_email) await queue(ctx.tx, { kind: 'store-notification', order: orderId });
  return { orderId, manage };
}

/**
 * The customer cancels their order, when its policy allows it now: the organisation keeps what was
 * paid less the policy's refund as the order's cancellation fee (cancelOrder reads the same rule
 * again under the order's lock), the rest is due back to the customer.
 */
export async function cancelByCustomer(ctx: WebCtx, orderId: string, manageUrl: (reference: string) => string) {
  const current = await presentWebOrder(ctx, orderId, manageUrl);
  if (!current.cancellation.allowed) throw new AppError('conflict', current.cancellation.reason);
  await cancelOrder(ctx, orderId, { keepCancellationFee: true });
  return presentWebOrder(ctx, orderId, manageUrl);
}

/**
 * A new secret for a web order's booking page (staff send the customer's confirmation again): its
 * hash replaces the old one, so the link of earlier e-mails stops working. Answers the secret.
 */
export async function renewManageSecret(ctx: TenantCtx, orderId: string) {
  const manage = secret();
  await ctx.tx.update(order).set({ manage_token_hash: sha256(manage) }).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  return manage;
}
