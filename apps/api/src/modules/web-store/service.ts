import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import type { TCart, TSlot, TWebCart, TWebDay, TWebMonth, TWebOffer, TWebOfferSummary, TWebOrder, TWebStore } from '@tourdesk/contracts';
import type { z } from 'zod';
import type { ZWebOrderInput } from '@tourdesk/contracts';
import {
  baseAccount,
  booking,
  bookingQuestion,
  cancellationPolicy,
  cart,
  customer,
  experience,
  image,
  inventoryItem,
  meetingPoint,
  order,
  paymentAccount,
  pricingCategory,
  slot,
  store,
  storeExperience,
  storeVisit,
} from '../../db/schema';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { requestHost, tenantOrigin } from '../../lib/host';
import { addDays, todayIn } from '../../lib/local-time';
import { inTenant } from '../../lib/tenancy';
import { readCart, releaseLine } from '../availability/holds';
import { availabilityJson } from '../availability/slots';
import { mediaUrl } from '../media/images';
import { checkout } from '../orders/bookings';
import { cancelOrder } from '../orders/service';
import { closeOpenPayments } from '../payments/online';
import { termsOf } from '../orders/cancellation';

/**
 * The public web store: what a customer without an account sees and does at /s/{slug}/ on the
 * organisation's host. Every call finds the organisation by the host and the store by its address
 * (active stores only), then works inside that organisation's transaction (row-level security).
 * The guest cart is proven by a secret the page keeps (X-Cart-Token), never a cookie: carts survive
 * in a frame on another site whose browser blocks third-party cookies.
 */

export interface WebCtx extends TenantCtx {
  store: typeof store.$inferSelect;
  timeZone: string;
  subdomain: string;
  organisation: string;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const secret = () => randomBytes(24).toString('base64url');
function sameSecret(given: string | undefined, hash: string | null) {
  if (!given || !hash) return false;
  const a = Buffer.from(sha256(given), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Runs `fn` in the store's organisation, the store found by host and address; 404 when there is none. */
export async function inStore<T>(request: FastifyRequest, slug: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const { subdomain } = requestHost(request);
  if (!subdomain) throw notFound('No store here.');
  const db = request.server.database.db;
  const [found] = await db
    .select({ s: store, zone: baseAccount.time_zone, name: baseAccount.name })
    .from(store)
    .innerJoin(baseAccount, eq(baseAccount.id, store.account_id))
    .where(and(eq(baseAccount.subdomain, subdomain), eq(store.slug, slug), eq(store.active, true)));
  if (!found) throw notFound('This store does not exist or is closed.');
  return inTenant(db, found.s.account_id, (tx) =>
    fn({ tx, accountId: found.s.account_id, currency: found.s.currency, store: found.s, timeZone: found.zone, subdomain, organisation: found.name }),
  );
}

/**
 * The hot, read-only calls (a month, a day of times) skip the transaction: a store found by host
 * and address is kept for two seconds in this process with the offers it sells, and the slots
 * come from one statement that enters the tenant scope itself (tourdesk_availability), as the
 * back office's calendar does. A store closed or an offer taken off it shows for two more seconds.
 */
interface PublicStore {
  accountId: string;
  timeZone: string;
  offers: Set<string>;
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
  const rows = (await request.server.database.db.execute(sql`
    select s.account_id, a.time_zone, coalesce(array_agg(se.experience_id) filter (where x.status = 'Active'), '{}') as offers
    from ${store} s join ${baseAccount} a on a.id = s.account_id
    left join ${storeExperience} se on se.account_id = s.account_id and se.store_id = s.id
    left join ${experience} x on x.id = se.experience_id
    where a.subdomain = ${subdomain} and s.slug = ${slug} and s.active
    group by s.account_id, a.time_zone`)) as unknown as { rows: { account_id: string; time_zone: string; offers: string[] }[] };
  const row = rows.rows[0];
  if (!row) {
    publicStores.delete(key);
    throw notFound('This store does not exist or is closed.');
  }
  if (publicStores.size > 10_000) publicStores.clear();
  const found = { accountId: row.account_id, timeZone: row.time_zone, offers: new Set(row.offers), expires: now + PUBLIC_STORE_TTL_MS };
  publicStores.set(key, found);
  return found;
}

/** The same, for work that knows the store (the e-mail jobs), whether or not it is still active. */
export async function inStoreById<T>(db: Db, accountId: string, storeId: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  return inTenant(db, accountId, async (tx) => {
    const [found] = await tx
      .select({ s: store, zone: baseAccount.time_zone, name: baseAccount.name, subdomain: baseAccount.subdomain })
      .from(store)
      .innerJoin(baseAccount, eq(baseAccount.id, store.account_id))
      .where(and(eq(store.account_id, accountId), eq(store.id, storeId)));
    if (!found) throw notFound('No store with this id.');
    return fn({ tx, accountId, currency: found.s.currency, store: found.s, timeZone: found.zone, subdomain: found.subdomain, organisation: found.name });
  });
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

/** The store's offers customers may book: in the store and Active. */
const sellable = (ctx: WebCtx) =>
  and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, ctx.store.id), eq(experience.status, 'Active'));

export async function countOffers(ctx: WebCtx) {
  const [row] = await ctx.tx.select({ n: count() }).from(storeExperience).innerJoin(experience, eq(experience.id, storeExperience.experience_id)).where(sellable(ctx));
  return Number(row?.n ?? 0);
}

const coverKey = sql<string | null>`(select i.storage_key from ${image} i where i.account_id = ${experience.account_id} and i.experience_id = ${experience.id} and i.status = 'ready' order by i.position limit 1)`;
const fromPrice = sql<number | null>`tourdesk_from_price(${experience.account_id}, ${experience.id})`;

export async function offers(ctx: WebCtx, limit: number, offset: number): Promise<TWebOfferSummary[]> {
  const rows = await ctx.tx
    .select({ e: experience, cover: coverKey, from: fromPrice })
    .from(storeExperience)
    .innerJoin(experience, eq(experience.id, storeExperience.experience_id))
    .where(sellable(ctx))
    .orderBy(asc(storeExperience.position), asc(experience.title))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => summary(ctx, r.e, r.cover, r.from));
}

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
  };
}

/** One offer of the store, with everything its page shows; 404 unless it is in the store and on sale. */
export async function offer(ctx: WebCtx, id: string): Promise<TWebOffer> {
  const [row] = await ctx.tx
    .select({ e: experience, cover: coverKey, from: fromPrice })
    .from(storeExperience)
    .innerJoin(experience, eq(experience.id, storeExperience.experience_id))
    .where(and(sellable(ctx), eq(experience.id, id)));
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

async function assertSellable(ctx: WebCtx, id: string) {
  const [row] = await ctx.tx.select({ id: experience.id }).from(storeExperience).innerJoin(experience, eq(experience.id, storeExperience.experience_id)).where(and(sellable(ctx), eq(experience.id, id)));
  if (!row) throw notFound('This offer is not sold in this store.');
}

/** The offer's slots between two local dates, from the one definition of seats and open for sale. */
async function slotsBetween(db: Db, shop: PublicStore, id: string, from: string, to: string) {
  if (!shop.offers.has(id)) throw notFound('This offer is not sold in this store.');
  return JSON.parse(await availabilityJson(db, shop.accountId, id, from, to)) as TSlot[];
}

/** A month: each day with times customers can book, and how many seats they have in all. */
export async function month(db: Db, shop: PublicStore, id: string, monthKey: string): Promise<TWebMonth> {
  if (!shop.offers.has(id)) throw notFound('This offer is not sold in this store.');
  const first = `${monthKey}-01`;
  const last = addDays(addDays(first, 31).slice(0, 7) + '-01', -1);
  const today = todayIn(shop.timeZone);
  const days = new Map<string, { date: string; seats_left: number; times: number }>();
  if (last >= today) {
    for (const s of await slotsBetween(db, shop, id, first < today ? today : first, last)) {
      if (!s.bookable && s.status !== 'sold_out') continue;
      const day = days.get(s.local_date) ?? { date: s.local_date, seats_left: 0, times: 0 };
      day.seats_left += s.bookable ? s.remaining : 0;
      day.times += 1;
      days.set(s.local_date, day);
    }
  }
  return { month: monthKey, time_zone: shop.timeZone, days: [...days.values()] };
}

/** A day's start times with their seats left and prices (sold-out times included, to be shown as such). */
export async function day(db: Db, shop: PublicStore, id: string, date: string): Promise<TWebDay> {
  const slots = (await slotsBetween(db, shop, id, date, date)).filter((s) => s.bookable || s.status === 'sold_out');
  return {
    date,
    time_zone: shop.timeZone,
    slots: slots.map((s) => ({
      id: s.id,
      starts_at: s.starts_at,
      local_time: s.local_time,
      seats_left: s.bookable ? s.remaining : 0,
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
export function presentWebCart(ctx: WebCtx, c: TCart): TWebCart {
  return {
    id: c.id,
    currency: c.currency,
    total: c.total,
    expires_at: c.expires_at,
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

export async function webCart(ctx: WebCtx, cartId: string) {
  return presentWebCart(ctx, await readCart(ctx, cartId));
}

/** Gives a guest line's seats back (the slot locked first, as every writer). */
export const releaseGuestLine = (ctx: WebCtx, cartId: string, lineId: string) => releaseLine(ctx, cartId, lineId);

/** A slot may be held here only if its offer is sold in this store. */
export async function assertSlotInStore(ctx: WebCtx, slotId: string) {
  const [row] = await ctx.tx.select({ experience: slot.experience_id }).from(slot).where(and(eq(slot.account_id, ctx.accountId), eq(slot.id, slotId)));
  if (!row) throw new AppError('not_found', 'No such time slot.', 'slot');
  await assertSellable(ctx, row.experience).catch(() => {
    throw new AppError('invalid', 'This time is not sold in this store.', 'slot');
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
  const manage = secret();
  const orderId = await checkout(ctx, input.cart, null, {
    customer: { ...input.customer, country: input.customer.country ?? null },
    answers: input.answers,
    lines: input.lines,
    storeId: ctx.store.id,
    manageTokenHash: sha256(manage),
  } as Parameters<typeof checkout>[3]);
  await queue(ctx.tx, { kind: 'confirmation', order: orderId, manage });
  if (ctx.store.notify_new_bookings && ctx.store.notify_email) await queue(ctx.tx, { kind: 'store-notification', order: orderId });
  return { orderId, manage };
}

/** The customer's order by its reference and the secret of their link; 404 for anything else. */
export async function ownOrder(ctx: WebCtx, reference: string, token: string | undefined) {
  const [row] = await ctx.tx
    .select({ id: order.id, hash: order.manage_token_hash })
    .from(order)
    .where(and(eq(order.account_id, ctx.accountId), eq(order.reference, reference), eq(order.store_id, ctx.store.id)));
  if (!row || !sameSecret(token, row.hash)) throw notFound('No order with this reference and link.');
  return row.id;
}

export async function presentWebOrder(ctx: WebCtx, orderId: string, manageUrl: (reference: string) => string): Promise<TWebOrder> {
  const [o] = await ctx.tx.select({ o: order, c: customer }).from(order).innerJoin(customer, eq(customer.id, order.customer_id)).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  const rows = await ctx.tx
    .select({ b: booking, title: experience.title, starts: slot.starts_at, points: experience.meeting_point_ids, policy: cancellationPolicy.rules })
    .from(booking)
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .leftJoin(cancellationPolicy, eq(cancellationPolicy.id, experience.cancellation_policy_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId)))
    .orderBy(asc(slot.starts_at), asc(booking.id));
  const pointIds = [...new Set(rows.flatMap((r) => r.points.slice(0, 1)))];
  const points = new Map(pointIds.length ? (await ctx.tx.select().from(meetingPoint).where(and(eq(meetingPoint.account_id, ctx.accountId), inArray(meetingPoint.id, pointIds)))).map((m) => [m.id, m]) : []);
  // The one rule (orders/cancellation.ts): the strictest policy of its open bookings decides (a customer cancels the whole order).
  const open = rows.filter((r) => r.b.status !== 'Canceled').map((r) => ({ starts: r.starts, rules: r.policy }));
  const cancellation = o!.o.status === 'Canceled' ? { allowed: false, refund: 0, fee: 0, reason: 'This order is cancelled.' } : termsOf(open, o!.o.paid, o!.o.total);
  return {
    reference: o!.o.reference,
    status: o!.o.status,
    payment_status: o!.o.payment_status,
    currency: o!.o.currency,
    total: o!.o.total,
    paid: o!.o.paid,
    refunded: o!.o.refunded,
    cancellation_fee: o!.o.cancellation_fee,
    customer: { first_name: o!.c.first_name, last_name: o!.c.last_name, email: o!.c.email },
    bookings: rows.map((r) => {
      const point = r.points[0] ? points.get(r.points[0]) : undefined;
      return {
        id: r.b.id,
        offer_title: r.title,
        starts_at: r.starts.toISOString(),
        time_zone: ctx.timeZone,
        status: r.b.status,
        ticket_code: r.b.ticket_code,
        items: r.b.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity, unit_price: i.unit_price, total: i.total })),
        total: r.b.total,
        meeting_point: point ? [point.name, point.address].filter(Boolean).join(', ') : null,
      };
    }),
    manage_url: manageUrl(o!.o.reference),
    cancellation,
  };
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

/** The private link of an order's page: https://{org}/s/{store}/booking/{reference}#{secret}. */
export const manageUrlFor = (config: Parameters<typeof tenantOrigin>[0], ctx: WebCtx, token: string) => (reference: string) =>
  `${tenantOrigin(config, ctx.subdomain)}/s/${ctx.store.slug}/booking/${reference}#${token}`;
