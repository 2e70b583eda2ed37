import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { isLanguage, type Language } from '@tourdesk/contracts/i18n';
import type { Db } from '../../db/client';
import { baseAccount, cancellationPolicy, cartLine, inventoryItem, order, partnership, pricingRate, scheduleRule, store } from '../../db/schema';
import { assertOwned } from '../../lib/crud-queries';
import type { TenantCtx } from '../../lib/crud';
import { execute } from '../../db/execute';

/** The organisation module's only access to the database. */

/** The organisation's own row (`base_account`). */
export async function accountRow(ctx: TenantCtx) {
  const [a] = await ctx.tx.select().from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return a!;
}

/**
 * The one read of the languages an organisation sells in (`base_account.languages`, Settings →
 * Product configuration), its first the main one, the fallback of every translated text: for the
 * web store, orders and their tickets, and OCTO. Only known languages (LANGUAGES), never none
 * (English alone). By the organisation's id, in its tenant or on the server's connection; or by
 * its subdomain (the store's pages), null when no organisation has it.
 */
export async function sellingLanguages(db: Db, organisation: { id: string }): Promise<Language[]>;
export async function sellingLanguages(db: Db, organisation: { subdomain: string }): Promise<Language[] | null>;
export async function sellingLanguages(db: Db, organisation: { id: string } | { subdomain: string }): Promise<Language[] | null> {
  const where = 'id' in organisation ? eq(baseAccount.id, organisation.id) : eq(baseAccount.subdomain, organisation.subdomain);
  const [row] = await db.select({ languages: baseAccount.languages }).from(baseAccount).where(where);
  if (!row && !('id' in organisation)) return null;
  const known = (row?.languages ?? []).filter(isLanguage);
  return known.length ? known : ['en'];
}

/** Changes columns of the organisation's row. */
/** Ends the live holds whose departures now stop being on sale (the default cut-off changed): tourdesk_cut_holds. */
export async function cutHolds(ctx: TenantCtx) {
  await ctx.tx.execute(sql`select tourdesk_cut_holds(${ctx.accountId}::uuid, null)`);
}

export async function updateAccount(ctx: TenantCtx, set: Partial<typeof baseAccount.$inferInsert>) {
  await ctx.tx.update(baseAccount).set(set).where(eq(baseAccount.id, ctx.accountId));
}

/** Locks the organisation's row: a sale or hold that starts now reads the currency after this commits. */
export async function lockAccount(ctx: TenantCtx) {
  await ctx.tx.execute(sql`select 1 from ${baseAccount} where id = ${ctx.accountId}::uuid for update`);
}

/** Whether the organisation has an order or a held cart line (amounts in its currency on record). */
export async function hasSold(ctx: TenantCtx) {
  const sold = (await execute<{ sold: boolean }>(ctx.tx, sql`
    select exists (select 1 from ${order} where account_id = ${ctx.accountId}::uuid)
        or exists (select 1 from ${cartLine} where account_id = ${ctx.accountId}::uuid) as sold`));
  return sold.rows[0]!.sold;
}

/** Moves every price and extra to currency `to`, multiplying amounts by `factor` (a power of ten). */
export async function repriceAll(ctx: TenantCtx, to: string, factor: number) {
  await ctx.tx
    .update(pricingRate)
    .set({ currency: to, retail_price: sql`round(${pricingRate.retail_price} * ${factor}::numeric)::int`, net_price: sql`round(${pricingRate.net_price} * ${factor}::numeric)::int`, updated_at: new Date() })
    .where(eq(pricingRate.account_id, ctx.accountId));
  await ctx.tx
    .update(inventoryItem)
    .set({ currency: to, price: sql`round(${inventoryItem.price} * ${factor}::numeric)::int`, updated_at: new Date() })
    .where(eq(inventoryItem.account_id, ctx.accountId));
}

/**
 * The live partnerships (not Declined nor Ended) whose contract is in `currency`, or that this
 * organisation supplies (a supplier's contracts are in its currency): who is on the other side.
 * A reseller's partnership whose supplier is not known yet (an e-mail invitation) takes the
 * supplier's currency when accepted, so it is not counted.
 */
export function livePartnershipsIn(ctx: TenantCtx, currency: string) {
  return ctx.tx
    .select({ id: partnership.id, status: partnership.status, currency: partnership.currency, supplier: partnership.supplier_account_id, reseller: partnership.reseller_account_id, email: partnership.invite_email })
    .from(partnership)
    .where(
      and(
        inArray(partnership.status, ['Invited', 'Active', 'Suspended']),
        or(eq(partnership.supplier_account_id, ctx.accountId), and(eq(partnership.reseller_account_id, ctx.accountId), isNotNull(partnership.supplier_account_id), eq(partnership.currency, currency))),
      ),
    )
    .orderBy(partnership.created_at);
}

/** Moves every store of the organisation to currency `to`; answers how many moved. */
export async function moveStores(ctx: TenantCtx, to: string) {
  const moved = await ctx.tx.update(store).set({ currency: to, updated_at: new Date() }).where(eq(store.account_id, ctx.accountId)).returning({ id: store.id });
  return moved.length;
}

/** Names of other organisations (partners), read as tourdesk_server outside the tenant: the name, nothing else. */
export async function serverAccountNames(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db.select({ id: baseAccount.id, name: baseAccount.name }).from(baseAccount).where(inArray(baseAccount.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The experiences that have a schedule rule. */
export function scheduledExperiences(ctx: TenantCtx) {
  return ctx.tx.selectDistinct({ id: scheduleRule.experience_id }).from(scheduleRule).where(eq(scheduleRule.account_id, ctx.accountId));
}

/** The VAT rates per offer type, the organisation's row locked for the change. */
export async function lockVatRatesByType(ctx: TenantCtx) {
  const [a] = await ctx.tx.select({ rates: baseAccount.vat_rates_by_type }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId)).for('update');
  return a!.rates;
}

/** Refuses (400) a default cancellation policy that is not the organisation's. */
export function assertOwnCancellationPolicy(ctx: TenantCtx, id: string | null) {
  return assertOwned(ctx, cancellationPolicy, id, 'default_cancellation_policy', 'cancellation policy');
}
