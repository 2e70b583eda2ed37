import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { baseAccount, cart, experience, image, order, partnership, partnershipExperience, store, storeExperience, storeVisit } from '../../db/schema';
import { assertOwned } from '../../lib/crud-queries';
import type { TenantCtx } from '../../lib/crud';
import { execute } from '../../db/execute';

/** The stores module's only access to the database. */

type StoreRow = typeof store.$inferSelect;

/** The store list for registerCrud: its table, the columns `search` looks in, the `active` filter and the order. */
export const storeCrud = {
  table: store,
  search: [store.name, store.slug],
  filters: { active: { schema: z.enum(['true', 'false']), where: (v: string) => eq(store.active, v === 'true') } },
  orderBy: [desc(store.created_at), desc(store.id)],
};

/** The partnership under which `resellerId` resells `sellerId`'s offers (the live one first), with the supplier's zone and name. */
export async function sellerPartnership(db: Db, sellerId: string, resellerId: string) {
  const [p] = await db
    .select({ id: partnership.id, zone: baseAccount.time_zone, supplier: baseAccount.name })
    .from(partnership)
    .innerJoin(baseAccount, eq(baseAccount.id, partnership.supplier_account_id))
    .where(and(eq(partnership.supplier_account_id, sellerId), eq(partnership.reseller_account_id, resellerId)))
    .orderBy(sql`${partnership.status} = 'Active' desc`, desc(partnership.created_at))
    .limit(1);
  return p;
}

/** A store by id, active or not, with its organisation's zone, name and host. */
export async function storeWithOrganisation(db: Db, storeId: string) {
  const [found] = await db
    .select({ s: store, zone: baseAccount.time_zone, name: baseAccount.name, subdomain: baseAccount.subdomain })
    .from(store)
    .innerJoin(baseAccount, eq(baseAccount.id, store.account_id))
    .where(eq(store.id, storeId));
  return found;
}

/**
 * Whether the organisation resells under an Active contract whose supplier collects: its store may
 * then offer online payment without a Stripe account of its own (those offers are paid to the
 * supplier's; each cart says whether it may be paid online, `payableOnline`).
 */
export async function resellsPaidToSupplier(ctx: TenantCtx) {
  const [row] = await ctx.tx
    .select({ id: partnership.id })
    .from(partnership)
    .where(and(eq(partnership.reseller_account_id, ctx.accountId), eq(partnership.status, 'Active'), eq(partnership.payment_collector, 'supplier')))
    .limit(1);
  return Boolean(row);
}

/** How many offers each of the stores shows (store id → count; one grouped count). */
export async function experienceCounts(ctx: TenantCtx, storeIds: string[]) {
  return new Map(
    (
      await ctx.tx
        .select({ id: storeExperience.store_id, n: count() })
        .from(storeExperience)
        .where(and(eq(storeExperience.account_id, ctx.accountId), inArray(storeExperience.store_id, storeIds)))
        .groupBy(storeExperience.store_id)
    ).map((r) => [r.id, Number(r.n)]),
  );
}

/** The storage keys of the organisation's images (id → key). */
export async function imageKeys(ctx: TenantCtx, imageIds: string[]) {
  return new Map(
    imageIds.length ? (await ctx.tx.select({ id: image.id, key: image.storage_key }).from(image).where(and(eq(image.account_id, ctx.accountId), inArray(image.id, imageIds)))).map((r) => [r.id, r.key]) : [],
  );
}

/** Refuses (400, on `logo`) an image that is not the organisation's. */
export function assertOwnImage(ctx: TenantCtx, imageId: string) {
  return assertOwned(ctx, image, imageId, 'logo', 'image');
}

/** The organisation's host (its subdomain). */
export async function accountSubdomain(ctx: TenantCtx) {
  const [account] = await ctx.tx.select({ subdomain: baseAccount.subdomain }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return account!.subdomain;
}

/** The organisation's time zone. */
export async function accountZone(ctx: TenantCtx) {
  const [account] = await ctx.tx.select({ zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return account!.zone;
}

/** Whether the store has an order. */
export async function storeHasOrders(ctx: TenantCtx, storeId: string) {
  const [sold] = await ctx.tx.select({ id: order.id }).from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.store_id, storeId))).limit(1);
  return Boolean(sold);
}

/** One of the organisation's stores. */
export async function storeById(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(store).where(and(eq(store.account_id, ctx.accountId), eq(store.id, id)));
  return row;
}

/** The organisation's stores, active ones first, then by name, each with whether it shows the offer; undefined when the offer is not the organisation's. */
export async function storesShowing(ctx: TenantCtx, experienceId: string) {
  const [own] = await ctx.tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, ctx.accountId), eq(experience.id, experienceId)));
  if (!own) return undefined;
  const shows = sql<boolean>`exists (select 1 from ${storeExperience} se where se.account_id = ${store.account_id} and se.store_id = ${store.id} and se.experience_id = ${experienceId})`;
  const rows = await ctx.tx.select({ row: store, sells: shows }).from(store).where(eq(store.account_id, ctx.accountId)).orderBy(desc(store.active), store.name);
  const [partners] = await ctx.tx
    .select({ n: count() })
    .from(partnership)
    .innerJoin(partnershipExperience, eq(partnershipExperience.partnership_id, partnership.id))
    .where(and(eq(partnership.supplier_account_id, ctx.accountId), eq(partnership.status, 'Active'), eq(partnershipExperience.experience_id, experienceId)));
  return { rows, partners: Number(partners?.n ?? 0) };
}

/** The store's row, locked (`for no key update`); undefined when it is not the organisation's. */
export async function lockStore(ctx: TenantCtx, storeId: string) {
  const [row] = await ctx.tx.select({ id: store.id }).from(store).where(and(eq(store.account_id, ctx.accountId), eq(store.id, storeId))).for('no key update');
  return row;
}

/*
 * The store's offers and the Global catalog: read on the server's connection (a supplier's offer is
 * not in the reseller's tenant), each filtered by the organisation and its contracts.
 */
export type CatalogRow = { id: string; title: string; status: string; supplier: string | null; cover: string | null; position: number | null };
const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const coverOf = (x: SQL) => sql`(select i.thumbnail_key from ${image} i where i.account_id = ${x}.account_id and i.experience_id = ${x}.id and i.status = 'ready' order by i.position limit 1)`;

/** The offers a contract lets the organisation resell in a store of `currency`: each with its partnership and supplier. */
const partnerOffers = (accountId: string, currency: string) => sql`
  select x.id, x.title, x.status, x.account_id, p.id as partnership, a.name as supplier
  from ${partnership} p join ${partnershipExperience} pe on pe.partnership_id = p.id
  join ${experience} x on x.id = pe.experience_id and x.account_id = p.supplier_account_id
  join ${baseAccount} a on a.id = p.supplier_account_id
  where p.reseller_account_id = ${accountId} and p.status = 'Active' and p.currency = ${currency} and x.status = 'Active'`;

/** A page of the store's offers in its order (its own and its partners'). */
export async function storeExperienceRows(db: Db, s: StoreRow, limit: number, offset: number) {
  return rowsOf<CatalogRow>(
    await db.execute(sql`
      select x.id, x.title, x.status, ${coverOf(sql`x`)} as cover, se.position, case when se.partnership_id is null then null else a.name end as supplier
      from ${storeExperience} se join ${experience} x on x.id = se.experience_id join ${baseAccount} a on a.id = x.account_id
      left join ${partnership} p on p.id = se.partnership_id
      where se.account_id = ${s.account_id} and se.store_id = ${s.id}
        and (x.account_id = se.account_id or (p.reseller_account_id = se.account_id and p.supplier_account_id = x.account_id))
      order by se.position, x.title limit ${limit} offset ${offset}`),
  );
}

/** How many offers the store shows. */
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

/** How many offers the store could add (matching `search`). */
export async function countEligible(db: Db, s: StoreRow, search?: string) {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${eligible(s, search)}) e`));
  return Number(row?.n ?? 0);
}

/** A page of the offers the store could add: its own first, then by supplier and title. */
export async function eligibleRows(db: Db, s: StoreRow, search: string | undefined, limit: number, offset: number) {
  return rowsOf<CatalogRow>(await db.execute(sql`select * from (${eligible(s, search)}) e order by (e.supplier is not null), e.supplier, e.title, e.id limit ${limit} offset ${offset}`));
}

/** Which of `ids` are partners' offers the organisation may resell in the store `s` (id → partnership). */
export async function resellableOffers(db: Db, s: StoreRow, ids: string[]) {
  const rows = rowsOf<{ id: string; partnership: string }>(await db.execute(sql`select o.id, o.partnership from (${partnerOffers(s.account_id, s.currency)}) o where o.id = any(${sql.param(ids)}::uuid[])`));
  return new Map(rows.map((r) => [r.id, r.partnership]));
}

/** Which of `ids` are the organisation's own offers. */
export function ownExperienceIds(ctx: TenantCtx, ids: string[]) {
  return ctx.tx.select({ id: experience.id }).from(experience).where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, ids)));
}

/** The last position in the store's order (null for an empty store). */
export async function lastPosition(ctx: TenantCtx, storeId: string) {
  const [last] = await ctx.tx
    .select({ max: sql<number | null>`max(${storeExperience.position})` })
    .from(storeExperience)
    .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
  return last?.max ?? null;
}

/** Puts offers in the store at the given positions (one already there stays where it is). */
export async function insertStoreExperiences(ctx: TenantCtx, rows: { store_id: string; experience_id: string; partnership_id: string | null; position: number }[]) {
  await ctx.tx
    .insert(storeExperience)
    .values(rows.map((r) => ({ account_id: ctx.accountId, ...r })))
    .onConflictDoNothing();
}

/** Takes an offer off the store; the rows taken off. */
export function deleteStoreExperience(ctx: TenantCtx, storeId: string, experienceId: string) {
  return ctx.tx
    .delete(storeExperience)
    .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId), eq(storeExperience.experience_id, experienceId)))
    .returning();
}

/** The ids of the offers the store shows. */
export function storeExperienceIds(ctx: TenantCtx, storeId: string) {
  return ctx.tx.select({ id: storeExperience.experience_id }).from(storeExperience).where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId)));
}

/** Numbers the store's offers 0, 1, … in the order of `ids` (one update). */
export async function setPositions(ctx: TenantCtx, storeId: string, ids: string[]) {
  await ctx.tx.execute(sql`
    update ${storeExperience} se set position = o.pos - 1
    from unnest(${sql.param(ids)}::uuid[]) with ordinality as o(id, pos)
    where se.account_id = ${ctx.accountId} and se.store_id = ${storeId}::uuid and se.experience_id = o.id`);
}

/** Partners' carts made in a store of `accountId`, per local day of [from, to] (day → count), on the server's connection. */
export async function partnerCartsByDay(db: Db, accountId: string, storeId: string, zone: string, from: string, upto: string) {
  const rows = (await execute<{ day: string; n: number }>(db, sql`
    select to_char((c.created_at at time zone ${zone})::date, 'YYYY-MM-DD') as day, count(*)::int as n
    from ${cart} c join ${store} s on s.id = c.store_id
    where c.store_id = ${storeId}::uuid and s.account_id = ${accountId}::uuid and c.account_id <> s.account_id
      and c.created_at >= (${from}::date::timestamp at time zone ${zone}) and c.created_at < (${upto}::date::timestamp at time zone ${zone})
    group by 1`));
  return new Map(rows.rows.map((r) => [r.day, r.n]));
}

/** The store's figures per local day in `zone` from `from` up to (not including) `upto`: visits, carts, orders with seats and revenue (three aggregates). */
export async function dailyFigures(ctx: TenantCtx, storeId: string, zone: string, from: string, to: string, upto: string) {
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
  return { visits, carts, orders };
}
