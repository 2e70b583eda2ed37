import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
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
import type { TenantCtx } from '../../lib/crud';
import { execute } from '../../db/execute';

/** The web store module's only access to the database. */

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

// --- what a public call is about (scope.ts; on the server's connection) ------------------------

/** The active store at an organisation's subdomain and address, with the organisation's zone, name and subdomain. */
export async function activeStoreAt(db: Db, subdomain: string, slug: string) {
  const [found] = await db
    .select({ s: store, zone: baseAccount.time_zone, name: baseAccount.name, subdomain: baseAccount.subdomain })
    .from(store)
    .innerJoin(baseAccount, eq(baseAccount.id, store.account_id))
    .where(and(eq(baseAccount.subdomain, subdomain), eq(store.slug, slug), eq(store.active, true)));
  return found;
}

/** One offer the store sells now (tourdesk_store_offers: its own, or a partner's), or null. */
export async function storeOffer(db: Db, storeId: string, experienceId: string) {
  const [row] = rowsOf<{ seller: string; partnership: string | null }>(
    await db.execute(sql`select seller_account_id as seller, partnership_id as partnership from tourdesk_store_offers(${storeId}::uuid) where experience_id = ${experienceId}::uuid`),
  );
  return row ?? null;
}

/** The organisation whose books a cart of this store is in. */
export async function cartAccount(db: Db, storeId: string, cartId: string) {
  const [row] = await db.select({ account: cart.account_id }).from(cart).where(and(eq(cart.id, cartId), eq(cart.store_id, storeId)));
  return row;
}

/** The organisation whose books an online payment made in this store is in. */
export async function checkoutAccount(db: Db, storeId: string, checkoutId: string) {
  const [row] = await db.select({ account: onlineCheckout.account_id }).from(onlineCheckout).where(and(eq(onlineCheckout.id, checkoutId), eq(onlineCheckout.store_id, storeId)));
  return row;
}

/**
 * The orders with a reference that this store's booking page may open (one per organisation at
 * most), with their books and their link's secret hash: the store's own, and its organisation's
 * orders sold without a store (a partner's booking through OCTO whose customer is asked for answers).
 */
export function ordersByReference(db: Db, storeId: string, reference: string) {
  return db
    .select({ id: order.id, account: order.account_id, hash: order.manage_token_hash })
    .from(order)
    .where(and(eq(order.reference, reference), sql`(${order.store_id} = ${storeId} or (${order.store_id} is null and ${order.account_id} = (select s.account_id from store s where s.id = ${storeId})))`));
}

/** The active store at a subdomain and address with the offers it sells (tourdesk_store_offers), each with its seller's zone and a partner's contract validity: one statement. */
export async function publicStoreRow(db: Db, subdomain: string, slug: string) {
  const [row] = rowsOf<{ account_id: string; time_zone: string; offers: { id: string; seller: string; zone: string; valid_from: string | null; valid_to: string | null }[] }>(
    await db.execute(sql`
    select s.account_id, a.time_zone,
      coalesce((select json_agg(json_build_object('id', o.experience_id, 'seller', o.seller_account_id, 'zone', sa.time_zone, 'valid_from', p.valid_from, 'valid_to', p.valid_to))
                from tourdesk_store_offers(s.id) o join ${baseAccount} sa on sa.id = o.seller_account_id left join ${partnership} p on p.id = o.partnership_id), '[]') as offers
    from ${store} s join ${baseAccount} a on a.id = s.account_id
    where a.subdomain = ${subdomain} and s.slug = ${slug} and s.active`),
  );
  return row;
}

// --- what the store shows (catalogue.ts) -------------------------------------------------------

/** Whether the organisation's connected payment account takes charges. */
export async function chargesEnabled(ctx: TenantCtx) {
  const [row] = await ctx.tx.select({ ok: paymentAccount.charges_enabled }).from(paymentAccount).where(eq(paymentAccount.account_id, ctx.accountId));
  return Boolean(row?.ok);
}

/** An image's storage key. */
export async function imageKey(ctx: TenantCtx, imageId: string) {
  return (await ctx.tx.select({ key: image.storage_key }).from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.id, imageId))))[0]?.key ?? null;
}

/** How many offers the store sells now (tourdesk_store_offers, on the server's connection). */
export async function countOffers(db: Db, storeId: string) {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from tourdesk_store_offers(${storeId}::uuid)`));
  return Number(row?.n ?? 0);
}


/** A page of the offers the store sells, in its order, each with its seller (and its main language), cover and from price: one statement. */
export async function storeOfferPage(db: Db, storeId: string, limit: number, offset: number) {
  return rowsOf<{
    id: string;
    title: string;
    short_description: string;
    translations: Record<string, { title?: string; short_description?: string }>;
    duration_minutes: number | null;
    time_zone: string;
    seller: string;
    seller_language: string;
    partnership: string | null;
    cover: string | null;
    from_price: number | null;
  }>(
    await db.execute(sql`
      select x.id, x.title, x.short_description, x.translations, x.duration_minutes, sa.time_zone, sa.name as seller, sa.languages[1] as seller_language, o.partnership_id as partnership,
             (select i.storage_key from ${image} i where i.account_id = x.account_id and i.experience_id = x.id and i.status = 'ready' order by i.position limit 1) as cover,
             tourdesk_from_price(x.account_id, x.id) as from_price
      from tourdesk_store_offers(${storeId}::uuid) o join ${experience} x on x.id = o.experience_id join ${baseAccount} sa on sa.id = x.account_id
      order by o.position, o.title, x.id
      limit ${limit} offset ${offset}`),
  );
}

const coverKey = sql<string | null>`(select i.storage_key from ${image} i where i.account_id = ${experience.account_id} and i.experience_id = ${experience.id} and i.status = 'ready' order by i.position limit 1)`;
const fromPrice = sql<number | null>`tourdesk_from_price(${experience.account_id}, ${experience.id})`;

/** An Active offer with its cover's key, its from price and its organisation's main language. */
export async function activeOffer(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx
    .select({ e: experience, cover: coverKey, from: fromPrice, main: sql<string>`(select a.languages[1] from ${baseAccount} a where a.id = ${experience.account_id})` })
    .from(experience)
    .where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, id), eq(experience.status, 'Active')));
  return row;
}

/** An offer's ready images, in their order. */
export function readyImages(ctx: TenantCtx, experienceId: string) {
  return ctx.tx.select().from(image).where(and(eq(image.account_id, ctx.accountId), eq(image.experience_id, experienceId), eq(image.status, 'ready'))).orderBy(asc(image.position));
}

/** Some meeting points, by id. */
export function meetingPointsByIds(ctx: TenantCtx, ids: string[]) {
  return ctx.tx.select().from(meetingPoint).where(and(eq(meetingPoint.account_id, ctx.accountId), inArray(meetingPoint.id, ids)));
}

/** A cancellation policy by id (none or one row). */
export function cancellationPolicyById(ctx: TenantCtx, id: string) {
  return ctx.tx.select().from(cancellationPolicy).where(and(eq(cancellationPolicy.account_id, ctx.accountId), eq(cancellationPolicy.id, id)));
}

/** The categories an offer has a current rate for. */
export async function offerCategories(ctx: TenantCtx, experienceId: string) {
  const result = (await execute<{ id: string; label: string; type: string; occupies_seat: boolean; min_age: number | null; max_age: number | null; translations: Record<string, { label?: string }> }>(ctx.tx, sql`
      select c.id, c.label, c.type, c.occupies_seat, c.min_age, c.max_age, c.translations
      from ${pricingCategory} c
      where c.account_id = ${ctx.accountId}
        and exists (select 1 from pricing_rate r where r.account_id = c.account_id and r.pricing_category_id = c.id and r.experience_id = ${experienceId}::uuid and (r.valid_to is null or r.valid_to >= tourdesk_today(c.account_id)))`));
  return result.rows;
}

/** Some extras (inventory items), by id. */
export function inventoryItemsByIds(ctx: TenantCtx, ids: string[]) {
  return ctx.tx.select().from(inventoryItem).where(and(eq(inventoryItem.account_id, ctx.accountId), inArray(inventoryItem.id, ids)));
}

/** Some booking questions, by id. */
export function bookingQuestionsByIds(ctx: TenantCtx, ids: string[]) {
  return ctx.tx.select().from(bookingQuestion).where(and(eq(bookingQuestion.account_id, ctx.accountId), inArray(bookingQuestion.id, ids)));
}

/** Counts a store's visit once per day. */
export async function insertVisit(ctx: TenantCtx, storeId: string, visitId: string, day: string) {
  await ctx.tx.insert(storeVisit).values({ account_id: ctx.accountId, store_id: storeId, visit_id: visitId, day }).onConflictDoNothing();
}

// --- the guest cart (cart.ts) ------------------------------------------------------------------

/** A guest cart of a store, with its secret's hash and its client's (the hash of its address). */
export async function insertCart(ctx: TenantCtx, storeId: string, tokenHash: string | null, clientHash: string | null, language: string) {
  const [row] = await ctx.tx.insert(cart).values({ account_id: ctx.accountId, store_id: storeId, token_hash: tokenHash, client_hash: clientHash, language }).returning({ id: cart.id });
  return row;
}

/** The customer's language of a guest cart (its order copies it). */
export async function setCartLanguage(ctx: TenantCtx, cartId: string, language: string) {
  await ctx.tx.update(cart).set({ language }).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
}

/** An organisation's 12/24-hour setting (its store's times follow it). */
export async function timeFormatOf(db: Db, accountId: string) {
  const [row] = await db.select({ time_format: baseAccount.time_format }).from(baseAccount).where(eq(baseAccount.id, accountId));
  return row?.time_format === '12h' ? ('12h' as const) : ('24h' as const);
}

/** The seats held now (lines not expired) by one cart, and by every guest cart of one client, in the organisation's pool. */
export async function seatsHeld(ctx: TenantCtx, cartId: string, clientHash: string | null) {
  const [row] = rowsOf<{ cart: number; client: number }>(
    await ctx.tx.execute(sql`
      select coalesce(sum(l.seats) filter (where l.cart_id = ${cartId}::uuid), 0)::int as cart,
             coalesce(sum(l.seats) filter (where c.client_hash = ${clientHash}), 0)::int as client
      from ${cartLine} l join ${cart} c on c.account_id = l.account_id and c.id = l.cart_id
      where l.account_id = ${ctx.accountId} and l.expires_at > now()
        and (l.cart_id = ${cartId}::uuid or (${clientHash}::text is not null and c.client_hash = ${clientHash}))`),
  );
  return { cart: Number(row?.cart ?? 0), client: Number(row?.client ?? 0) };
}

/** A cart of a store. */
export async function storeCart(ctx: TenantCtx, storeId: string, cartId: string) {
  const [row] = await ctx.tx.select().from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId), eq(cart.store_id, storeId)));
  return row;
}

/** Who collects a partnership's payments. */
export async function paymentCollector(ctx: TenantCtx, partnershipId: string) {
  const [p] = await ctx.tx.select({ collector: partnership.payment_collector }).from(partnership).where(eq(partnership.id, partnershipId));
  return p?.collector;
}

/** The organisation that sells a slot's offer in a store (tourdesk_store_offers), with the offer and the slot's local date. */
export async function slotSeller(db: Db, storeId: string, slotId: string) {
  const [row] = rowsOf<{ seller: string; partnership: string | null; experience: string; day: string }>(
    await db.execute(sql`
      select o.seller_account_id as seller, o.partnership_id as partnership, s.experience_id as experience, s.local_date::text as day
      from ${slot} s join tourdesk_store_offers(${storeId}::uuid) o on o.experience_id = s.experience_id and o.seller_account_id = s.account_id
      where s.id = ${slotId}::uuid`),
  );
  return row;
}

/** How many lines a cart holds. */
export async function countCartLines(ctx: TenantCtx, cartId: string) {
  const [held] = await ctx.tx.select({ n: count() }).from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId)));
  return Number(held?.n ?? 0);
}

/** Deletes a cart. */
export function deleteCart(ctx: TenantCtx, cartId: string) {
  return ctx.tx.delete(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
}

// --- the order (order.ts) ----------------------------------------------------------------------

