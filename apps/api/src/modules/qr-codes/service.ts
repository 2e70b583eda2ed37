import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { QR_CODE_PATTERN, type TPartnerStore, type TQrCode, type ZQrCodeInput } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { baseAccount, cart, experience, order, qrCode, qrScanDay, store, storeExperience } from '../../db/schema';
import { assertOwned, type TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { requestHost, tenantOrigin } from '../../lib/host';
import { todayIn } from '../../lib/local-time';
import { inTenant } from '../../lib/tenancy';

/**
 * QR codes: what a code leads to (a store, or an offer in the store that sells it), the scan that
 * counts it and sends the customer on with ?qr={code}, the cart that keeps it and the order that
 * records it — the list's scans, orders and revenue come from these.
 */

type QrRow = typeof qrCode.$inferSelect;
type Target = 'store' | 'experience' | 'partner_store';

interface PartnerStoreRow {
  store_id: string;
  name: string;
  slug: string;
  subdomain: string;
  partner: string;
  partnership_id: string;
}
/**
 * The organisation's resellers' stores that sell its offers now (tourdesk_partner_stores(), which
 * answers only for the tenant of ctx): what a code may lead to as a partner's store.
 */
async function partnerStoresOf(ctx: TenantCtx, ids?: string[]) {
  const rows = (await ctx.tx.execute(sql`select * from tourdesk_partner_stores() ${ids ? sql`where store_id = any(${sql.param(ids)}::uuid[])` : sql``}`)) as unknown as { rows: PartnerStoreRow[] };
  return rows.rows;
}
const partnerStoreUrl = (config: Config, r: PartnerStoreRow) => `${tenantOrigin(config, r.subdomain)}/s/${r.slug}/`;

export async function partnerStores(ctx: TenantCtx, config: Config): Promise<TPartnerStore[]> {
  return (await partnerStoresOf(ctx)).map((r) => ({ id: r.store_id, name: r.name, partner: r.partner, partnership: r.partnership_id, url: partnerStoreUrl(config, r) }));
}

/** 8 characters of lower-case base32: 40 random bits, short enough to type from a flyer. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
export function newCode() {
  const bytes = randomBytes(8);
  return [...bytes].map((b) => ALPHABET[b & 31]).join('');
}

/**
 * Input → columns: the store is the organisation's own, and an offer is one that store sells; or,
 * for a partner's store, a reseller's store that sells the organisation's offers now.
 */
export async function qrValues(ctx: TenantCtx, input: Partial<z.output<typeof ZQrCodeInput>>, existing?: QrRow) {
  const target = input.target ?? (existing?.target as Target | undefined) ?? 'store';
  const storeId = input.store ?? existing?.store_id ?? null;
  const experienceId = target !== 'experience' ? null : input.experience !== undefined ? input.experience : (existing?.experience_id ?? null);
  if (!storeId) throw new AppError('invalid', 'Choose a store.', 'store');
  if (target === 'partner_store') {
    const [partner] = await partnerStoresOf(ctx, [storeId]);
    if (!partner) throw new AppError('invalid', 'Choose a store of a partner that sells your offers.', 'store');
    const values: Partial<typeof qrCode.$inferInsert> = { target, store_id: storeId, experience_id: null, partnership_id: partner.partnership_id };
    if (input.name !== undefined) values.name = input.name;
    if (input.campaign !== undefined) values.campaign = input.campaign;
    if (input.ownership !== undefined) values.ownership = input.ownership;
    if (!existing) values.code = newCode();
    return values;
  }
  await assertOwned(ctx, store, storeId, 'store', 'store');
  if (target === 'experience') {
    if (!experienceId) throw new AppError('invalid', 'Choose the offer the code leads to.', 'experience');
    await assertOwned(ctx, experience, experienceId, 'experience', 'offer');
    const [sold] = await ctx.tx
      .select({ id: storeExperience.experience_id })
      .from(storeExperience)
      .where(and(eq(storeExperience.account_id, ctx.accountId), eq(storeExperience.store_id, storeId), eq(storeExperience.experience_id, experienceId)));
    if (!sold) throw new AppError('invalid', 'This store does not sell this offer: add it to the store first, or choose another store.', 'experience');
  }
  const values: Partial<typeof qrCode.$inferInsert> = { target, store_id: storeId, experience_id: experienceId, partnership_id: null };
  if (input.name !== undefined) values.name = input.name;
  if (input.campaign !== undefined) values.campaign = input.campaign;
  if (input.ownership !== undefined) values.ownership = input.ownership;
  if (!existing) values.code = newCode();
  return values;
}

/** The organisation's host origin (each code's address lives there). */
async function originOf(ctx: TenantCtx, config: Config) {
  const [account] = await ctx.tx.select({ subdomain: baseAccount.subdomain }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return tenantOrigin(config, account!.subdomain);
}

/**
 * Rows → responses. The page's figures come from one aggregate query over the orders the codes
 * brought (the partial index orders_account_qr_idx), never one query per row.
 */
export async function presentQrCodes(ctx: TenantCtx, config: Config, rows: QrRow[]): Promise<TQrCode[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const figures = new Map(
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
  const storeIds = [...new Set(rows.map((r) => r.store_id).filter((x): x is string => Boolean(x)))];
  const offerIds = [...new Set(rows.map((r) => r.experience_id).filter((x): x is string => Boolean(x)))];
  const stores = new Map(
    storeIds.length ? (await ctx.tx.select({ id: store.id, name: store.name, slug: store.slug }).from(store).where(and(eq(store.account_id, ctx.accountId), inArray(store.id, storeIds)))).map((s) => [s.id, s]) : [],
  );
  const offers = new Map(
    offerIds.length ? (await ctx.tx.select({ id: experience.id, title: experience.title }).from(experience).where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, offerIds)))).map((e) => [e.id, e]) : [],
  );
  const partnerIds = rows.filter((r) => r.target === 'partner_store' && r.store_id).map((r) => r.store_id!);
  const partners = new Map(partnerIds.length ? (await partnerStoresOf(ctx, partnerIds)).map((p) => [p.store_id, p]) : []);
  const origin = await originOf(ctx, config);
  return rows.map((r) => {
    const s = r.store_id && r.target !== 'partner_store' ? stores.get(r.store_id) : undefined;
    // A partner's store that no longer sells the offers (partnership ended, store closed) leads nowhere.
    const p = r.store_id && r.target === 'partner_store' ? partners.get(r.store_id) : undefined;
    const f = figures.get(r.id);
    return {
      id: r.id,
      code: r.code,
      name: r.name,
      campaign: r.campaign,
      ownership: r.ownership as TQrCode['ownership'],
      target: r.target as TQrCode['target'],
      store: r.store_id,
      store_name: s?.name ?? p?.name ?? null,
      partner_name: p?.partner ?? null,
      experience: r.experience_id,
      experience_title: r.experience_id ? (offers.get(r.experience_id)?.title ?? null) : null,
      url: `${origin}/q/${r.code}`,
      target_url: s ? `${origin}${targetPath(s.slug, r.target === 'experience' ? r.experience_id : null)}` : p ? partnerStoreUrl(config, p) : null,
      scans: r.scans,
      last_scanned_at: r.last_scanned_at?.toISOString() ?? null,
      orders: f?.orders ?? 0,
      revenue: f?.revenue ?? 0,
      currency: ctx.currency,
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
    };
  });
}

const targetPath = (slug: string, offerId: string | null) => (offerId ? `/s/${slug}/offers/${offerId}` : `/s/${slug}/`);

export async function loadQrCode(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(qrCode).where(and(eq(qrCode.account_id, ctx.accountId), eq(qrCode.id, id)));
  if (!row) throw notFound('No QR code with this id.');
  return row;
}

/** What a printed flyer says: the organisation, the store or offer, and the code's address. */
export async function flyerFacts(ctx: TenantCtx, config: Config, id: string) {
  const [dto] = await presentQrCodes(ctx, config, [await loadQrCode(ctx, id)]);
  const [account] = await ctx.tx.select({ name: baseAccount.name }).from(baseAccount).where(eq(baseAccount.id, ctx.accountId));
  return { ...dto!, organisation: account!.name };
}

/**
 * A scan of /q/{code} on an organisation's host: counted atomically (the code's total, its last
 * scan, and the organisation's local day, upserted), answering where to send the customer.
 * Another organisation's code, or an unknown one, is not found here. `count` false (a HEAD, a
 * prefetch) only looks the code up.
 */
export async function scan(request: FastifyRequest, code: string, count: boolean): Promise<string> {
  const config = request.server.config;
  const { subdomain } = requestHost(request);
  if (!subdomain || !QR_CODE_PATTERN.test(code)) throw notFound('This QR code does not exist.');
  const db: Db = request.server.database.db;
  const [account] = await db.select({ id: baseAccount.id, zone: baseAccount.time_zone }).from(baseAccount).where(eq(baseAccount.subdomain, subdomain));
  if (!account) throw notFound('This QR code does not exist.');
  return inTenant(db, account.id, async (tx) => {
    const where = and(eq(qrCode.account_id, account.id), eq(qrCode.code, code));
    const [row] = count
      ? await tx.update(qrCode).set({ scans: sql`${qrCode.scans} + 1`, last_scanned_at: new Date() }).where(where).returning()
      : await tx.select().from(qrCode).where(where);
    if (!row) throw notFound('This QR code does not exist.');
    if (count) {
      await tx
        .insert(qrScanDay)
        .values({ account_id: account.id, qr_code_id: row.id, day: todayIn(account.zone), scans: 1 })
        .onConflictDoUpdate({ target: [qrScanDay.qr_code_id, qrScanDay.day], set: { scans: sql`${qrScanDay.scans} + 1` } });
    }
    if (row.target === 'partner_store') {
      // The partner's store, on the partner's host; the supplier's own offers there record the code.
      const [p] = row.store_id ? await partnerStoresOf({ tx, accountId: account.id, currency: '' }, [row.store_id]) : [];
      if (!p) throw notFound('This QR code no longer leads anywhere.');
      return `${partnerStoreUrl(config, p)}?qr=${row.code}`;
    }
    const [s] = row.store_id ? await tx.select({ slug: store.slug }).from(store).where(and(eq(store.account_id, account.id), eq(store.id, row.store_id))) : [];
    if (!s) throw notFound('This QR code no longer leads anywhere.');
    return `${targetPath(s.slug, row.target === 'experience' ? row.experience_id : null)}?qr=${row.code}`;
  });
}

/**
 * The guest cart keeps the code of the scan that brought the customer (the latest one, when they
 * scanned several): only a code of this organisation; anything else is ignored, never an error —
 * attribution must not stand between a customer and their booking.
 */
export async function attachToCart(ctx: TenantCtx, cartId: string, code: string | undefined) {
  if (!code || !QR_CODE_PATTERN.test(code)) return;
  const [row] = await ctx.tx.select({ id: qrCode.id }).from(qrCode).where(and(eq(qrCode.account_id, ctx.accountId), eq(qrCode.code, code)));
  if (!row) return;
  await ctx.tx.update(cart).set({ qr_code_id: row.id }).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
}
