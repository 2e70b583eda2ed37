import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { QR_CODE_PATTERN, type TPartnerStore, type TQrCode, type ZQrCodeInput } from '@tourdesk/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { qrCode } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, notFound } from '../../lib/errors';
import { tenantOrigin } from '../../lib/host';
import { todayIn } from '../../lib/local-time';
import { inTenant } from '../../lib/tenancy';
import * as q from './queries';

/**
 * QR codes: what a code leads to (a store, or an offer in the store that sells it), the scan that
 * counts it and sends the customer on with ?qr={code}, the cart that keeps it and the order that
 * records it — the list's scans, orders and revenue come from these.
 */

type QrRow = typeof qrCode.$inferSelect;
type Target = 'store' | 'experience' | 'partner_store';

const partnerStoreUrl = (config: Config, r: q.PartnerStoreRow) => `${tenantOrigin(config, r.subdomain)}/s/${r.slug}/`;

export async function partnerStores(ctx: TenantCtx, config: Config): Promise<TPartnerStore[]> {
  return (await q.partnerStoresOf(ctx)).map((r) => ({ id: r.store_id, name: r.name, partner: r.partner, partnership: r.partnership_id, url: partnerStoreUrl(config, r) }));
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
    const [partner] = await q.partnerStoresOf(ctx, [storeId]);
    if (!partner) throw new AppError('invalid', 'Choose a store of a partner that sells your offers.', 'store');
    const values: Partial<typeof qrCode.$inferInsert> = { target, store_id: storeId, experience_id: null, partnership_id: partner.partnership_id };
    if (input.name !== undefined) values.name = input.name;
    if (input.campaign !== undefined) values.campaign = input.campaign;
    if (input.ownership !== undefined) values.ownership = input.ownership;
    if (!existing) values.code = newCode();
    return values;
  }
  await q.assertOwnStore(ctx, storeId);
  if (target === 'experience') {
    if (!experienceId) throw new AppError('invalid', 'Choose the offer the code leads to.', 'experience');
    await q.assertOwnOffer(ctx, experienceId);
    const sold = await q.storeSells(ctx, storeId, experienceId);
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
  return tenantOrigin(config, await q.accountSubdomain(ctx));
}

/**
 * Rows → responses. The page's figures come from one aggregate query over the orders the codes
 * brought (the partial index orders_account_qr_idx), never one query per row.
 */
export async function presentQrCodes(ctx: TenantCtx, config: Config, rows: QrRow[]): Promise<TQrCode[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const figures = await q.qrFigures(ctx, ids);
  const storeIds = [...new Set(rows.map((r) => r.store_id).filter((x): x is string => Boolean(x)))];
  const offerIds = [...new Set(rows.map((r) => r.experience_id).filter((x): x is string => Boolean(x)))];
  const stores = await q.storeNames(ctx, storeIds);
  const offers = await q.offerTitles(ctx, offerIds);
  const partnerIds = rows.filter((r) => r.target === 'partner_store' && r.store_id).map((r) => r.store_id!);
  const partners = new Map(partnerIds.length ? (await q.partnerStoresOf(ctx, partnerIds)).map((p) => [p.store_id, p]) : []);
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
  const row = await q.qrCodeById(ctx, id);
  if (!row) throw notFound('No QR code with this id.');
  return row;
}

/** What a printed flyer says: the organisation, the store or offer, and the code's address. */
export async function flyerFacts(ctx: TenantCtx, config: Config, id: string) {
  const [dto] = await presentQrCodes(ctx, config, [await loadQrCode(ctx, id)]);
  return { ...dto!, organisation: await q.accountName(ctx) };
}

/**
 * A scan of /q/{code} on an organisation's host: counted atomically (the code's total, its last
 * scan, and the organisation's local day, upserted), answering where to send the customer.
 * Another organisation's code, or an unknown one, is not found here. `count` false (a HEAD, a
 * prefetch) only looks the code up.
 */
export async function scan(db: Db, config: Config, subdomain: string | null, code: string, count: boolean): Promise<string> {
  if (!subdomain || !QR_CODE_PATTERN.test(code)) throw notFound('This QR code does not exist.');
  const account = await q.accountBySubdomain(db, subdomain);
  if (!account) throw notFound('This QR code does not exist.');
  return inTenant(db, account.id, async (tx) => {
    const ctx: TenantCtx = { tx, accountId: account.id, currency: '' };
    const row = await q.qrCodeByCode(ctx, code, count);
    if (!row) throw notFound('This QR code does not exist.');
    if (count) await q.countScanDay(ctx, row.id, todayIn(account.zone));
    if (row.target === 'partner_store') {
      // The partner's store, on the partner's host; the supplier's own offers there record the code.
      const [p] = row.store_id ? await q.partnerStoresOf(ctx, [row.store_id]) : [];
      if (!p) throw notFound('This QR code no longer leads anywhere.');
      return `${partnerStoreUrl(config, p)}?qr=${row.code}`;
    }
    const s = row.store_id ? await q.storeSlug(ctx, row.store_id) : undefined;
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
  const row = await q.qrCodeIdOf(ctx, code);
  if (!row) return;
  await q.setCartQrCode(ctx, cartId, row.id);
}
