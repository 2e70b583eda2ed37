import type { TCart, THeldLine } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { fromDatabase, notFound } from '../../lib/errors';
import type { Db } from '../../db/client';
import * as q from './queries/holds';
import type { CartLineRow } from './queries/holds';
import { lockSlot } from './slots';
import { holdsMade } from '../../lib/metrics';

/** The signed-in user's cart (the spec's `user.cart`), made on first use. */
export const userCart = q.userCart;

interface HoldInput {
  quantities: Record<string, number>;
  extras: Record<string, number>;
}
/** Who holds: a signed-in user (their cart, made on first use), or a web store's guest cart. */
export type Holder = { accountId: string; userId: string; cartId?: undefined } | { accountId: string; cartId: string; userId?: undefined };

interface WaitingHold extends HoldInput {
  userId?: string;
  cartId?: string;
  resolve: (line: THeldLine) => void;
  reject: (error: unknown) => void;
}

/**
 * How new holds reach the database (one queue per app, made by buildApp). With `maxBatch` above 1,
 * while a statement for a slot is running in this process, the holds that arrive for it wait and go
 * together (up to `maxBatch`) in the next one — like a group commit: one write of the slot's row,
 * one lock, for all of them, and no wait at all when the slot is quiet. One statement per slot at a
 * time is measured best by npm run bench: with more, the statements queue on the slot's row lock,
 * and the hand-offs cost the database more than the smaller batches save (0.11 ms of database CPU
 * per hold with one statement at a time, 0.20 with two, 0.28 with four). Other slots, and other
 * processes, have queues of their own. With `maxBatch` 1 (HOLD_BATCH_MAX=1) every hold is its own
 * statement, sent at once, and concurrent holds meet only at the slot's row in the database.
 */
export interface HoldQueue {
  hold(who: Holder, slotId: string, input: HoldInput): Promise<THeldLine>;
}

export function createHoldQueue(db: Db, { maxBatch }: { maxBatch: number }): HoldQueue {
  if (maxBatch <= 1) return { hold: (who, slotId, input) => holdAlone(db, who, slotId, input) };
  /** Holds waiting for their slot's running statement, by organisation and slot. */
  const waiting = new Map<string, WaitingHold[]>();
  async function drain(accountId: string, slotId: string, key: string, queue: WaitingHold[]) {
    for (;;) {
      const batch = queue.splice(0, maxBatch);
      if (batch.length === 0) {
        waiting.delete(key);
        return;
      }
      await runHolds(db, accountId, slotId, batch);
    }
  }
  return {
    hold(who, slotId, input) {
      return new Promise<THeldLine>((resolve, reject) => {
        const hold: WaitingHold = { userId: who.userId, cartId: who.cartId, quantities: input.quantities, extras: input.extras, resolve, reject };
        const key = `${who.accountId}/${slotId}`;
        const queue = waiting.get(key);
        if (queue) {
          queue.push(hold);
          return;
        }
        const fresh = [hold];
        waiting.set(key, fresh);
        void drain(who.accountId, slotId, key, fresh);
      });
    },
  };
}

/** One hold in a statement of its own (the demo's seeding, inside its transaction, uses it too). */
export function holdAlone(db: Db, who: Holder, slotId: string, input: HoldInput): Promise<THeldLine> {
  return new Promise<THeldLine>((resolve, reject) => void runHolds(db, who.accountId, slotId, [{ userId: who.userId, cartId: who.cartId, quantities: input.quantities, extras: input.extras, resolve, reject }]));
}

/** One statement for a batch of holds on one slot; settles each hold with its new line or its own error. */
async function runHolds(db: Db, accountId: string, slotId: string, batch: WaitingHold[]) {
  try {
    const items = JSON.stringify(batch.map((h) => ({ user: h.userId, cart: h.cartId, quantities: h.quantities, extras: h.extras })));
    const rows = await q.holdMany(db, accountId, slotId, items);
    const answered = new Array<(typeof rows)[number] | undefined>(batch.length);
    for (const row of rows) answered[row.item] = row;
    batch.forEach((hold, i) => {
      const row = answered[i];
      holdsMade.inc({ result: row && !row.error_code ? 'held' : 'refused' });
      if (!row) hold.reject(new Error('The hold statement answered nothing for this hold.'));
      else if (row.error_code) hold.reject(fromDatabase({ code: row.error_code, message: row.error_message, hint: row.error_hint }) ?? new Error(row.error_message ?? 'hold failed'));
      else hold.resolve({ ...presentLine(row), cart: row.cart_id });
    });
  } catch (error) {
    for (const hold of batch) hold.reject(error);
  }
}

/**
 * Changes a held line (capacity checked again, the line's own seats counted as free): the
 * database function tourdesk_hold, then the cart in a statement of its own.
 */
export async function changeHold(db: Db, who: { accountId: string; userId: string }, lineId: string, input: HoldInput): Promise<TCart> {
  const cartId = await q.changeHeldLine(db, who, lineId, input);
  const lines = await q.cartLinesOf(db, who.accountId, cartId);
  return presentCart(cartId, lines, lines[0]?.currency ?? (await q.currencyOf(db, who.accountId)));
}

/** A line as the API shows it. */
function presentLine(l: CartLineRow): TCart['lines'][number] {
  return {
    id: l.id,
    slot: l.slot_id,
    experience: l.experience_id,
    experience_title: l.experience_title,
    starts_at: new Date(l.starts_ms).toISOString(),
    quantities: l.quantities,
    extras: l.extras,
    seats: l.seats,
    total: l.total,
    currency: l.currency,
    expires_at: new Date(l.expires_ms).toISOString(),
    items: l.items,
  };
}

/** A cart as the API shows it: its unexpired lines, their total and the first expiry. */
function presentCart(id: string, lines: CartLineRow[], currency: string): TCart {
  return {
    id,
    lines: lines.map(presentLine),
    total: lines.reduce((sum, l) => sum + l.total, 0),
    currency,
    expires_at: lines.length ? new Date(Math.min(...lines.map((l) => l.expires_ms))).toISOString() : null,
  };
}

/**
 * Deletes expired cart lines, one slot at a time (each takes that slot's lock for a moment, then
 * its lines; the trigger takes their seats out of slot.held). Expired lines already stop counting in every
 * seat count shown, and a hold that needs their seats sweeps its slot itself; this keeps the
 * tables small. Returns how many lines went.
 */
export async function sweepExpiredHolds(db: Db, maxSlots = 200) {
  let swept = 0;
  for (const { slot_id } of await q.slotsWithExpiredLines(db, maxSlots)) {
    swept += await q.sweepExpiredLinesOf(db, slot_id);
  }
  return swept;
}

/** The organisation's carts that hold something right now, newest hold first, paged in SQL. */
export async function pageCarts(ctx: TenantCtx, limit: number, offset: number): Promise<TCart[]> {
  const ids = await q.pageHoldingCartIds(ctx, limit, offset);
  if (ids.length === 0) return [];
  const lines = await q.cartLines(ctx, ids.map((r) => r.id));
  return ids.map((r) => presentCart(r.id, lines.filter((l) => l.cart_id === r.id), ctx.currency));
}

/** How many of the organisation's carts hold something right now. */
export const countCarts = q.countHoldingCarts;

export async function getCart(ctx: TenantCtx, id: string) {
  const row = await q.findCart(ctx, id);
  if (!row) throw notFound('No cart with this id.');
  return readCart(ctx, row.id);
}

/** The cart as the API shows it. */
export async function readCart(ctx: TenantCtx, cartId: string): Promise<TCart> {
  return presentCart(cartId, await q.cartLines(ctx, [cartId]), ctx.currency);
}

/** A line of the user's cart, or 404. */
async function ownLine(ctx: TenantCtx, cartId: string, lineId: string) {
  const line = await q.findCartLine(ctx, cartId, lineId);
  if (!line) throw notFound('No such line in your cart.');
  return line;
}

/**
 * Gives a line's seats back. The slot's row is locked before the line is deleted, the order the
 * expiry sweep takes them in: deleting first (the line's row, then its trigger's slot update) met
 * a sweep holding the slot and waiting for that line, and PostgreSQL cancelled one (40P01).
 */
export async function releaseLine(ctx: TenantCtx, cartId: string, lineId: string) {
  const line = await ownLine(ctx, cartId, lineId);
  await lockSlot(ctx, line.slot_id);
  await q.deleteCartLine(ctx, lineId);
}
