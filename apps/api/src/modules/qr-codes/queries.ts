import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { QR_OWNERSHIPS } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import { baseAccount, cart, experience, order, qrCode, qrScanDay, store, storeExperience } from '../../db/schema';
import { assertOwned } from '../../lib/crud-queries';
import type { TenantCtx } from '../../lib/crud';
import { execute } from '../../db/execute';

/** The QR codes module's only access to the database. */

/** The code list for registerCrud: its table, the columns `search` looks in, the `ownership` filter and the order. */
export const qrCrud = {
  table: qrCode,
  search: [qrCode.name, qrCode.campaign],
  filters: { ownership: { schema: z.enum(QR_OWNERSHIPS), where: (v: string) => eq(qrCode.ownership, v) } },
  orderBy: [desc(qrCode.created_at), desc(qrCode.id)],
};

export interface PartnerStoreRow {
  store_id: string;
  name: string;
  slug: string;
  subdomain: string;
  partner: string;
  partnership_id: string;
}

/**
 * The organisation's resellers' stores that sell its offers now (tourdesk_partner_stores(), which
 * answers only for the tenant of ctx), all or those of `ids`.
 */
export async function partnerStoresOf(ctx: TenantCtx, ids?: string[]) {
  const rows = (await execute<PartnerStoreRow>(ctx.tx, sql`select * from tourdesk_partner_stores() ${ids ? sql`where store_id = any(${sql.param(ids)}::uuid[])` : sql``}`));
  return rows.rows;
}

/** Refuses (400, on `store`) a store that is not the organisation's. */
export function assertOwnStore(ctx: TenantCtx, storeId: string) {
  return assertOwned(ctx, store, storeId, 'store', 'store');
}

/** Refuses (400, on `experience`) an offer that is not the organisation's. */
export function assertOwnOffer(ctx: TenantCtx, experienceId: string) {
  return assertOwned(ctx, experience, experienceId, 'experience', 'offer');
}

/** Whether the store shows the offer. */
export async function storeSells(ctx: TenantCtx, storeId: string, experienceId: string) {
  const [sold] = await ctx.tx
    .select({ id: storeExperience.experience_id })
    .from(storeExperience)
    .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId), eq(storeExperience.experience_id, experienceId)));
  return Boolean(sold);
}

/** The organisation's host (its subdomain). */
export async function accountSubdomain(ctx: TenantCtx) {
  const [account] = await ctx.tx.select({ subdomain: baseAccount.subdomain }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return account!.subdomain;
}

/** The organisation's name. */
export async function accountName(ctx: TenantCtx) {
  const [account] = await ctx.tx.select({ name: baseAccount.name }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return account!.name;
}

/** Orders and revenue per code (code id → figures): one aggregate over the orders the codes brought. */
export async function qrFigures(ctx: TenantCtx, ids: string[]) {
  return new Map(
    (
      await ctx.tx
        .select({
          id: order.qr_code_id,
          orders: sql<number>`count(*)::int`,
          revenue: sql<number>`coalesce(sum(${order.total}) filter (where ${order.status} <> 'Canceled'), 0)::int`,
        })
        .from(order)
        .where(and(eq(order.account_id, ctx.accountId), inArray(order.qr_code_id, ids)))
        .groupBy(order.qr_code_id)
    ).map((r) => [r.id!, r]),
  );
}

/** The organisation's stores' names and addresses (id → store). */
export async function storeNames(ctx: TenantCtx, storeIds: string[]) {
  return new Map(
    storeIds.length ? (await ctx.tx.select({ id: store.id, name: store.name, slug: store.slug }).from(store).where(and(eq(store.account_id, ctx.accountId), inArray(store.id, storeIds)))).map((s) => [s.id, s]) : [],
  );
}

/** The organisation's offers' titles (id → offer). */
export async function offerTitles(ctx: TenantCtx, offerIds: string[]) {
  return new Map(
    offerIds.length ? (await ctx.tx.select({ id: experience.id, title: experience.title }).from(experience).where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, offerIds)))).map((e) => [e.id, e]) : [],
  );
}

/** One of the organisation's codes. */
export async function qrCodeById(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(qrCode).where(and(eq(qrCode.account_id, ctx.accountId), eq(qrCode.id, id)));
  return row;
}

/** The organisation at a host (its subdomain): id and time zone. */
export async function accountBySubdomain(db: Db, subdomain: string) {
  const [account] = await db.select({ id: baseAccount.id, zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.subdomain, subdomain));
  return account;
}

/** A code by its text; with `count`, counts a scan on it (its total and last scan) and answers it as updated. */
export async function qrCodeByCode(ctx: TenantCtx, code: string, count: boolean) {
  const where = and(eq(qrCode.account_id, ctx.accountId), eq(qrCode.code, code));
  const [row] = count ? await ctx.tx.update(qrCode).set({ scans: sql`${qrCode.scans} + 1`, last_scanned_at: new Date() }).where(where).returning() : await ctx.tx.select().from(qrCode).where(where);
  return row;
}

/** Counts a scan on the code's local day (upserted). */
export async function countScanDay(ctx: TenantCtx, qrCodeId: string, day: string) {
  await ctx.tx
    .insert(qrScanDay)
    .values({ account_id: ctx.accountId, qr_code_id: qrCodeId, day, scans: 1 })
    .onConflictDoUpdate({ target: [qrScanDay.qr_code_id, qrScanDay.day], set: { scans: sql`${qrScanDay.scans} + 1` } });
}

/** The address (slug) of one of the organisation's stores. */
export async function storeSlug(ctx: TenantCtx, storeId: string) {
  const [s] = await ctx.tx.select({ slug: store.slug }).from(store).where(and(eq(store.account_id, ctx.accountId), eq(store.id, storeId)));
  return s;
}

/** The id of one of the organisation's codes, by its text. */
export async function qrCodeIdOf(ctx: TenantCtx, code: string) {
  const [row] = await ctx.tx.select({ id: qrCode.id }).from(qrCode).where(and(eq(qrCode.account_id, ctx.accountId), eq(qrCode.code, code)));
  return row;
}

/** Records on a cart the code that brought it. */
export async function setCartQrCode(ctx: TenantCtx, cartId: string, qrCodeId: string) {
  await ctx.tx.update(cart).set({ qr_code_id: qrCodeId }).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
}
