import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/client';
import { notFound } from '../../lib/errors';
import { inSeller, type FoundStore, type WebCtx } from '../stores/scope';
import * as q from './queries';

/**
 * Finding what a public call is about: the store by its host and address, the organisation that sells an offer, a cart, a checkout or an order, each in its seller's books; and the store's offers kept two seconds per process for the hot calls (publicStore). The secrets of carts and orders are compared in constant time.
 */

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const secret = () => randomBytes(24).toString('base64url');
export function sameSecret(given: string | undefined, hash: string | null) {
  if (!given || !hash) return false;
  const a = Buffer.from(sha256(given), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Where a public call comes from, as its route reads it from the request: the server's database
 * and the organisation's subdomain of the call's host (null on the bare host).
 */
export interface StoreAt {
  db: Db;
  subdomain: string | null;
}

/** The active store at this host and address (read on the server's connection), or a 404. */
export async function storeByHost(at: StoreAt, slug: string): Promise<FoundStore> {
  const { subdomain } = at;
  if (!subdomain) throw notFound('No store here.');
  const found = await q.activeStoreAt(at.db, subdomain, slug);
  if (!found) throw notFound('This store does not exist or is closed.');
  return found;
}

/** Runs `fn` in the store's own organisation, the store found by host and address; 404 when there is none. */
export async function inStore<T>(at: StoreAt, slug: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(at, slug);
  return inSeller(at.db, found, found.s.account_id, fn);
}

/** Runs `fn` in the books of the organisation that sells offer `id` in this store; 404 when the store does not sell it. */
export async function inOfferSeller<T>(at: StoreAt, slug: string, id: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(at, slug);
  const o = await q.storeOffer(at.db, found.s.id, id);
  if (!o) throw notFound('This offer is not sold in this store.');
  return inSeller(at.db, found, o.seller, fn);
}

/**
 * Runs `fn` in the books of a guest cart of this store: carts of the store's own offers are its
 * organisation's, carts of a partner's offers the supplier's (where their seats are held). 404 for
 * a cart of another store; the cart's secret is checked in `fn` (ownCart).
 */
export async function inCart<T>(at: StoreAt, slug: string, cartId: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(at, slug);
  const db = at.db;
  const row = await q.cartAccount(db, found.s.id, cartId);
  if (!row) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  return inSeller(db, found, row.account, fn);
}

/** Runs `fn` in the books of an online payment made in this store (the seller's: a partner's offers are paid to the supplier); 404 for another store's. */
export async function inCheckout<T>(at: StoreAt, slug: string, checkoutId: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await storeByHost(at, slug);
  const db = at.db;
  const row = await q.checkoutAccount(db, found.s.id, checkoutId);
  if (!row) throw notFound('No payment with this id.');
  return inSeller(db, found, row.account, fn);
}

/** Runs `fn` in the books of the customer's order (by reference and the secret of their link); 404 for anything else. */
export async function inOrder<T>(at: StoreAt, slug: string, reference: string, token: string | undefined, fn: (ctx: WebCtx, orderId: string) => Promise<T>): Promise<T> {
  const found = await storeByHost(at, slug);
  const db = at.db;
  // A reference is unique per organisation: the store's own order and a partner's may share one; the secret tells.
  const rows = await q.ordersByReference(db, found.s.id, reference);
  const mine = rows.find((r) => sameSecret(token, r.hash));
  if (!mine) throw notFound('No order with this reference and link.');
  return inSeller(db, found, mine.account, (ctx) => fn(ctx, mine.id));
}

/**
 * The hot, read-only calls (a month, a day of times) skip the transaction: a store found by host
 * and address is kept for two seconds in this process with the offers it sells (tourdesk_store_offers:
 * each with the organisation whose slots it uses, and a partner's contract validity), and the slots
 * come from one statement that enters the seller's tenant scope itself (tourdesk_availability), as
 * the back office's calendar does. A store closed or an offer taken off it shows for two more seconds.
 */
export interface PublicOffer {
  seller: string;
  zone: string;
  validFrom: string | null;
  validTo: string | null;
}
export interface PublicStore {
  accountId: string;
  timeZone: string;
  offers: Map<string, PublicOffer>;
  expires: number;
}
export const publicStores = new Map<string, PublicStore>();
export const PUBLIC_STORE_TTL_MS = 2_000;

export async function publicStore(at: StoreAt, slug: string): Promise<PublicStore> {
  const { subdomain } = at;
  if (!subdomain) throw notFound('No store here.');
  const key = `${subdomain}/${slug}`;
  const now = Date.now();
  const known = publicStores.get(key);
  if (known && known.expires > now) return known;
  const row = await q.publicStoreRow(at.db, subdomain, slug);
  if (!row) {
    publicStores.delete(key);
    throw notFound('This store does not exist or is closed.');
  }
  if (publicStores.size > 10_000) publicStores.clear();
  const offers = new Map(row.offers.map((o) => [o.id, { seller: o.seller, zone: o.zone, validFrom: o.valid_from, validTo: o.valid_to }]));
  const found = { accountId: row.account_id, timeZone: row.time_zone, offers, expires: now + PUBLIC_STORE_TTL_MS };
  publicStores.set(key, found);
  return found;
}
