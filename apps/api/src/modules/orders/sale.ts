import type { TTimeFormat } from '@tourdesk/contracts';
import { dateTimeText } from '@tourdesk/contracts/date-format';
import type { HeldItem, SoldItem } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { cancellationFeesByRate, vatRateSources } from './queries/sale';

/**
 * Money fixed when it is sold. A line's items (a pricing category or an extra, its quantity and unit
 * price, from tourdesk_price when it was held or priced) get the VAT rate of the day — the
 * experience's, else the organisation's — and their gross, tax and net; the line's figures are their
 * sums. Stored on the booking and never recomputed.
 */

/**
 * VAT in a tax-inclusive amount, in integer minor units, rounded half up:
 * tax = round(gross × rate / (10000 + rate)), rate in basis points.
 */
export function vatOf(gross: number, rateBp: number) {
  if (rateBp === 0) return 0;
  return Math.floor((2 * gross * rateBp + (10000 + rateBp)) / (2 * (10000 + rateBp)));
}

/**
 * What a sold line is on an invoice: "Sunrise kayak, 28 Nov 2026, 09:30" ("…, 9:30 am" in the
 * organisation's 12-hour setting) — the offer's title and the departure's local date and time.
 * Written on the line when it is sold (sold_as), so renaming the offer or changing the
 * organisation's zone or time format later changes no invoice.
 */
export const lineDescription = (title: string, startsAt: Date, zone: string, format: TTimeFormat, locale = 'en-GB') =>
  `${title}, ${dateTimeText(startsAt, zone, format, locale, { day: '2-digit', month: 'short', year: 'numeric' })}`;

/**
 * A line as sold: its items with their VAT, and the line's totals (sums of the items); `soldAs` its
 * description. `discount` (a promo code's share of this line, gross, applyPromo()): the line's total
 * is its items' gross less it, and its tax the VAT of that discounted gross by the same rule
 * (vatOf()); the items keep their own figures, and discountByRate() shows the difference as the
 * "Discount (CODE)" row, so items + discount add up to the line to the minor unit.
 */
export function sellLine(items: HeldItem[], { rateBp, pending }: SaleRate, soldAs?: string, soldLabel: (item: HeldItem) => string | undefined = () => undefined, discount = 0) {
  const sold: SoldItem[] = items.map((i) => {
    const total = i.quantity * i.unit_price;
    const tax = vatOf(total, rateBp);
    const label = soldLabel(i);
    return { kind: i.kind, id: i.id, label: i.label, quantity: i.quantity, unit_price: i.unit_price, ...(soldAs ? { sold_as: soldAs } : {}), ...(label && label !== i.label ? { sold_label: label } : {}), total, tax_rate_bp: rateBp, tax, net: total - tax };
  });
  const gross = sold.reduce((s, i) => s + i.total, 0);
  const off = Math.min(Math.max(discount, 0), gross);
  const total = gross - off;
  const tax = off > 0 ? vatOf(total, rateBp) : sold.reduce((s, i) => s + i.tax, 0);
  return { items: sold, total, tax, net: total - tax, tax_rate_bp: rateBp, tax_rate_pending: pending, discount: off };
}

/**
 * A promo code's discount per VAT rate, from lines as sold (their `discount`, `tax` and items'
 * tax): per rate, the gross taken off and the VAT it takes off (the items' VAT less the line's),
 * as positive amounts. What the order, the invoice ("Discount (CODE)" per rate) and the e-mails
 * show; items less these add up to the lines exactly.
 */
export function discountByRate(lines: readonly { discount: number; tax: number; tax_rate_bp: number; items: readonly { tax: number }[] }[]) {
  const byRate = new Map<number, { vat_rate_bp: number; gross: number; tax: number; net: number }>();
  for (const l of lines) {
    if (l.discount <= 0) continue;
    const r = byRate.get(l.tax_rate_bp) ?? { vat_rate_bp: l.tax_rate_bp, gross: 0, tax: 0, net: 0 };
    r.gross += l.discount;
    r.tax += l.items.reduce((s, i) => s + i.tax, 0) - l.tax;
    r.net = r.gross - r.tax;
    byRate.set(l.tax_rate_bp, r);
  }
  return [...byRate.values()].sort((x, y) => x.vat_rate_bp - y.vat_rate_bp);
}

/**
 * A line's VAT rate as it is sold: the experience's own rate, else the organisation's. An
 * organisation that has not set its rate yet (0, which "Issue invoice" refuses) sells with the rate
 * pending: the line shows no VAT until its order is invoiced, when the rate of that day is applied
 * (the tax point) — never a silent 0 % on an invoice.
 */
export interface SaleRate {
  rateBp: number;
  pending: boolean;
}

/** The VAT rate each experience sells at today (its own, else its type's, else the organisation's): one query. */
export async function vatRates(ctx: TenantCtx, experienceIds: string[]) {
  const rows = await vatRateSources(ctx, experienceIds);
  // The offer's own rate, else its type's (Settings → Product configuration), else the organisation's.
  return new Map<string, SaleRate>(
    rows.map((r) => {
      const rate = r.own ?? r.byType[r.type] ?? null;
      return [r.id, { rateBp: rate ?? r.account, pending: rate === null && r.account <= 0 }];
    }),
  );
}

/** The rate of an experience from vatRates(), or pending when it is not among them. */
export const rateOf = (rates: Map<string, SaleRate>, experienceId: string): SaleRate => rates.get(experienceId) ?? { rateBp: 0, pending: true };

/**
 * The order's cancellation fee as sold, per VAT rate: the fee is consideration for the cancelled
 * lines it was kept for, so each line's share (booking.cancellation_fee, split pro rata by gross
 * when the order was cancelled) is taxed at that line's rate. Shares of one rate are added, then
 * the VAT of each rate's gross is rounded once by vatOf() — the rule of every sold item — so
 * recomputeOrder()'s tax_total and the invoice's "Cancellation fee" lines agree to the minor unit.
 */
export async function cancellationFeeByRate(ctx: TenantCtx, orderId: string) {
  const rows = await cancellationFeesByRate(ctx, orderId);
  return rows.map((r) => {
    const gross = Number(r.gross);
    const tax = vatOf(gross, r.rate);
    return { vat_rate_bp: r.rate, gross, tax, net: gross - tax };
  });
}

/**
 * The promo code's discount as an order shows it (the back office, the customer's page, the
 * e-mails): the code and, of its lines not cancelled, the amount off with its VAT per rate; null
 * for an order sold without a code.
 */
export function orderDiscount(code: string | null, lines: readonly { status: string; discount: number; tax: number; tax_rate_bp: number; items: readonly { tax: number }[] }[]) {
  if (!code) return null;
  const taxes = discountByRate(lines.filter((l) => l.status !== 'Canceled'));
  return { code, amount: taxes.reduce((s, t) => s + t.gross, 0), taxes };
}
