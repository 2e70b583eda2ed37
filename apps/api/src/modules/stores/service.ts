import { and, asc, count, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { TStore, TStoreAnalytics, TStoreExperience, ZStoreInput } from '@tourdesk/contracts';
import { baseAccount, experience, image, order, store, storeExperience, storeVisit, cart } from '../../db/schema';
import type { Config } from '../../config';
import { assertOwned, type TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { addDays, eachDay } from '../../lib/local-time';
import { mediaUrl } from '../media/images';
import { onlineReady } from '../web-store/service';
import { assertWithinLimit } from '../plans/service';

/**
 * Stores in the back office: their settings, the offers each shows (in its order), and what each
 * sold. A store is reached at /s/{slug}/ on its organisation's host (modules/web-store).
 */

type StoreRow = typeof store.$inferSelect;

/** Input → columns; a logo must be one of the organisation's images, the currency its own by default. */
export async function storeValues(ctx: TenantCtx, input: Partial<z.output<typeof ZStoreInput>>, existing: StoreRow | undefined, platformHasStripe: boolean) {
  if (!existing) await assertWithinLimit(ctx, 'stores');
  if (input.logo) await assertOwned(ctx, image, input.logo, 'logo', 'image');
  if (input.payment_options?.includes('online') && !(await onlineReady(ctx, platformHasStripe))) {
    throw new AppError('invalid', platformHasStripe ? 'Connect your Stripe account (Settings → Payment providers) before a store takes payments online.' : 'Online payment is not set up on this platform.', 'payment_options');
  }
  const values: Partial<typeof store.$inferInsert> = {};
  const copy = ['name', 'slug', 'active', 'primary_color', 'intro', 'terms_url', 'contact_email', 'contact_phone', 'payment_options', 'embed_origins', 'notify_new_bookings', 'notify_email'] as const;
  for (const key of copy) if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  if (input.logo !== undefined) values.logo_image_id = input.logo;
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
  const counts = new Map(
    (
      await ctx.tx
        .select({ id: storeExperience.store_id, n: count() })
        .from(storeExperience)
        .where(and(eq(storeExperience.account_id, ctx.accountId), inArray(storeExperience.store_id, ids)))
        .groupBy(storeExperience.store_id)
    ).map((r) => [r.id, Number(r.n)]),
  );
  const logoIds = rows.map((r) => r.logo_image_id).filter((x): x is string => Boolean(x));
  const logos = new Map(
    logoIds.length ? (await ctx.tx.select({ id: image.id, key: image.storage_key }).from(image).where(and(eq(image.account_id, ctx.accountId), inArray(image.id, logoIds)))).map((r) => [r.id, r.key]) : [],
  );
  const [account] = await ctx.tx.select({ subdomain: baseAccount.subdomain }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  const origin = tenantOrigin(config, account!.subdomain);
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
    experience_count: counts.get(r.id) ?? 0,
    url: `${origin}/s/${r.slug}/`,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

/** A store with orders keeps them: it is deactivated instead. */
export async function beforeDeleteStore(ctx: TenantCtx, row: StoreRow) {
  const [sold] = await ctx.tx.select({ id: order.id }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.store_id, row.id))).limit(1);
  if (sold) throw new AppError('conflict', 'This store has orders: deactivate it instead of deleting it.');
}

export async function loadStore(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(store).where(and(eq(store.account_id, ctx.accountId), eq(store.id, id)));
  if (!row) throw notFound('No store with this id.');
  return row;
}

const cover = sql<string | null>`(select i.thumbnail_key from ${image} i where i.account_id = ${experience.account_id} and i.experience_id = ${experience.id} and i.status = 'ready' order by i.position limit 1)`;

/** The store's offers in its order, paged in SQL. */
export async function storeExperiences(ctx: TenantCtx, storeId: string, limit: number, offset: number): Promise<TStoreExperience[]> {
  const rows = await ctx.tx
    .select({ id: experience.id, title: experience.title, status: experience.status, cover, position: storeExperience.position })
    .from(storeExperience)
    .innerJoin(experience, eq(experience.id, storeExperience.experience_id))
    .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)))
    .orderBy(asc(storeExperience.position), asc(experience.title))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ experience: r.id, title: r.title, status: r.status, cover_url: mediaUrl(r.cover), position: r.position }));
}

export async function countStoreExperiences(ctx: TenantCtx, storeId: string) {
  const [row] = await ctx.tx.select({ n: count() }).from(storeExperience).where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
  return Number(row?.n ?? 0);
}

/** The organisation's offers a store does not show yet (any status: a Draft shows once it is Active). */
function eligibleWhere(ctx: TenantCtx, storeId: string, search?: string) {
  const inStore = ctx.tx.select({ id: storeExperience.experience_id }).from(storeExperience).where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
  const term = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return and(eq(experience.account_id, ctx.accountId), notInArray(experience.id, inStore), term ? sql`${experience.title} ilike ${term}` : undefined);
}

export async function countEligible(ctx: TenantCtx, storeId: string, search?: string) {
  const [row] = await ctx.tx.select({ n: count() }).from(experience).where(eligibleWhere(ctx, storeId, search));
  return Number(row?.n ?? 0);
}

export async function eligibleExperiences(ctx: TenantCtx, storeId: string, search: string | undefined, limit: number, offset: number): Promise<TStoreExperience[]> {
  const rows = await ctx.tx
    .select({ id: experience.id, title: experience.title, status: experience.status, cover })
    .from(experience)
    .where(eligibleWhere(ctx, storeId, search))
    .orderBy(asc(experience.title), asc(experience.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ experience: r.id, title: r.title, status: r.status, cover_url: mediaUrl(r.cover), position: 0 }));
}

/** Adds offers at the end of the store's order (one already there stays where it is). */
export async function addExperiences(ctx: TenantCtx, storeId: string, ids: string[]) {
  await lockStore(ctx, storeId);
  const unique = [...new Set(ids)];
  const owned = await ctx.tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, unique)));
  if (owned.length !== unique.length) throw new AppError('invalid', 'No offer with this id in your organisation.', 'experiences');
  const [last] = await ctx.tx
    .select({ max: sql<number | null>`max(${storeExperience.position})` })
    .from(storeExperience)
    .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
  const start = Number(last?.max ?? -1) + 1;
  await ctx.tx
    .insert(storeExperience)
    .values(unique.map((id, i) => ({ account_id: ctx.accountId, store_id: storeId, experience_id: id, position: start + i })))
    .onConflictDoNothing();
}

export async function removeExperience(ctx: TenantCtx, storeId: string, id: string) {
  await lockStore(ctx, storeId);
  const gone = await ctx.tx
    .delete(storeExperience)
    .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId), eq(storeExperience.experience_id, id)))
    .returning();
  if (gone.length === 0) throw notFound('This offer is not in the store.');
}

/** Puts the store's offers in the given order (every offer of the store, each once). */
export async function reorderExperiences(ctx: TenantCtx, storeId: string, ids: string[]) {
  await lockStore(ctx, storeId);
  const current = await ctx.tx.select({ id: storeExperience.experience_id }).from(storeExperience).where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
  const have = new Set(current.map((r) => r.id));
  if (ids.length !== have.size || new Set(ids).size !== ids.length || ids.some((id) => !have.has(id))) {
    throw new AppError('invalid', 'Send every offer of the store, each once, in the new order.', 'experiences');
  }
  await ctx.tx.execute(sql`
    update ${storeExperience} se set position = o.pos - 1
    from unnest(${sql.param(ids)}::uuid[]) with ordinality as o(id, pos)
    where se.account_id = ${ctx.accountId} and se.store_id = ${storeId}::uuid and se.experience_id = o.id`);
}

/** The store's row, locked: changes to its offers run one at a time (positions stay unique). */
async function lockStore(ctx: TenantCtx, storeId: string) {
  const [row] = await ctx.tx.select({ id: store.id }).from(store).where(and(eq(store.account_id, ctx.accountId), eq(store.id, storeId))).for('no key update');
  if (!row) throw notFound('No store with this id.');
}

/**
 * Visits, carts, orders, seats and revenue per local day of a range, from the rows themselves
 * (visits, guest carts, orders of the store; cancelled orders count with what is still sold), one
 * aggregate query each, served by their (account, store, time) indexes.
 */
export async function storeAnalytics(ctx: TenantCtx, storeId: string, from: string, to: string): Promise<TStoreAnalytics> {
  const s = await loadStore(ctx, storeId);
  if (to < from) throw new AppError('invalid', 'The range ends before it starts.', 'to');
  const range = [...eachDay(from, to)].map((d) => d.date);
  if (range.length > 366) throw new AppError('invalid', 'Choose a range of at most a year.', 'from');
  const [account] = await ctx.tx.select({ zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  const zone = account!.zone;
  const upto = addDays(to, 1);
  const localDay = (col: unknown) => sql`to_char((${col} at time zone ${zone})::date, 'YYYY-MM-DD')`;
  const between = (col: unknown) => sql`${col} >= (${from}::date::timestamp at time zone ${zone}) and ${col} < (${upto}::date::timestamp at time zone ${zone})`;
  const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
  const visits = rows<{ day: string; n: number }>(
    await ctx.tx.execute(sql`select day, count(*)::int as n from ${storeVisit} where account_id = ${ctx.accountId} and store_id = ${storeId}::uuid and day between ${from} and ${to} group by day`),
  );
  const carts = rows<{ day: string; n: number }>(
    await ctx.tx.execute(sql`select ${localDay(sql`created_at`)} as day, count(*)::int as n from ${cart} where account_id = ${ctx.accountId} and store_id = ${storeId}::uuid and ${between(sql`created_at`)} group by 1`),
  );
  const orders = rows<{ day: string; n: number; seats: number; revenue: string | number }>(
    await ctx.tx.execute(sql`
      select ${localDay(sql`o.created_at`)} as day, count(*)::int as n,
             coalesce(sum((select coalesce(sum(b.seats), 0) from booking b where b.account_id = o.account_id and b.order_id = o.id and b.status <> 'Canceled')), 0)::int as seats,
             coalesce(sum(o.total), 0)::bigint as revenue
      from ${order} o where o.account_id = ${ctx.accountId} and o.store_id = ${storeId}::uuid and ${between(sql`o.created_at`)} group by 1`),
  );
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
      carts: c.get(date)?.n ?? 0,
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
