import { daysBefore, depositOf, depositRuleOf, todayIn, type TOnlineAmount } from '@tourdesk/contracts';
import type { HeldItem } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { applyPromo } from '../promo-codes/apply';
import { AppError } from '../../lib/errors';
import { voucherPreview } from '../gift-vouchers/service';
import { messageMoney } from '../orders/order-basics';
import * as q from './queries';
import { stripeMinimum, stripeStep } from './stripe-amounts';

/**
 * onlineAmount(): what is charged online now for a web store's cart lines — the one place that says
 * it (issue 32). Each term is one step over the lines:
 *
 * 1. the lines' totals as held;
 * 2. less a promo code's discount, by the rule every sale uses (applyPromo(), nothing taken; the
 *    order written later takes its use and must come to the same total);
 * 3. less a gift voucher (voucherPreview(): usable, its balance; nothing taken — the order spends
 *    it when written, redeemVoucher()): what the customer asks of it, else as much as the order
 *    takes, shared over the lines pro rata (largest remainder first). A voucher pays first, like any
 *    payment: the deposit is asked of what it leaves;
 * 4. each line's deposit of what is left of it, by its offer's rule, else its store's (depositOf(): a percentage rounded
 *    half up, or a fixed amount per booking, never more than the line's discounted total), then up
 *    to a step Stripe takes (10 in three-decimal currencies). A line whose balance would be due
 *    today or earlier (its departure is close) is charged in full; so is the whole cart when its
 *    deposits come to less than Stripe's minimum charge (stripeMinimum()).
 *
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
  /** The gift voucher the order spends (its code as typed) and what it pays, or null. */
  voucher_code: string | null;
}

/** `amount` shared over `weights` pro rata, rounded down, the remainder one unit each to the largest fractions first: the shares add up exactly. */
function shareOut(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((n, w) => n + w, 0);
  if (sum <= 0 || amount <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / sum);
  const shares = exact.map(Math.floor);
  let left = amount - shares.reduce((n, x) => n + x, 0);
  for (const i of exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i)) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

export async function onlineAmount(
  ctx: TenantCtx,
  input: { storeId: string | null; lines: readonly AmountLine[]; promoCode?: string | null; email?: string | null; deposits?: boolean; voucherCode?: string | null; voucherAmount?: number },
): Promise<OnlineAmount> {
  const lines = [...input.lines].sort((x, y) => x.created_at.getTime() - y.created_at.getTime());
  const slots = await q.depositSlots(ctx, [...new Set(lines.map((l) => l.slot_id))]);
  // 2. A promo code's share of each line (refused as the order would refuse it).
  const promo = input.promoCode
    ? await applyPromo(ctx, {
        code: input.promoCode,
        storeId: input.storeId,
        email: input.email ?? undefined,
        lines: lines.map((l) => ({ key: l.id, experience_id: slots.get(l.slot_id)?.experience_id ?? '', slot_id: l.slot_id, items: l.items })),
      })
    : null;
  // A partner's offers sold in a reseller's store are paid in full (its contract says who collects).
  const deposits = input.deposits ?? true;
  const storeRule = deposits ? await q.storeDeposit(ctx, input.storeId) : null;
  const today = todayIn(await q.accountZone(ctx));
  const discountedOf = (l: AmountLine) => l.total - (promo?.discounts.get(l.id) ?? 0);
  const total = lines.reduce((n, l) => n + discountedOf(l), 0);
  // 3. A gift voucher pays first: refused (voucher_*) as the order would refuse it.
  let voucher = 0;
  if (input.voucherCode) {
    const v = await voucherPreview(ctx, input.voucherCode, total);
    if (input.voucherAmount !== undefined && input.voucherAmount > v.balance) throw new AppError('invalid', `The gift voucher holds ${messageMoney(v.balance, v.currency)} only.`, 'voucher_amount');
    voucher = Math.min(input.voucherAmount ?? v.balance, total);
  }
  const byVoucher = shareOut(voucher, lines.map(discountedOf));
  let payNow = 0;
  let dueOn: string | null = null;
  // A rest promised on site for some line: the order's rest is not asked for by a date (its
  // reminder and link would ask for that part too).
  let restOnSite = false;
  const step = stripeStep(ctx.currency);
  const charged: OnlineAmount['lines'] = [];
  for (const [i, l] of lines.entries()) {
    // What is left of the line once the voucher paid its share.
    const discounted = discountedOf(l) - byVoucher[i]!;
    // 4. The line's deposit, unless its balance would be due already; up to an amount Stripe takes
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
  const toPay = total - voucher;
  // What a voucher leaves for the card must be a charge Stripe takes.
  if (toPay > 0 && voucher > 0 && toPay < stripeMinimum(ctx.currency)) {
    throw new AppError('invalid', `The gift voucher leaves ${messageMoney(toPay, ctx.currency)}, too little to pay by card: spend less of it, or pay the rest on site.`, 'voucher_amount');
  }
  if (payNow > 0 && payNow < toPay && payNow < stripeMinimum(ctx.currency)) {
    for (const [i, c] of charged.entries()) c.charge = discountedOf(lines[i]!) - byVoucher[i]!;
    payNow = toPay;
  }
  return {
    total,
    voucher,
    pay_now: payNow,
    rest: toPay - payNow,
    due_on: payNow < toPay && !restOnSite ? dueOn : null,
    currency: ctx.currency,
    promo_code: promo?.code ?? null,
    voucher_code: voucher > 0 ? input.voucherCode!.trim() : null,
    lines: charged,
  };
}

/**
 * What the store's checkout shows before paying online: onlineAmount() of the cart's lines (those
 * listed, else those still held) with a promo code. Without the customer's e-mail, as the cart's
 * promo preview (the uses per customer are checked when the payment starts).
 */
export async function cartOnlineAmount(ctx: TenantCtx, input: { storeId: string; cartId: string; lines?: string[]; promoCode?: string; voucherCode?: string; voucherAmount?: number; deposits: boolean }): Promise<TOnlineAmount> {
  const now = Date.now();
  const inCart = await q.cartLines(ctx, input.cartId);
  const lines = input.lines ? inCart.filter((l) => input.lines!.includes(l.id)) : inCart.filter((l) => l.expires_at.getTime() > now);
  const { promo_code: _code, voucher_code: _voucher, lines: _lines, ...amount } = await onlineAmount(ctx, { storeId: input.storeId, lines, promoCode: input.promoCode, voucherCode: input.voucherCode, voucherAmount: input.voucherAmount, deposits: input.deposits });
  return amount;
}
