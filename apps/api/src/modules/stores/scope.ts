import type { Db } from '../../db/client';
import type { store } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { inTenant } from '../../lib/tenancy';
import * as q from './queries';

/**
 * A store at work: the books its sales go to (WebCtx). A store sells its own organisation's offers
 * and, for a reseller, its suppliers' (then the cart, the holds and the order are the supplier's).
 * The web store finds a store by host and address (web-store/scope.ts), the e-mail jobs by id
 * (order-mail); online payments in a store work in the same context (payments/online.ts).
 */

/** Work in a store: the books of its organisation or of a supplier it resells. */
export interface WebCtx extends TenantCtx {
  /** The store, always the reseller's or the organisation's own (its address, texts, ways to pay). */
  store: typeof store.$inferSelect;
  /** The time zone of the organisation whose books ctx works in (the seller of the offers). */
  timeZone: string;
  /** The store's organisation: its host (the customer's links) and its name. */
  subdomain: string;
  organisation: string;
  /**
   * Set when ctx works in a partner's books: a supplier's offers resold in this (reseller's) store.
   * The cart, its holds and the order are then the supplier's (one capacity pool for every channel).
   */
  partner: { partnershipId: string; supplier: string } | null;
}

/** A store found (by host and address, or by id for jobs) with its organisation. */
export interface FoundStore {
  s: typeof store.$inferSelect;
  zone: string;
  name: string;
  subdomain: string;
}

/**
 * Runs `fn` in the books of `sellerId` for the store `found`: the store's own organisation, or a
 * supplier whose offers the store's organisation resells (their partnership, the live one first;
 * none is a 404). The contract itself is checked where something is sold (sharedOffer).
 */
export async function inSeller<T>(db: Db, found: FoundStore, sellerId: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const base = { currency: found.s.currency, store: found.s, subdomain: found.subdomain, organisation: found.name };
  if (sellerId === found.s.account_id) return inTenant(db, sellerId, (tx) => fn({ ...base, tx, accountId: sellerId, timeZone: found.zone, partner: null }));
  const p = await q.sellerPartnership(db, sellerId, found.s.account_id);
  if (!p) throw notFound('This store does not sell this organisation’s offers.');
  return inTenant(db, sellerId, (tx) => fn({ ...base, tx, accountId: sellerId, timeZone: p.zone, partner: { partnershipId: p.id, supplier: p.supplier } }));
}

/** A store by id, for work that knows it (the e-mail jobs), whether or not it is still active, in the books of `accountId`. */
export async function inStoreById<T>(db: Db, accountId: string, storeId: string, fn: (ctx: WebCtx) => Promise<T>): Promise<T> {
  const found = await q.storeWithOrganisation(db, storeId);
  if (!found) throw notFound('No store with this id.');
  return inSeller(db, found, accountId, fn);
}
