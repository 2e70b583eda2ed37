import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { TStore, TStoreAnalytics, TStoreExperience, ZStoreInput } from '@tourdesk/contracts';
import { baseAccount, experience, image, order, partnership, partnershipExperience, store, storeExperience, storeVisit, cart } from '../../db/schema';
import type { Db } from '../../db/client';
import type { Config } from '../../config';
import { assertOwned, type TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { addDays, eachDay } from '../../lib/local-time';
import { mediaUrl } from '../media/images';
import { onlineReady } from '../web-store/catalogue';
import { assertWithinLimit } from '../plans/service';

/**
 * Stores in the back office: their settings, the offers each shows (in its order), and what each
 * sold. A store is reached at /s/{slug}/ on its organisation's host (modules/web-store).
 */

type StoreRow = typeof store.$inferSelect;

/**
 * Whether the organisation resells under an Active contract whose supplier collects: its store may
 * then offer online payment without a Stripe account of its own (those offers are paid to the
 * supplier's; each cart says whether it may be paid online, `payableOnline`).
 */
async function resellsPaidToSupplier(ctx: TenantCtx) {
  const [row] = await ctx.tx
    .select({ id: partnership.id })
    .from(partnership)
    .where(and(eq(partnership.reseller_account_id, ctx.accountId), eq(partnership.status, 'Active'), eq(partnership.payment_collector, 'supplier')))
    .limit(1);
  return Boolean(row);
}

/** Input → columns; a logo must be one of the organisation's images, the currency its own by default. */
export async function storeValues(ctx: TenantCtx, input: Partial<z.output<typeof ZStoreInput>>, existing: StoreRow | undefined, platformHasStripe: boolean) {
  if (!existing) await assertWithinLimit(ctx, 'stores');
  if (input.logo) await assertOwned(ctx, image, input.logo, 'logo', 'image');
  if (input.payment_options?.includes('online') && !(await onlineReady(ctx, platformHasStripe)) && !(platformHasStripe && (await resellsPaidToSupplier(ctx)))) {
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


/*
 * The store's offers and the Global catalog list the organisation's own offers and, for a reseller,
 * its suppliers' offers shared with it under an Active contract in the store's currency (the same
 * rule as tourdesk_store_offers, which decides what the public store sells). A supplier's offer is
 * not in the reseller's tenant: these lists are read on the server's connection, after the
 * tenant's transaction has found the store, each filtered by the organisation and its contracts.
 */
type CatalogRow = { id: string; title: string; status: string; supplier: string | null; cover: string | null; position: number | null };
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const present = (r: CatalogRow): TStoreExperience => ({ experience: r.id, title: r.title, status: r.status, cover_url: mediaUrl(r.cover), position: r.position ?? 0, supplier: r.supplier });
const coverOf = (x: SQL) => sql`(select i.thumbnail_key from ${image} i where i.account_id = ${x}.account_id and i.experience_id = ${x}.id and i.status = 'ready' order by i.position limit 1)`;

/** The offers a contract lets the organisation resell in a store of `currency`: each with its partnership and supplier. */
const partnerOffers = (accountId: string, currency: string) => sql`
  select x.id, x.title, x.status, x.account_id, p.id as partnership, a.name as supplier
  from ${partnership} p join ${partnershipExperience} pe on pe.partnership_id = p.id
  join ${experience} x on x.id = pe.experience_id and x.account_id = p.supplier_account_id
  join ${baseAccount} a on a.id = p.supplier_account_id
  where p.reseller_account_id = ${accountId} and p.status = 'Active' and p.currency = ${currency} and x.status = 'Active'`;

/** The store's offers in its order (its own and its partners'), paged in SQL. */
export async function storeExperiences(db: Db, s: StoreRow, limit: number, offset: number): Promise<TStoreExperience[]> {
  const rows = rowsOf<CatalogRow>(
    await db.execute(sql`
      select x.id, x.title, x.status, ${coverOf(sql`x`)} as cover, se.position, case when se.partnership_id is null then null else a.name end as supplier
      from ${storeExperience} se join ${experience} x on x.id = se.experience_id join ${baseAccount} a on a.id = x.account_id
      left join ${partnership} p on p.id = se.partnership_id
      where se.account_id = ${s.account_id} and se.store_id = ${s.id}
        and (x.account_id = se.account_id or (p.reseller_account_id = se.account_id and p.supplier_account_id = x.account_id))
      order by se.position, x.title limit ${limit} offset ${offset}`),
  );
  return rows.map(present);
}

export async function countStoreExperiences(ctx: TenantCtx, storeId: string) {
  const [row] = await ctx.tx.select({ n: count() }).from(storeExperience).where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
  return Number(row?.n ?? 0);
}

/** The organisation's offers a store does not show yet (any status: a Draft shows once it is Active), then its partners'. */
function eligible(s: StoreRow, search?: string) {
  const term = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return sql`
    with listed as (select experience_id from ${storeExperience} where account_id = ${s.account_id} and store_id = ${s.id}),
    candidates as (
      select x.id, x.title, x.status, x.account_id, null::uuid as partnership, null::text as supplier from ${experience} x where x.account_id = ${s.account_id}
      union all ${partnerOffers(s.account_id, s.currency)}
    )
    select c.*, ${coverOf(sql`c`)} as cover, null::int as position from candidates c
    where c.id not in (select experience_id from listed) ${term ? sql`and c.title ilike ${term}` : sql``}`;
}

export async function countEligible(db: Db, s: StoreRow, search?: string) {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${eligible(s, search)}) e`));
  return Number(row?.n ?? 0);
}

export async function eligibleExperiences(db: Db, s: StoreRow, search: string | undefined, limit: number, offset: number): Promise<TStoreExperience[]> {
  const rows = rowsOf<CatalogRow>(await db.execute(sql`select * from (${eligible(s, search)}) e order by (e.supplier is not null), e.supplier, e.title, e.id limit ${limit} offset ${offset}`));
  return rows.map(present);
}

/** Which of `ids` are partners' offers the organisation may resell in the store `s` (id → partnership), read on the server's connection. */
export async function resellable(db: Db, s: StoreRow, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = rowsOf<{ id: string; partnership: string }>(await db.execute(sql`select o.id, o.partnership from (${partnerOffers(s.account_id, s.currency)}) o where o.id = any(${sql.param(ids)}::uuid[])`));
  return new Map(rows.map((r) => [r.id, r.partnership]));
}

/**
 * Adds offers at the end of the store's order (one already there stays where it is): the
 * organisation's own, or a partner's it may resell here (`partners`: id → partnership, from resellable()).
 */
export async function addExperiences(ctx: TenantCtx, storeId: string, ids: string[], partners: Map<string, string>) {
  await lockStore(ctx, storeId);
  const unique = [...new Set(ids)];
  const own = unique.filter((id) => !partners.has(id));
  const owned = own.length ? await ctx.tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, own))) : [];
  if (owned.length !== own.length) throw new AppError('invalid', 'No offer with this id in your organisation or your partners’ shared offers.', 'experiences');
  const [last] = await ctx.tx
    .select({ max: sql<number | null>`max(${storeExperience.position})` })
    .from(storeExperience)
    .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
  const start = Number(last?.max ?? -1) + 1;
  await ctx.tx
    .insert(storeExperience)
    .values(unique.map((id, i) => ({ account_id: ctx.accountId, store_id: storeId, experience_id: id, partnership_id: partners.get(id) ?? null, position: start + i })))
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
/**
 * Carts of partners' offers made in the caller's store, per local day: they are in the suppliers'
 * books (a cart moves to the seller of what it holds), so they are read on the server's
 * connection, only for a store of `accountId`.
 */
export async function partnerCartsByDay(db: Db, accountId: string, storeId: string, zone: string, from: string, to: string) {
  const upto = addDays(to, 1);
  const rows = (await db.execute(sql`
    select to_char((c.created_at at time zone ${zone})::date, 'YYYY-MM-DD') as day, count(*)::int as n
    from ${cart} c join ${store} s on s.id = c.store_id
    where c.store_id = ${storeId}::uuid and s.account_id = ${accountId}::uuid and c.account_id <> s.account_id
      and c.created_at >= (${from}::date::timestamp at time zone ${zone}) and c.created_at < (${upto}::date::timestamp at time zone ${zone})
    group by 1`)) as unknown as { rows: { day: string; n: number }[] };
  return new Map(rows.rows.map((r) => [r.day, r.n]));
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
      from ${order} o where (o.account_id = ${ctx.accountId} or o.reseller_account_id = ${ctx.accountId}) and o.store_id = ${storeId}::uuid and ${between(sql`o.created_at`)} group by 1`),
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
