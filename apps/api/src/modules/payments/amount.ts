import { daysBefore, depositOf, depositRuleOf, todayIn, type TOnlineAmount } from '@tourdesk/contracts';
import type { HeldItem } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { applyPromo } from '../promo-codes/apply';
import * as q from './queries';
import { stripeMinimum, stripeStep } from './stripe-amounts';

/**
 * onlineAmount(): what is charged online now for a web store's cart lines — the one place that says
 * it (issue 32). Each term is one step over the lines:
 *
 * 1. the lines' totals as held;
 * 2. less a promo code's discount, by the rule every sale uses (applyPromo(), nothing taken; the
 *    order written later takes its use and must come to the same total);
 * 3. each line's deposit, by its offer's rule, else its store's (depositOf(): a percentage rounded
 *    half up, or a fixed amount per booking, never more than the line's discounted total), then up
 *    to a step Stripe takes (10 in three-decimal currencies). A line whose balance would be due
 *    today or earlier (its departure is close) is charged in full; so is the whole cart when its
 *    deposits come to less than Stripe's minimum charge (stripeMinimum()).
 *
 * A later deduction (a gift voucher) is one more term between 2 and 3 or after 3.
 * The balance's due date is the earliest of the lines' due dates (their departure's local date less
 * the rule's days); none when nothing is left, or when the rest of any line is due on site (a
 * reminder and a payment link ask for the whole balance: never for what was promised on site).
 */

export interface AmountLine {
  id: string;
  slot_id: string;
  total: number;
  items: readonly HeldItem[];
  created_at: Date;
}

export interface OnlineAmount extends TOnlineAmount {
  /** The promo code as the organisation wrote it, when one applies. */
  promo_code: string | null;
  /** What each line is charged now (Stripe's line items). */
  lines: { id: string; slot_id: string; charge: number }[];
}

export async function onlineAmount(ctx: TenantCtx, input: { storeId: string | null; lines: readonly AmountLine[]; promoCode?: string | null; email?: string | null; deposits?: boolean }): Promise<OnlineAmount> {
  const lines = [...input.lines].sort((x, y) => x.created_at.getTime() - y.created_at.getTime());
  const slots = await q.depositSlots(ctx, [...new Set(lines.map((l) => l.slot_id))]);
  // 2. A promo code's share of each line (refused as the order would refuse it).
  const promo = input.promoCode
    ? await applyPromo(ctx, {
        code: input.promoCode,
        storeId: input.storeId,
        email: input.email ?? undefined,
        lines: lines.map((l) => ({ key: l.id, experience_id: slots.get(l.slot_id)?.experience_id ?? '', slot_id: l.slot_id, items: l.items })),
        take: false,
      })
    : null;
  // A partner's offers sold in a reseller's store are paid in full (its contract says who collects).
  const deposits = input.deposits ?? true;
  const storeRule = deposits ? await q.storeDeposit(ctx, input.storeId) : null;
  const today = todayIn(await q.accountZone(ctx));
  let total = 0;
  let payNow = 0;
  let dueOn: string | null = null;
  // A rest promised on site for some line: the order's rest is not asked for by a date (its
  // reminder and link would ask for that part too).
  let restOnSite = false;
  const step = stripeStep(ctx.currency);
  const charged: OnlineAmount['lines'] = [];
  for (const l of lines) {
    const discounted = l.total - (promo?.discounts.get(l.id) ?? 0);
    total += discounted;
    // 3. The line's deposit, unless its balance would be due already; up to an amount Stripe takes
    //    (three-decimal currencies in steps of 10), never past the line.
    const s = slots.get(l.slot_id);
    const rule = deposits ? depositRuleOf(s?.deposit, storeRule) : null;
    const lineDue = rule && rule.balance_due_days !== null && s ? daysBefore(s.local_date, rule.balance_due_days) : null;
    const share = rule && (lineDue === null || lineDue > today) ? depositOf(discounted, rule) : discounted;
    const deposit = Math.min(discounted, Math.ceil(share / step) * step);
    payNow += deposit;
    charged.push({ id: l.id, slot_id: l.slot_id, charge: deposit });
    if (deposit < discounted && lineDue === null) restOnSite = true;
    if (deposit < discounted && lineDue !== null && (dueOn === null || lineDue < dueOn)) dueOn = lineDue;
  }
  // Stripe refuses a charge below its minimum (0.50 in most currencies): a deposit that small is
  // no deposit — the whole is charged.
  if (payNow > 0 && payNow < total && payNow < stripeMinimum(ctx.currency)) {
    for (const c of charged) c.charge = lines.find((l) => l.id === c.id)!.total - (promo?.discounts.get(c.id) ?? 0);
    payNow = total;
  }
  return { total, pay_now: payNow, rest: total - payNow, due_on: payNow < total && !restOnSite ? dueOn : null, currency: ctx.currency, promo_code: promo?.code ?? null, lines: charged };
}

/**
 * What the store's checkout shows before paying online: onlineAmount() of the cart's lines (those
 * listed, else those still held) with a promo code. Without the customer's e-mail, as the cart's
 * promo preview (the uses per customer are checked when the payment starts).
 */
export async function cartOnlineAmount(ctx: TenantCtx, input: { storeId: string; cartId: string; lines?: string[]; promoCode?: string; deposits: boolean }): Promise<TOnlineAmount> {
  const now = Date.now();
  const inCart = await q.cartLines(ctx, input.cartId);
  const lines = input.lines ? inCart.filter((l) => input.lines!.includes(l.id)) : inCart.filter((l) => l.expires_at.getTime() > now);
  const { promo_code: _code, lines: _lines, ...amount } = await onlineAmount(ctx, { storeId: input.storeId, lines, promoCode: input.promoCode, deposits: input.deposits });
  return amount;
}
