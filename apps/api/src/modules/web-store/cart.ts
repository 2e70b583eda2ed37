import { type TCart, type TWebCart } from '@tourdesk/contracts';
import { isLanguage, type Language } from '@tourdesk/contracts/i18n';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { readCart, releaseLine } from '../availability/holds';
import { inSeller, type FoundStore, type WebCtx } from '../stores/scope';
import { sha256, secret, sameSecret } from './scope';
import { onlineReady } from './catalogue';
import * as q from './queries';

/**
 * The guest cart: made with a secret the page keeps (X-Cart-Token, never a cookie), read, its lines held and released in the seller's pool, moved to a slot's seller while empty, and whether it can be paid online here.
 */

export async function createCart(ctx: WebCtx, clientHash: string | null, language: Language) {
  const token = secret();
  const row = await q.insertCart(ctx, ctx.store.id, sha256(token), clientHash, language);
  return { id: row!.id, token };
}

/**
 * The customer switched the store's language: the cart keeps its lines and its secret and takes
 * the new language, which the order made from it copies (orders.language: its e-mails and documents).
 */
export async function setCartLanguage(ctx: WebCtx, cartId: string, language: Language) {
  await q.setCartLanguage(ctx, cartId, language);
}

/** The guest cart, if the page's secret is its own (else 404: a cart is not guessable). */
export async function ownCart(ctx: WebCtx, cartId: string, token: string | undefined) {
  const row = await q.storeCart(ctx, ctx.store.id, cartId);
  if (!row || !sameSecret(token, row.token_hash)) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  return row;
}

/** The cart as the web store shows it. */
export function presentWebCart(ctx: WebCtx, c: TCart, payableOnline: boolean, language: Language): TWebCart {
  return {
    payable_online: payableOnline,
    language,
    id: c.id,
    currency: c.currency,
    total: c.total,
    expires_at: c.expires_at,
    sold_by: ctx.partner?.supplier ?? null,
    lines: c.lines.map((l) => ({
      id: l.id,
      offer: l.experience,
      offer_title: l.experience_title,
      starts_at: l.starts_at,
      time_zone: ctx.timeZone,
      items: l.items.map((i) => ({ kind: i.kind, label: i.label, quantity: i.quantity, unit_price: i.unit_price })),
      seats: l.seats,
      total: l.total,
      expires_at: l.expires_at,
    })),
  };
}

export async function webCart(ctx: WebCtx, cartId: string, platformHasStripe: boolean) {
  const row = await q.storeCart(ctx, ctx.store.id, cartId);
  return presentWebCart(ctx, await readCart(ctx, cartId), await payableOnline(ctx, platformHasStripe), isLanguage(row?.language) ? row.language : 'en');
}

/**
 * Whether a cart of this seller may be paid online in this store: the store offers it, the
 * seller's account (ctx's: the supplier's for a partner's offers) takes charges, and a partner's
 * contract says the supplier collects — the money goes to the seller's account, never another's.
 */
export async function payableOnline(ctx: WebCtx, platformHasStripe: boolean) {
  if (!ctx.store.payment_options.includes('online') || !(await onlineReady(ctx, platformHasStripe))) return false;
  if (!ctx.partner) return true;
  return (await q.paymentCollector(ctx, ctx.partner.partnershipId)) === 'supplier';
}

/** How many seats a guest may hold at once: in one cart, and from one address (all its carts in the seller's pool). */
export interface SeatCaps {
  perCart: number;
  perAddress: number;
}

/**
 * The refusal (409) of a hold that takes a cart, or an address, past its seats at once, or null.
 * Called before the hold (nothing more is held once at the cap) and after it with the line just
 * held, which is then given back: two holds at once from one address cannot both pass. The caller
 * throws it once its transaction is committed (the release with it).
 */
export async function seatCapRefusal(ctx: WebCtx, cartId: string, caps: SeatCaps, justHeld?: string): Promise<AppError | null> {
  const row = await q.storeCart(ctx, ctx.store.id, cartId);
  const held = await q.seatsHeld(ctx, cartId, row?.client_hash ?? null);
  // Before the hold: refused when already at the cap; after it: when the new line went past it.
  const past = (n: number, cap: number) => (justHeld === undefined ? n >= cap : n > cap);
  const perCart = past(held.cart, caps.perCart);
  if (!perCart && !past(held.client, caps.perAddress)) return null;
  if (justHeld !== undefined) await releaseLine(ctx, cartId, justHeld);
  return new AppError(
    'conflict',
    perCart
      ? `A cart holds at most ${caps.perCart} seats at once: book these first, or ask us for a group booking.`
      : `At most ${caps.perAddress} seats can be held at once from one place: book the ones you hold first.`,
    'quantities',
  );
}

/** Gives a guest line's seats back (the slot locked first, as every writer). */
export const releaseGuestLine = (ctx: WebCtx, cartId: string, lineId: string) => releaseLine(ctx, cartId, lineId);

/**
 * Where a hold of `slotId` goes in this store: the organisation that sells the slot's offer here
 * (its own, or a partner's under their contract), with the offer and the slot's local date. A slot
 * of an offer the store does not sell is a 400.
 */
export async function slotSeller(db: Db, found: FoundStore, slotId: string) {
  const row = await q.slotSeller(db, found.s.id, slotId);
  if (!row) throw new AppError('invalid', 'This time is not sold in this store.', 'slot');
  return row;
}

/**
 * A cart holds the offers of one seller (the orders it becomes are that seller's). An empty cart
 * moves to the seller of the line it is about to hold: a new cart in the seller's books with the
 * same secret (the page keeps its token, and takes the new id from the answer). A cart that holds
 * another seller's lines is a 409 that says what to do.
 */
export async function cartFor(db: Db, found: FoundStore, cartId: string, token: string | undefined, sellerId: string): Promise<string> {
  const row = await q.cartAccount(db, found.s.id, cartId);
  if (!row) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  if (row.account === sellerId) return cartId;
  const moved = await inSeller(db, found, row.account, async (ctx) => {
    const c = await ownCart(ctx, cartId, token);
    if ((await q.countCartLines(ctx, cartId)) > 0) {
      throw new AppError('conflict', `Your cart holds offers of ${ctx.partner?.supplier ?? ctx.organisation}: book them first, or remove them, then add this one.`, 'slot');
    }
    await q.deleteCart(ctx, cartId);
    return c;
  });
  return inSeller(db, found, sellerId, async (ctx) => {
    const made = await q.insertCart(ctx, ctx.store.id, moved.token_hash, moved.client_hash, isLanguage(moved.language) ? moved.language : 'en');
    return made!.id;
  });
}

// --- the order -------------------------------------------------------------------------------
