import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKey, auditEvent, baseAccount, booking, cartLine, experience, order, partnership, partnershipExperience, pricingCategory, pricingRate, slot, users, type SoldItem } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { execute, transaction } from '../../db/execute';

/**
 * The partners module's only ORM access. Partnerships are read in the caller's tenant (the policy
 * partner_isolation shows the rows where it is either side); the other organisation's name and
 * subdomain, and the titles of the offers a contract shares, are read outside the tenant (as
 * tourdesk_server) by the functions whose names start with `server`, which select nothing more.
 */

export type PartnershipRow = typeof partnership.$inferSelect;
export type Side = 'supplier' | 'reseller';

const mine = (accountId: string, side: Side) => (side === 'supplier' ? eq(partnership.supplier_account_id, accountId) : eq(partnership.reseller_account_id, accountId));
export const eitherSide = (accountId: string) => or(eq(partnership.supplier_account_id, accountId), eq(partnership.reseller_account_id, accountId))!;

export interface ListFilter {
  side: Side;
  status?: string;
  /** Partner ids whose name or subdomain matched, and the search term for the invited e-mail. */
  search?: { term: string; partnerIds: string[] };
}

function listWhere(ctx: TenantCtx, f: ListFilter): SQL {
  const conds: SQL[] = [mine(ctx.accountId, f.side)];
  if (f.status) conds.push(eq(partnership.status, f.status));
  if (f.search) {
    const other = f.side === 'supplier' ? partnership.reseller_account_id : partnership.supplier_account_id;
    const bySearch = [ilike(partnership.invite_email, `%${escapeLike(f.search.term)}%`)];
    if (f.search.partnerIds.length) bySearch.push(inArray(other, f.search.partnerIds));
    conds.push(or(...bySearch)!);
  }
  return and(...conds)!;
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function countPartnerships(ctx: TenantCtx, f: ListFilter) {
  const [row] = await ctx.tx.select({ n: count() }).from(partnership).where(listWhere(ctx, f));
  return Number(row!.n);
}

/** A page, newest first: served by partnership_supplier_idx / partnership_reseller_idx (side, status, created_at). */
export function pagePartnerships(ctx: TenantCtx, f: ListFilter, limit: number, offset: number) {
  return ctx.tx.select().from(partnership).where(listWhere(ctx, f)).orderBy(desc(partnership.created_at), desc(partnership.id)).limit(limit).offset(offset);
}

export async function loadPartnership(ctx: TenantCtx, id: string, lock = false) {
  const q = ctx.tx.select().from(partnership).where(and(eq(partnership.id, id), eitherSide(ctx.accountId)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function liveBetween(ctx: TenantCtx, supplier: string, reseller: string) {
  const [row] = await ctx.tx
    .select({ id: partnership.id })
    .from(partnership)
    .where(and(eq(partnership.supplier_account_id, supplier), eq(partnership.reseller_account_id, reseller), inArray(partnership.status, ['Invited', 'Active', 'Suspended'])));
  return row;
}

/** The caller's own organisation's name (its own row, in its tenant). */
/** The inviting organisation's name and the inviting user's back-office language (their invitation's, with the organisation's languages). */
export async function inviter(ctx: TenantCtx, userId: string) {
  const [row] = await ctx.tx
    .select({ name: baseAccount.name, language: users.language })
    .from(baseAccount)
    .leftJoin(users, and(eq(users.account_id, baseAccount.id), eq(users.id, userId)))
    .where(eq(baseAccount.id, ctx.accountId));
  return row;
}

export async function insertPartnership(ctx: TenantCtx, values: typeof partnership.$inferInsert) {
  const [row] = await ctx.tx.insert(partnership).values(values).returning();
  return row!;
}

export async function updatePartnership(tx: Db, id: string, values: Partial<typeof partnership.$inferInsert>) {
  const [row] = await tx
    .update(partnership)
    .set({ ...values, updated_at: new Date() })
    .where(eq(partnership.id, id))
    .returning();
  return row!;
}

export function sharedOffersOf(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ctx.tx
    .select({ partnership_id: partnershipExperience.partnership_id, experience_id: partnershipExperience.experience_id, net_rates: partnershipExperience.net_rates })
    .from(partnershipExperience)
    .where(inArray(partnershipExperience.partnership_id, ids))
    .orderBy(asc(partnershipExperience.created_at), asc(partnershipExperience.experience_id));
}

export async function replaceSharedOffers(ctx: TenantCtx, partnershipId: string, offers: { experience_id: string; net_rates: Record<string, number> }[]) {
  await ctx.tx.delete(partnershipExperience).where(eq(partnershipExperience.partnership_id, partnershipId));
  if (offers.length) {
    await ctx.tx.insert(partnershipExperience).values(offers.map((o) => ({ partnership_id: partnershipId, account_id: ctx.accountId, experience_id: o.experience_id, net_rates: o.net_rates })));
  }
}

/** The organisation's own offers and pricing categories among `ids` (a contract shares only the supplier's own). */
export async function ownExperiences(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await ctx.tx
    .select({ id: experience.id })
    .from(experience)
    .where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, ids)));
  return new Set(rows.map((r) => r.id));
}
export async function ownCategories(ctx: TenantCtx, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await ctx.tx
    .select({ id: pricingCategory.id })
    .from(pricingCategory)
    .where(and(eq(pricingCategory.account_id, ctx.accountId), inArray(pricingCategory.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** The supplier's offers (not archived ones) with their pricing rates' retail and net prices, for the contract form. */
export async function offerChoices(ctx: TenantCtx) {
  const offers = await ctx.tx
    .select({ id: experience.id, title: experience.title, status: experience.status })
    .from(experience)
    .where(eq(experience.account_id, ctx.accountId))
    .orderBy(asc(experience.title), asc(experience.id));
  const prices = await ctx.tx
    .select({
      experience_id: pricingRate.experience_id,
      pricing_category_id: pricingRate.pricing_category_id,
      label: pricingCategory.label,
      type: pricingCategory.type,
      retail_price: pricingRate.retail_price,
      net_price: pricingRate.net_price,
    })
    .from(pricingRate)
    .innerJoin(pricingCategory, eq(pricingCategory.id, pricingRate.pricing_category_id))
    .where(eq(pricingRate.account_id, ctx.accountId))
    .orderBy(asc(pricingCategory.label), asc(pricingRate.created_at));
  return { offers, prices };
}

export async function recordPartnerAudit(tx: Db, accountId: string, userId: string | undefined, partnershipId: string, action: string, changes: Record<string, unknown> = {}) {
  await tx.insert(auditEvent).values({ account_id: accountId, subject: 'partnership', subject_id: partnershipId, action, changes, actor_id: userId ?? null });
}

// API keys (the supplier's tenant).
export function listApiKeys(ctx: TenantCtx, partnershipId: string, limit: number, offset: number) {
  return ctx.tx
    .select()
    .from(apiKey)
    .where(and(eq(apiKey.account_id, ctx.accountId), eq(apiKey.partnership_id, partnershipId)))
    .orderBy(desc(apiKey.created_at), desc(apiKey.id))
    .limit(limit)
    .offset(offset);
}
export async function countApiKeys(ctx: TenantCtx, partnershipId: string) {
  const [row] = await ctx.tx
    .select({ n: count() })
    .from(apiKey)
    .where(and(eq(apiKey.account_id, ctx.accountId), eq(apiKey.partnership_id, partnershipId)));
  return Number(row!.n);
}
export async function insertApiKey(ctx: TenantCtx, values: Omit<typeof apiKey.$inferInsert, 'account_id'>) {
  const [row] = await ctx.tx
    .insert(apiKey)
    .values({ ...values, account_id: ctx.accountId })
    .returning();
  return row!;
}
export async function revokeApiKey(ctx: TenantCtx, partnershipId: string, keyId: string) {
  const [row] = await ctx.tx
    .update(apiKey)
    .set({ revoked_at: new Date() })
    .where(and(eq(apiKey.account_id, ctx.accountId), eq(apiKey.partnership_id, partnershipId), eq(apiKey.id, keyId), isNull(apiKey.revoked_at)))
    .returning();
  return row;
}
export async function apiKeyExists(ctx: TenantCtx, partnershipId: string, keyId: string) {
  const [row] = await ctx.tx
    .select({ id: apiKey.id })
    .from(apiKey)
    .where(and(eq(apiKey.account_id, ctx.accountId), eq(apiKey.partnership_id, partnershipId), eq(apiKey.id, keyId)));
  return Boolean(row);
}
/** Revokes every live key of a partnership (when it ends). */
export async function revokeAllApiKeys(ctx: TenantCtx, partnershipId: string) {
  await ctx.tx
    .update(apiKey)
    .set({ revoked_at: new Date() })
    .where(and(eq(apiKey.account_id, ctx.accountId), eq(apiKey.partnership_id, partnershipId), isNull(apiKey.revoked_at)));
}

// Outside the tenant (tourdesk_server): only what must be read across organisations.

/** Name and subdomain of organisations (partners of the caller), nothing else. */
export async function serverAccountNames(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, { name: string; subdomain: string }>();
  const rows = await db.select({ id: baseAccount.id, name: baseAccount.name, subdomain: baseAccount.subdomain }).from(baseAccount).where(inArray(baseAccount.id, ids));
  return new Map(rows.map((r) => [r.id, { name: r.name, subdomain: r.subdomain }]));
}

/** The organisation of a subdomain (to invite it): its id, name, subdomain and currency. */
export async function serverAccountBySubdomain(db: Db, subdomain: string) {
  const [row] = await db
    .select({ id: baseAccount.id, name: baseAccount.name, subdomain: baseAccount.subdomain, currency: baseAccount.currency })
    .from(baseAccount)
    .where(eq(baseAccount.subdomain, subdomain));
  return row;
}

/** Of the caller's partners on one side, those whose name or subdomain contains `term`. */
export async function serverMatchingPartners(db: Db, accountId: string, side: Side, term: string) {
  const other = side === 'supplier' ? partnership.reseller_account_id : partnership.supplier_account_id;
  const rows = await db
    .selectDistinct({ id: baseAccount.id })
    .from(partnership)
    .innerJoin(baseAccount, eq(baseAccount.id, other))
    .where(and(mine(accountId, side), isNotNull(other), or(ilike(baseAccount.name, `%${escapeLike(term)}%`), ilike(baseAccount.subdomain, `%${escapeLike(term)}%`))));
  return rows.map((r) => r.id);
}

/** Titles of the supplier's offers a contract shares (the reseller cannot read the supplier's catalogue). */
export async function serverOfferTitles(db: Db, supplierId: string, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: experience.id, title: experience.title })
    .from(experience)
    .where(and(eq(experience.account_id, supplierId), inArray(experience.id, ids)));
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Revokes every live key of an ended partnership, whoever ended it. */
export async function serverRevokeAllApiKeys(db: Db, partnershipId: string) {
  await db
    .update(apiKey)
    .set({ revoked_at: new Date() })
    .where(and(eq(apiKey.partnership_id, partnershipId), isNull(apiKey.revoked_at)));
}

/** Sets the token's hash of an e-mail invitation still open (its e-mail is being sent): whether it was. */
export async function serverSetInviteToken(db: Db, partnershipId: string, tokenHash: string) {
  const rows = await db
    .update(partnership)
    .set({ invite_token_hash: tokenHash })
    .where(and(eq(partnership.id, partnershipId), eq(partnership.status, 'Invited'), isNotNull(partnership.invite_email)))
    .returning({ id: partnership.id });
  return rows.length > 0;
}

/** An e-mail invitation by its token's hash, still open. */
export async function serverInvitation(db: Db, tokenHash: string, lock = false) {
  const q = db
    .select()
    .from(partnership)
    .where(and(eq(partnership.invite_token_hash, tokenHash), eq(partnership.status, 'Invited')));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}
export async function serverOfferCount(db: Db, partnershipId: string) {
  const [row] = await db.select({ n: count() }).from(partnershipExperience).where(eq(partnershipExperience.partnership_id, partnershipId));
  return Number(row!.n);
}
export async function serverLiveBetween(db: Db, supplier: string, reseller: string) {
  const [row] = await db
    .select({ id: partnership.id })
    .from(partnership)
    .where(and(eq(partnership.supplier_account_id, supplier), eq(partnership.reseller_account_id, reseller), inArray(partnership.status, ['Invited', 'Active', 'Suspended'])));
  return row;
}

/** Runs `fn` in one transaction on the server's connection, outside any tenant (an e-mail invitation's answer). */
export function inServerTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>) {
  return transaction(db, fn);
}

/** The supplier's (ctx's) partnership, locked FOR SHARE: a suspension waits for the sale, and the sale sees the suspension after. */
export async function lockContract(ctx: TenantCtx, partnershipId: string) {
  const [contract] = await ctx.tx
    .select()
    .from(partnership)
    .where(and(eq(partnership.id, partnershipId), eq(partnership.supplier_account_id, ctx.accountId)))
    .for('share');
  return contract;
}

/** Whether each side's plan has the partners feature (tourdesk_partnership_plans: it reads the other side's plan too). */
export async function partnershipPlans(ctx: TenantCtx, partnershipId: string) {
  const rows = (await execute<{ supplier: boolean; reseller: boolean }>(ctx.tx, sql`select supplier, reseller from tourdesk_partnership_plans(${partnershipId}::uuid)`));
  return rows.rows[0] ?? { supplier: false, reseller: false };
}

/** The net rates the contract sets for an offer it shares (undefined when it does not share it). */
export async function sharedOfferRates(ctx: TenantCtx, partnershipId: string, experienceId: string) {
  const [shared] = await ctx.tx
    .select({ net_rates: partnershipExperience.net_rates })
    .from(partnershipExperience)
    .where(and(eq(partnershipExperience.partnership_id, partnershipId), eq(partnershipExperience.experience_id, experienceId), eq(partnershipExperience.account_id, ctx.accountId)));
  return shared;
}

/** The slots a cart's lines hold (all its lines, or those of `lines`). */
export async function cartSlots(ctx: TenantCtx, cartId: string, lines?: string[]) {
  const slots = (await execute<{ slot: string }>(ctx.tx, sql`
    select distinct l.slot_id as slot from ${cartLine} l
    where l.account_id = ${ctx.accountId} and l.cart_id = ${cartId}::uuid ${lines ? sql`and l.id = any(${sql.param(lines)}::uuid[])` : sql``}`));
  return slots.rows.map((r) => r.slot);
}

/** The offers and local days of the slots. */
export async function offerDaysOfSlots(ctx: TenantCtx, slotIds: string[]) {
  const held = (await execute<{ experience: string; day: string }>(ctx.tx, sql`
    select distinct s.experience_id as experience, s.local_date::text as day from ${slot} s
    where s.account_id = ${ctx.accountId} and s.id = any(${sql.param(slotIds)}::uuid[])`));
  return held.rows;
}

/** Names an order as the partner's resale: its partnership, reseller and the reseller's reference. */
export async function markOrderResold(ctx: TenantCtx, orderId: string, partnershipId: string, resellerId: string | null, reference: string | null) {
  await ctx.tx.execute(sql`
    update ${order} set partnership_id = ${partnershipId}, reseller_account_id = ${resellerId}, reseller_reference = ${reference}
    where account_id = ${ctx.accountId} and id = ${orderId}`);
}

/**
 * The net prices of the pricing rates that price an offer on a local date, as a jsonb object per
 * category id (the rate of the offer and category that covers the date, as tourdesk_price()
 * chooses it; categories whose rate has no net price are absent): what `netRatesOf()` fills a
 * category the contract leaves blank with. SQL expressions for the account, the offer and the date.
 */
export const rateNetOn = (accountId: SQL, experienceId: SQL, localDate: SQL) => sql`
      coalesce((select jsonb_object_agg(r.pricing_category_id, r.net_price) from ${pricingRate} r
        where r.account_id = ${accountId} and r.experience_id = ${experienceId} and r.net_price is not null
          and (r.valid_from is null or r.valid_from <= ${localDate}) and (r.valid_to is null or r.valid_to >= ${localDate})
          and (cardinality(r.weekdays) = 0 or extract(isodow from ${localDate})::int = any (r.weekdays))), '{}'::jsonb)`;

/** An order's lines with what each sold, and the net prices of the pricing rates that priced them on the slot's date (`rateNetOn`). */
export async function orderLineItems(ctx: TenantCtx, orderId: string) {
  const lines = (await execute<{ id: string; experience_id: string; items: Pick<SoldItem, 'kind' | 'id' | 'quantity' | 'unit_price'>[]; rate_net: Record<string, number> }>(ctx.tx, sql`
    select b.id, b.experience_id, b.items, ${rateNetOn(sql`b.account_id`, sql`b.experience_id`, sql`s.local_date`)} as rate_net
    from ${booking} b join ${slot} s on s.id = b.slot_id and s.account_id = b.account_id
    where b.account_id = ${ctx.accountId} and b.order_id = ${orderId}`));
  return lines.rows;
}

/** Names the lines as the partner's resale, each with its commission (one statement for all). */
export async function markLinesResold(ctx: TenantCtx, partnershipId: string, resellerId: string | null, commissions: { id: string; commission: number }[]) {
  await ctx.tx.execute(sql`
      update ${booking} b set partnership_id = ${partnershipId}, reseller_account_id = ${resellerId}, commission = c.commission
      from jsonb_to_recordset(${JSON.stringify(commissions)}::jsonb) as c(id uuid, commission integer)
      where b.account_id = ${ctx.accountId} and b.id = c.id`);
}
