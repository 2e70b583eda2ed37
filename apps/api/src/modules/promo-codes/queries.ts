import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { baseAccount, experience, order, pricingCategory, promoCode, slot, store } from '../../db/schema';
import { assertOwned, ownedIds } from '../../lib/crud-queries';
import { execute } from '../../db/execute';
import type { TenantCtx } from '../../lib/crud';

/** The promo codes module's only access to the database. */

/** The code list for registerCrud: its table, the columns `search` looks in, the `active` filter and the order. */
export const promoCrud = {
  table: promoCode,
  search: [promoCode.code, promoCode.description],
  filters: { active: { schema: z.enum(['true', 'false']), where: (v: string) => eq(promoCode.active, v === 'true') } },
  orderBy: [desc(promoCode.created_at), desc(promoCode.id)],
};

export type PromoRow = typeof promoCode.$inferSelect;

/** One of the organisation's codes by what was typed, whatever its case (promo_code_code_key). */
export async function promoByCode(ctx: TenantCtx, code: string) {
  const [row] = await ctx.tx
    .select()
    .from(promoCode)
    .where(and(eq(promoCode.account_id, ctx.accountId), sql`lower(${promoCode.code}) = lower(${code})`));
  return row;
}

/**
 * Takes one use of the code: a conditional UPDATE, so of two checkouts taking the last use the second
 * waits on the row's lock and then finds it used up (no row). Answers the code's limit per customer when a use was taken, else nothing.
 */
/**
 * Takes one use of a code for a sale, or refuses it (used up, or past its limit per customer):
 * tourdesk_take_promo_use() (04-carts.sql), the one definition, also run by a checkout's sale at its commit.
 */
export async function takeUse(ctx: TenantCtx, promo: { id: string; code: string }, email: string | null) {
  await execute(ctx.tx, sql`select tourdesk_take_promo_use(${ctx.accountId}, ${promo.id}, ${promo.code}, ${email})`);
}

/** How many orders with this customer's e-mail used the code (orders_account_promo_idx). */
export async function usesByCustomer(ctx: TenantCtx, id: string, email: string) {
  const [row] = await ctx.tx
    .select({ n: sql<number>`count(*)::int` })
    .from(order)
    .where(and(eq(order.account_id, ctx.accountId), eq(order.promo_code_id, id), sql`lower(${order.customer_email}) = lower(${email})`));
  return row?.n ?? 0;
}

/** The organisation's time zone (its local dates are the windows'). */
export async function accountZone(ctx: TenantCtx) {
  const [a] = await ctx.tx.select({ zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return a!.zone;
}

/** The local date of each slot's departure (one query). */
export async function slotDates(ctx: TenantCtx, slotIds: string[]) {
  if (slotIds.length === 0) return new Map<string, string>();
  const rows = await ctx.tx
    .select({ id: slot.id, date: slot.local_date })
    .from(slot)
    .where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, slotIds)));
  return new Map(rows.map((r) => [r.id, String(r.date)]));
}

/** Revenue per code (id → the total of its orders not cancelled): one aggregate over orders_account_promo_idx. */
export async function promoRevenue(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return new Map<string, number>();
  const rows = await ctx.tx
    .select({ id: order.promo_code_id, revenue: sql<number>`coalesce(sum(${order.total}) filter (where ${order.status} <> 'Canceled'), 0)::int` })
    .from(order)
    .where(and(eq(order.account_id, ctx.accountId), inArray(order.promo_code_id, ids)))
    .groupBy(order.promo_code_id);
  return new Map(rows.map((r) => [r.id!, r.revenue]));
}

/** The organisation's stores' names (id → name). */
export async function storeNames(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await ctx.tx.select({ id: store.id, name: store.name }).from(store).where(and(eq(store.account_id, ctx.accountId), inArray(store.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Refuses (400) a store, offer or pricing category that is not the organisation's. */
export const assertOwnStore = (ctx: TenantCtx, id: string) => assertOwned(ctx, store, id, 'store', 'store');
export async function assertOwnAll(ctx: TenantCtx, kind: 'experiences' | 'categories', ids: string[]) {
  if (ids.length === 0) return;
  const table = kind === 'experiences' ? experience : pricingCategory;
  const owned = await ownedIds(ctx.tx, table, ctx.accountId, ids);
  return ids.findIndex((id) => !owned.has(id));
}
