import { and, eq, sql } from 'drizzle-orm';
import type { TCart } from '@tourdesk/contracts';
import type { Db } from '../../../db/client';
import { baseAccount, cart, cartLine, slot } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { execute, touched } from '../../../db/execute';

/** Carts and their lines: the hold functions (tourdesk_hold_many, tourdesk_hold), the view cart_line_api, the sweep. */

/** A row of the view cart_line_api (migration 0013): an unexpired line with its slot's start. */
export interface CartLineRow {
  id: string;
  cart_id: string;
  slot_id: string;
  experience_id: string;
  experience_title: string;
  starts_ms: number;
  quantities: Record<string, number>;
  extras: Record<string, number>;
  seats: number;
  total: number;
  currency: string;
  expires_ms: number;
  items: TCart['lines'][number]['items'];
}

/** The signed-in user's cart (the spec's `user.cart`), made on first use (read first: one round trip when it exists). */
export async function userCart(ctx: TenantCtx, userId: string) {
  const find = () => ctx.tx.select().from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.user_id, userId)));
  const [found] = await find();
  if (found) return found;
  await ctx.tx.insert(cart).values({ account_id: ctx.accountId, user_id: userId }).onConflictDoNothing();
  return (await find())[0]!;
}

/** One statement for a batch of holds on one slot (tourdesk_hold_many): a row per hold, its new line or its error. */
export async function holdMany(db: Db, accountId: string, slotId: string, items: string) {
  const result = (await execute<CartLineRow & { item: number; error_code: string | null; error_message: string | null; error_hint: string | null }>(db, sql`select * from tourdesk_hold_many(${accountId}::uuid, ${slotId}::uuid, ${items}::jsonb)`));
  return result.rows;
}

/** Changes a held line (tourdesk_hold); answers its cart's id. */
export async function changeHeldLine(db: Db, who: { accountId: string; userId: string }, lineId: string, input: { quantities: Record<string, number>; extras: Record<string, number> }) {
  const held = (await execute<{ cart: string }>(db, sql`
    select tourdesk_hold(${who.accountId}::uuid, ${who.userId}::uuid, ${lineId}::uuid,
                         ${JSON.stringify(input.quantities)}::jsonb, ${JSON.stringify(input.extras)}::jsonb) as cart`));
  return held.rows[0]!.cart;
}

/** A cart's unexpired lines, in a statement of its own (tourdesk_cart_lines). */
export async function cartLinesOf(db: Db, accountId: string, cartId: string) {
  const lines = (await execute<CartLineRow>(db, sql`select * from tourdesk_cart_lines(${accountId}::uuid, ${cartId}::uuid)`));
  return lines.rows;
}

/** The organisation's currency (the currency of an empty cart). */
export async function currencyOf(db: Db, accountId: string) {
  const [row] = await db.select({ currency: baseAccount.currency }).from(baseAccount).where(eq(baseAccount.id, accountId));
  return row?.currency ?? 'EUR';
}

/** Slots that have expired cart lines, of every organisation (at most `maxSlots`). */
export async function slotsWithExpiredLines(db: Db, maxSlots: number) {
  const slots = (await execute<{ slot_id: string }>(db, sql`select distinct slot_id from ${cartLine} where expires_at <= now() limit ${maxSlots}`));
  return slots.rows;
}

/** Deletes one slot's expired lines in a transaction of their own, the slot's row locked first; answers how many went. */
export function sweepExpiredLinesOf(db: Db, slotId: string) {
  // The slot's row first, then its lines: the order every other writer takes them in.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${slot} where id = ${slotId}::uuid for no key update`);
    const result = (await execute(tx, sql`delete from ${cartLine} where slot_id = ${slotId}::uuid and expires_at <= now()`));
    return touched(result);
  });
}

/** The ids of a page of the organisation's carts that hold something right now, newest hold first. */
export async function pageHoldingCartIds(ctx: TenantCtx, limit: number, offset: number) {
  const ids = (await execute<{ id: string }>(ctx.tx, sql`
    select c.id from ${cart} c
    where c.account_id = ${ctx.accountId} and exists (select 1 from ${cartLine} l where l.cart_id = c.id and l.expires_at > now())
    order by (select max(l.created_at) from ${cartLine} l where l.cart_id = c.id) desc, c.id
    limit ${limit} offset ${offset}`));
  return ids.rows;
}

/** The unexpired lines of some carts: one query. */
export async function cartLines(ctx: TenantCtx, cartIds: string[]) {
  const rows = (await execute<CartLineRow>(ctx.tx, sql`select * from cart_line_api v where v.account_id = ${ctx.accountId} and v.cart_id in ${cartIds} order by v.created_at, v.id`));
  return rows.rows;
}

/** How many of the organisation's carts hold something right now. */
export async function countHoldingCarts(ctx: TenantCtx) {
  const rows = (await execute<{ n: number }>(ctx.tx, sql`
    select count(*)::int as n from ${cart} c
    where c.account_id = ${ctx.accountId} and exists (select 1 from ${cartLine} l where l.cart_id = c.id and l.expires_at > now())`));
  return Number(rows.rows[0]!.n);
}

/** A cart of the organisation (undefined when there is none with this id). */
export async function findCart(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select({ id: cart.id }).from(cart).where(and(eq(cart.account_id, ctx.accountId), eq(cart.id, id)));
  return row;
}

/** A line of a cart (undefined when the cart has no such line). */
export async function findCartLine(ctx: TenantCtx, cartId: string, lineId: string) {
  const [line] = await ctx.tx.select().from(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.cart_id, cartId), eq(cartLine.id, lineId)));
  return line;
}

/** Deletes a cart line (its trigger gives its seats back to the slot). */
export async function deleteCartLine(ctx: TenantCtx, lineId: string) {
  await ctx.tx.delete(cartLine).where(and(eq(cartLine.account_id, ctx.accountId), eq(cartLine.id, lineId)));
}
