import { moneyText, todayIn, type PromoRefusal } from '@tourdesk/contracts';
import type { HeldItem } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError, fromDatabase } from '../../lib/errors';
import * as q from './queries';

/**
 * applyPromo(): the one rule of a promo code on a sale, for every caller — the order being written
 * (writeOrder() in orders/records.ts) and the previews of the web store's cart and the counter's. It finds the code (case-insensitive, this
 * organisation's only: another's is unknown), checks it in this order and refuses with the first
 * reason that holds (an AppError with a promo_* code on `promo_code`, the detail saying why):
 * unknown; inactive or past its booking window (expired); before it (not yet valid); another store;
 * no line of its offers (not for this offer); no such line departing in its window; the order's gross
 * below its minimum; used up; used up by this customer's e-mail. Then it splits the discount over the
 * eligible items' gross of each line: a percentage of their sum (rounded half up) or the fixed amount
 * (never more than that sum), shared pro rata by each line's eligible gross with the largest
 * remainder, so the lines' shares add up to the discount exactly.
 *
 * A sale takes a use afterwards, once its slots are locked (takePromoUse(), below): the limits are
 * checked again there, under the code's row lock.
 */

export interface PromoLine {
  /** The caller's key for the line (a cart line's id, or its index). */
  key: string;
  experience_id: string;
  slot_id: string;
  items: readonly HeldItem[];
}

export interface AppliedPromo {
  id: string;
  /** The code as the organisation wrote it (what "Discount (CODE)" shows). */
  code: string;
  /** Each line's share of the discount (gross, minor units), by key; lines not eligible get 0. */
  discounts: Map<string, number>;
  amount: number;
}

const refuse = (code: PromoRefusal, detail: string) => new AppError(code, detail, 'promo_code');

export async function applyPromo(ctx: TenantCtx, input: { code: string; storeId: string | null; email?: string | null; lines: readonly PromoLine[] }): Promise<AppliedPromo> {
  const typed = input.code.trim();
  const p = await q.promoByCode(ctx, typed);
  if (!p) throw refuse('promo_unknown', `There is no promo code “${typed}”. Check how it is spelt.`);
  const today = todayIn(await q.accountZone(ctx));
  if (!p.active || (p.valid_until && today > p.valid_until)) throw refuse('promo_expired', `The promo code ${p.code} has expired${p.valid_until && p.active ? ` (it was valid until ${p.valid_until})` : ''}.`);
  if (p.valid_from && today < p.valid_from) throw refuse('promo_not_yet_valid', `The promo code ${p.code} is valid from ${p.valid_from}.`);
  if (p.store_id && p.store_id !== input.storeId) throw refuse('promo_not_for_store', `The promo code ${p.code} is not valid here.`);
  const forOffer = input.lines.filter((l) => p.experience_ids.length === 0 || p.experience_ids.includes(l.experience_id));
  const itemOk = (i: HeldItem) => (p.category_ids.length === 0 ? true : i.kind === 'category' && p.category_ids.includes(i.id));
  const withItems = forOffer.filter((l) => l.items.some(itemOk));
  if (withItems.length === 0) throw refuse('promo_not_for_offer', `The promo code ${p.code} is not valid for ${input.lines.length === 1 ? 'this offer' : 'these offers'}.`);
  const dates = await q.slotDates(ctx, [...new Set(withItems.map((l) => l.slot_id))]);
  const inWindow = (d: string | undefined) => Boolean(d) && (!p.departure_from || d! >= p.departure_from) && (!p.departure_until || d! <= p.departure_until);
  const eligible = withItems.filter((l) => inWindow(dates.get(l.slot_id)));
  if (eligible.length === 0) {
    const window = p.departure_from && p.departure_until ? `from ${p.departure_from} to ${p.departure_until}` : p.departure_from ? `from ${p.departure_from}` : `until ${p.departure_until}`;
    throw refuse('promo_departure', `The promo code ${p.code} is valid only for departures ${window}.`);
  }
  const gross = input.lines.reduce((s, l) => s + l.items.reduce((t, i) => t + i.quantity * i.unit_price, 0), 0);
  if (gross < p.min_order) throw refuse('promo_minimum', `The promo code ${p.code} is valid for orders of ${moneyText(p.min_order, ctx.currency)} or more.`);
  // Seen used up now; a sale takes its use later, under its slots' locks (takePromoUse()).
  if (p.max_uses !== null && p.uses >= p.max_uses) throw refuse('promo_used_up', `The promo code ${p.code} has been used up.`);
  const email = input.email?.trim();
  if (email && p.max_uses_per_customer !== null && (await q.usesByCustomer(ctx, p.id, email)) >= p.max_uses_per_customer) {
    throw refuse('promo_used_by_customer', `The promo code ${p.code} has already been used with ${email}.`);
  }
  const bases = eligible.map((l) => ({ key: l.key, base: l.items.filter(itemOk).reduce((s, i) => s + i.quantity * i.unit_price, 0) }));
  const sum = bases.reduce((s, b) => s + b.base, 0);
  const amount = p.kind === 'percent' ? Math.floor((2 * sum * p.percent_bp + 10000) / 20000) : Math.min(p.amount, sum);
  return { id: p.id, code: p.code, amount, discounts: share(amount, bases, input.lines) };
}

/**
 * Takes one use of a code applied to a sale (writeOrder(), once the sale's slots are locked: the
 * slots first, then the code, as every writer locks; a checkout's sale takes it at its commit, in
 * tourdesk_sale_at_commit(), with the same SQL function): the conditional UPDATE locks the code's row
 * until the sale commits, so two sales of its last use cannot both pass, and the per-customer count
 * read after it sees the other's committed order. Refuses the sale when either limit is reached.
 */
export async function takePromoUse(ctx: TenantCtx, promo: Pick<AppliedPromo, 'id' | 'code'>, email?: string | null) {
  try {
    await q.takeUse(ctx, promo, email ?? null);
  } catch (error) {
    throw fromDatabase(error) ?? error;
  }
}

/** `amount` split over the lines pro rata by their base, largest remainder first (ties: the earlier line). */
function share(amount: number, bases: { key: string; base: number }[], lines: readonly PromoLine[]) {
  const out = new Map<string, number>(lines.map((l) => [l.key, 0]));
  const sum = bases.reduce((s, b) => s + b.base, 0);
  if (sum === 0 || amount === 0) return out;
  // In BigInt: amount × base may pass 2^53.
  const parts = bases.map((b, i) => {
    const x = BigInt(amount) * BigInt(b.base);
    return { ...b, i, floor: Number(x / BigInt(sum)), rem: Number(x % BigInt(sum)) };
  });
  let left = amount - parts.reduce((s, p) => s + p.floor, 0);
  for (const p of [...parts].sort((x, y) => y.rem - x.rem || x.i - y.i)) {
    if (left <= 0) break;
    p.floor += 1;
    left -= 1;
  }
  for (const p of parts) out.set(p.key, p.floor);
  return out;
}
