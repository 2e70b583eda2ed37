import type { z } from 'zod';
import type { TOfferChannels, TStore, TStoreAnalytics, TStoreExperience, ZStoreInput } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { store } from '../../db/schema';
import type { Config } from '../../config';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { addDays, eachDay } from '../../lib/local-time';
import { mediaUrl } from '../media/images';
import { mergeTranslations } from '../experiences/translations';
import { onlineReady } from '../web-store/catalogue';
import { assertWithinLimit } from '../plans/service';
import * as q from './queries';

/**
 * Stores in the back office: their settings, the offers each shows (in its order), and what each
 * sold. A store is reached at /s/{slug}/ on its organisation's host (modules/web-store).
 */

type StoreRow = typeof store.$inferSelect;

/** Input → columns; a logo must be one of the organisation's images, the currency its own by default. */
export async function storeValues(ctx: TenantCtx, input: Partial<z.output<typeof ZStoreInput>>, existing: StoreRow | undefined, platformHasStripe: boolean) {
  if (!existing) await assertWithinLimit(ctx, 'stores');
  if (input.logo) await q.assertOwnImage(ctx, input.logo);
  if (input.payment_options?.includes('online') && !(await onlineReady(ctx, platformHasStripe)) && !(platformHasStripe && (await q.resellsPaidToSupplier(ctx)))) {
    throw new AppError('invalid', platformHasStripe ? 'Connect your Stripe account (Settings → Payment providers) before a store takes payments online.' : 'Online payment is not set up on this platform.', 'payment_options');
  }
  const values: Partial<typeof store.$inferInsert> = {};
  const copy = ['name', 'slug', 'active', 'primary_color', 'intro', 'terms_url', 'contact_email', 'contact_phone', 'payment_options', 'embed_origins', 'notify_new_bookings', 'notify_email', 'waitlist_hold_minutes', 'deposit', 'balance_reminder_days', 'sells_vouchers', 'voucher_amounts', 'voucher_min', 'voucher_max'] as const;
  for (const key of copy) if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  if (input.logo !== undefined) values.logo_image_id = input.logo;
  if (input.translations !== undefined) values.translations = mergeTranslations(existing?.translations, input.translations);
  // Prices are set in the organisation's currency: a store sells in it (a store in another
  // currency would show CHF prices as euros).
  if (input.currency !== undefined && input.currency !== ctx.currency) {
    throw new AppError('invalid', `A store sells at your prices, which are in ${ctx.currency}.`, 'currency');
  }
  if (!existing || input.currency !== undefined) values.currency = ctx.currency;
  if (input.notify_new_bookings && !(input.notify_email ?? existing?.notify_email)) {
    throw new AppError('invalid', 'Say where the new-booking e-mails go.', 'notify_email');
  }
  return values;
}

/** Rows → responses: one query for the page's offer counts, logos and the organisation's host. */
export async function presentStores(ctx: TenantCtx, config: Config, rows: StoreRow[]): Promise<TStore[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const counts = await q.experienceCounts(ctx, ids);
  const logoIds = rows.map((r) => r.logo_image_id).filter((x): x is string => Boolean(x));
  const logos = await q.imageKeys(ctx, logoIds);
  const origin = tenantOrigin(config, await q.accountSubdomain(ctx));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    active: r.active,
    currency: r.currency,
    logo: r.logo_image_id,
    logo_url: r.logo_image_id ? mediaUrl(logos.get(r.logo_image_id) ?? null) : null,
    primary_color: r.primary_color,
    intro: r.intro,
    terms_url: r.terms_url,
    contact_email: r.contact_email,
    contact_phone: r.contact_phone,
    payment_options: r.payment_options as TStore['payment_options'],
    embed_origins: r.embed_origins,
    notify_new_bookings: r.notify_new_bookings,
    notify_email: r.notify_email,
    waitlist_hold_minutes: r.waitlist_hold_minutes,
    deposit: r.deposit,
    balance_reminder_days: r.balance_reminder_days,
    sells_vouchers: r.sells_vouchers,
    voucher_amounts: r.voucher_amounts,
    voucher_min: r.voucher_min,
    voucher_max: r.voucher_max,
    translations: r.translations,
    experience_count: counts.get(r.id) ?? 0,
    url: `${origin}/s/${r.slug}/`,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

/** Where the offer is sold: the organisation's stores, each with whether it shows it, and the partners sharing it. */
export async function offerChannels(ctx: TenantCtx, config: Config, experienceId: string): Promise<TOfferChannels> {
  const found = await q.storesShowing(ctx, experienceId);
  if (!found) throw notFound('No offer with this id.');
  const stores = await presentStores(ctx, config, found.rows.map((r) => r.row));
  return { stores: stores.map((s, i) => ({ ...s, sells: Boolean(found.rows[i]!.sells) })), partners: found.partners };
}

/** A store with orders keeps them: it is deactivated instead. */
export async function beforeDeleteStore(ctx: TenantCtx, row: StoreRow) {
  if (await q.storeHasOrders(ctx, row.id)) throw new AppError('conflict', 'This store has orders: deactivate it instead of deleting it.');
}

export async function loadStore(ctx: TenantCtx, id: string) {
  const row = await q.storeById(ctx, id);
  if (!row) throw notFound('No store with this id.');
  return row;
}


/*
 * The store's offers and the Global catalog list the organisation's own offers and, for a reseller,
 * its suppliers' offers shared with it under an Active contract in the store's currency (the same
 * rule as tourdesk_store_offers, which decides what the public store sells). A supplier's offer is
 * not in the reseller's tenant: these lists are read on the server's connection, after the
 * tenant's transaction has found the store, each filtered by the organisation and its contracts.
 */
const present = (r: q.CatalogRow): TStoreExperience => ({ experience: r.id, title: r.title, status: r.status, cover_url: mediaUrl(r.cover), position: r.position ?? 0, supplier: r.supplier });

/** The store's offers in its order (its own and its partners'), paged in SQL. */
export async function storeExperiences(db: Db, s: StoreRow, limit: number, offset: number): Promise<TStoreExperience[]> {
  const rows = await q.storeExperienceRows(db, s, limit, offset);
  return rows.map(present);
}

export const countStoreExperiences = q.countStoreExperiences;

export const countEligible = q.countEligible;

export async function eligibleExperiences(db: Db, s: StoreRow, search: string | undefined, limit: number, offset: number): Promise<TStoreExperience[]> {
  const rows = await q.eligibleRows(db, s, search, limit, offset);
  return rows.map(present);
}

/** Which of `ids` are partners' offers the organisation may resell in the store `s` (id → partnership), read on the server's connection. */
export async function resellable(db: Db, s: StoreRow, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  return q.resellableOffers(db, s, ids);
}

/**
 * Adds offers at the end of the store's order (one already there stays where it is): the
 * organisation's own, or a partner's it may resell here (`partners`: id → partnership, from resellable()).
 */
export async function addExperiences(ctx: TenantCtx, storeId: string, ids: string[], partners: Map<string, string>) {
  await lockStore(ctx, storeId);
  const unique = [...new Set(ids)];
  const own = unique.filter((id) => !partners.has(id));
  const owned = own.length ? await q.ownExperienceIds(ctx, own) : [];
  if (owned.length !== own.length) throw new AppError('invalid', 'No offer with this id in your organisation or your partners’ shared offers.', 'experiences');
  const start = Number((await q.lastPosition(ctx, storeId)) ?? -1) + 1;
  await q.insertStoreExperiences(
    ctx,
    unique.map((id, i) => ({ store_id: storeId, experience_id: id, partnership_id: partners.get(id) ?? null, position: start + i })),
  );
}

export async function removeExperience(ctx: TenantCtx, storeId: string, id: string) {
  await lockStore(ctx, storeId);
  const gone = await q.deleteStoreExperience(ctx, storeId, id);
  if (gone.length === 0) throw notFound('This offer is not in the store.');
}

/** Puts the store's offers in the given order (every offer of the store, each once). */
export async function reorderExperiences(ctx: TenantCtx, storeId: string, ids: string[]) {
  await lockStore(ctx, storeId);
  const current = await q.storeExperienceIds(ctx, storeId);
  const have = new Set(current.map((r) => r.id));
  if (ids.length !== have.size || new Set(ids).size !== ids.length || ids.some((id) => !have.has(id))) {
    throw new AppError('invalid', 'Send every offer of the store, each once, in the new order.', 'experiences');
  }
  await q.setPositions(ctx, storeId, ids);
}

/** The store's row, locked: changes to its offers run one at a time (positions stay unique). */
async function lockStore(ctx: TenantCtx, storeId: string) {
  const row = await q.lockStore(ctx, storeId);
  if (!row) throw notFound('No store with this id.');
}

/**
 * Visits, carts, orders, seats and revenue per local day of a range, from the rows themselves
 * (visits, guest carts, orders of the store; cancelled orders count with what is still sold), one
 * aggregate query each, served by their (account, store, time) indexes.
 */
/**
 * Carts of partners' offers made in the caller's store, per local day: they are in the suppliers'
 * books (a cart moves to the seller of what it holds), so they are read on the server's
 * connection, only for a store of `accountId`.
 */
export async function partnerCartsByDay(db: Db, accountId: string, storeId: string, zone: string, from: string, to: string) {
  return q.partnerCartsByDay(db, accountId, storeId, zone, from, addDays(to, 1));
}

/**
 * A store's figures per local day: visits, carts (its own and, given, its partners' offers'),
 * orders with their seats and revenue — its own orders and its partners' it resold here (the
 * suppliers' orders it may read, policy reseller_read) — and the conversion.
 */
export async function storeAnalytics(ctx: TenantCtx, storeId: string, from: string, to: string, partnerCarts = new Map<string, number>()): Promise<TStoreAnalytics> {
  const s = await loadStore(ctx, storeId);
  if (to < from) throw new AppError('invalid', 'The range ends before it starts.', 'to');
  const range = [...eachDay(from, to)].map((d) => d.date);
  if (range.length > 366) throw new AppError('invalid', 'Choose a range of at most a year.', 'from');
  const zone = await q.accountZone(ctx);
  const upto = addDays(to, 1);
  const { visits, carts, orders } = await q.dailyFigures(ctx, storeId, zone, from, to, upto);
  const byDay = <T extends { day: string }>(list: T[]) => new Map(list.map((r) => [r.day, r]));
  const v = byDay(visits);
  const c = byDay(carts);
  const o = byDay(orders);
  const days = range.map((date) => {
    const visitsN = v.get(date)?.n ?? 0;
    const ordersN = o.get(date)?.n ?? 0;
    return {
      date,
      visits: visitsN,
      carts: (c.get(date)?.n ?? 0) + (partnerCarts.get(date) ?? 0),
      orders: ordersN,
      seats: o.get(date)?.seats ?? 0,
      revenue: Number(o.get(date)?.revenue ?? 0),
      conversion: visitsN ? ordersN / visitsN : 0,
    };
  });
  const sum = (k: 'visits' | 'carts' | 'orders' | 'seats' | 'revenue') => days.reduce((n, d) => n + d[k], 0);
  const totals = { visits: sum('visits'), carts: sum('carts'), orders: sum('orders'), seats: sum('seats'), revenue: sum('revenue'), conversion: 0 };
  totals.conversion = totals.visits ? totals.orders / totals.visits : 0;
  return { currency: s.currency, days, totals };
}
