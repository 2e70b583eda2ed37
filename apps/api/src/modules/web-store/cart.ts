import { and, count, eq, sql } from 'drizzle-orm';
import { type TCart, type TWebCart } from '@tourdesk/contracts';
import { cart, cartLine, partnership, slot } from '../../db/schema';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { readCart, releaseLine } from '../availability/holds';
import { inSeller, type FoundStore, type WebCtx } from '../stores/scope';
import { sha256, secret, sameSecret, rowsOf } from './scope';
import { onlineReady } from './catalogue';

/**
 * The guest cart: made with a secret the page keeps (X-Cart-Token, never a cookie), read, its lines held and released in the seller's pool, moved to a slot's seller while empty, and whether it can be paid online here.
 */

export async function createCart(ctx: WebCtx) {
  const token = secret();
  const [row] = await ctx.tx.insert(cart).values({ account_id: ctx.accountId, store_id: ctx.store.id, token_hash: sha256(token) }).returning({ id: cart.id });
  return { id: row!.id, token };
}

/** The guest cart, if the page's secret is its own (else 404: a cart is not guessable). */
export async function ownCart(ctx: WebCtx, cartId: string, token: string | undefined) {
  const [row] = await ctx.tx.select().from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId), eq(cart.store_id, ctx.store.id)));
  if (!row || !sameSecret(token, row.token_hash)) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  return row;
}

/** The cart as the web store shows it. */
export function presentWebCart(ctx: WebCtx, c: TCart, payableOnline: boolean): TWebCart {
  return {
    payable_online: payableOnline,
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
  return presentWebCart(ctx, await readCart(ctx, cartId), await payableOnline(ctx, platformHasStripe));
}

/**
 * Whether a cart of this seller may be paid online in this store: the store offers it, the
 * seller's account (ctx's: the supplier's for a partner's offers) takes charges, and a partner's
 * contract says the supplier collects — the money goes to the seller's account, never another's.
 */
export async function payableOnline(ctx: WebCtx, platformHasStripe: boolean) {
  if (!ctx.store.payment_options.includes('online') || !(await onlineReady(ctx, platformHasStripe))) return false;
  if (!ctx.partner) return true;
  const [p] = await ctx.tx.select({ collector: partnership.payment_collector }).from(partnership).where(eq(partnership.id, ctx.partner.partnershipId));
  return p?.collector === 'supplier';
}

/** Gives a guest line's seats back (the slot locked first, as every writer). */
export const releaseGuestLine = (ctx: WebCtx, cartId: string, lineId: string) => releaseLine(ctx, cartId, lineId);

/**
 * Where a hold of `slotId` goes in this store: the organisation that sells the slot's offer here
 * (its own, or a partner's under their contract), with the offer and the slot's local date. A slot
 * of an offer the store does not sell is a 400.
 */
export async function slotSeller(db: Db, found: FoundStore, slotId: string) {
  const [row] = rowsOf<{ seller: string; partnership: string | null; experience: string; day: string }>(
    await db.execute(sql`
      select o.seller_account_id as seller, o.partnership_id as partnership, s.experience_id as experience, s.local_date::text as day
      from ${slot} s join tourdesk_store_offers(${found.s.id}::uuid) o on o.experience_id = s.experience_id and o.seller_account_id = s.account_id
      where s.id = ${slotId}::uuid`),
  );
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
  const [row] = await db.select({ account: cart.account_id }).from(cart).where(and(eq(cart.id, cartId), eq(cart.store_id, found.s.id)));
  if (!row) throw notFound('No such cart: it may have been emptied. Choose your times again.');
  if (row.account === sellerId) return cartId;
  const moved = await inSeller(db, found, row.account, async (ctx) => {
    const c = await ownCart(ctx, cartId, token);
    const [held] = await ctx.tx.select({ n: count() }).from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId)));
    if (Number(held?.n ?? 0) > 0) {
      throw new AppError('conflict', `Your cart holds offers of ${ctx.partner?.supplier ?? ctx.organisation}: book them first, or remove them, then add this one.`, 'slot');
    }
    await ctx.tx.delete(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, cartId)));
    return c.token_hash;
  });
  return inSeller(db, found, sellerId, async (ctx) => {
    const [made] = await ctx.tx.insert(cart).values({ account_id: ctx.accountId, store_id: ctx.store.id, token_hash: moved }).returning({ id: cart.id });
    return made!.id;
  });
}

// --- the order -------------------------------------------------------------------------------
