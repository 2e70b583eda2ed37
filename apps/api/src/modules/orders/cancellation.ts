import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { messageMoney } from './order-basics';
import { openBookingTerms } from './queries/bookings';
import { orderRow } from './queries/orders';

/** The order's open bookings with their start and policy rules, earliest first (the octo module reads them too). */
export { openBookingTerms };

/**
 * The cancellation policy, one rule for everyone who reads it: the customer's booking page (what
 * cancelling now would refund and keep), cancelling an order under it (the customer's, or staff's
 * "keep the cancellation fee"), and the order's payments tab (the refund it proposes to staff).
 */
export interface CancellationTerms {
  allowed: boolean;
  /** What cancelling now gives back of what was paid. */
  refund: number;
  /** What cancelling now keeps of what was paid: the cancellation fee (paid − refund). */
  fee: number;
  reason: string;
}
type Rule = { hours_before: number; refund_percent: number };

/**
 * What the policy allows now: the rule of the latest start among the order's open bookings'
 * earliest start (the most hours before it that the rules name), its refund of what was paid;
 * nothing without a policy or once a booking has started. What was paid beyond what the open
 * bookings cost (`owed`: a line cancelled earlier) is refunded in full; of the rest the policy's
 * percentage is refunded, rounded down to the minor unit, and the remainder is the fee the
 * organisation keeps — so refund + fee is always what was paid, and the fee never exceeds `owed`.
 */
export function cancellationTerms(rules: Rule[] | null, earliestStart: Date | null, paid: number, now = new Date(), owed = paid): CancellationTerms {
  if (!earliestStart) return { allowed: false, refund: 0, fee: 0, reason: 'Nothing left to cancel.' };
  if (!rules || rules.length === 0) return { allowed: false, refund: 0, fee: 0, reason: 'This booking cannot be cancelled online: contact us.' };
  const hours = (earliestStart.getTime() - now.getTime()) / 3_600_000;
  if (hours <= 0) return { allowed: false, refund: 0, fee: 0, reason: 'This booking has started.' };
  const rule = [...rules].sort((a, b) => b.hours_before - a.hours_before).find((r) => hours >= r.hours_before);
  const percent = rule?.refund_percent ?? 0;
  if (paid <= 0) return { allowed: true, refund: 0, fee: 0, reason: 'You can cancel free of charge: nothing has been paid yet.' };
  const covered = Math.min(paid, Math.max(owed, 0));
  const fee = covered - Math.floor((covered * percent) / 100);
  return { allowed: true, refund: paid - fee, fee, reason: percent > 0 ? `Cancel now and ${percent} % of what you paid is refunded.` : 'Cancel now: no refund at this point.' };
}

/** Of several policies, per number of hours the least refund any of them gives. */
export function strictest(policies: Rule[][]) {
  const hours = [...new Set(policies.flat().map((r) => r.hours_before))];
  const percentAt = (rules: Rule[], h: number) =>
    [...rules].sort((a, b) => b.hours_before - a.hours_before).find((r) => h >= r.hours_before)?.refund_percent ?? 0;
  return hours.map((h) => ({ hours_before: h, refund_percent: Math.min(...policies.map((p) => percentAt(p, h))) }));
}

/**
 * The terms for an order's open bookings (their start and their offer's policy rules): the
 * strictest of their policies decides, from the earliest start (a customer cancels the whole
 * order); an open booking without a policy means the policy does not allow cancelling.
 */
export function termsOf(open: { starts: Date; rules: Rule[] | null }[], paid: number, owed: number, now = new Date()): CancellationTerms {
  const sorted = [...open].sort((a, b) => a.starts.getTime() - b.starts.getTime());
  const policies = sorted.map((r) => r.rules);
  const rules = policies.length && policies.every((p) => p && p.length) ? strictest(policies as Rule[][]) : null;
  return cancellationTerms(rules, sorted[0]?.starts ?? null, paid, now, owed);
}

/**
 * A fee split over the lines it is kept for, pro rata by their gross: each share rounded down to
 * the minor unit, and what rounding left over given one unit at a time to the largest remainders
 * (the earlier line on a tie), so the shares add up to the fee exactly and none exceeds its line.
 */
export function splitFee(fee: number, lines: { id: string; total: number }[]): Map<string, number> {
  const gross = lines.reduce((s, l) => s + l.total, 0);
  const shares = new Map(lines.map((l) => [l.id, 0]));
  if (fee <= 0 || gross <= 0) return shares;
  // In BigInt: fee × gross of a line can pass 2^53 (each is up to 2^31 minor units).
  const exact = lines.map((l, i) => {
    const product = BigInt(fee) * BigInt(l.total);
    return { id: l.id, i, floor: Number(product / BigInt(gross)), rest: Number(product % BigInt(gross)) };
  });
  let left = fee - exact.reduce((s, e) => s + e.floor, 0);
  for (const e of exact) shares.set(e.id, e.floor);
  for (const e of [...exact].sort((a, b) => b.rest - a.rest || a.i - b.i)) {
    if (left <= 0) break;
    shares.set(e.id, shares.get(e.id)! + 1);
    left -= 1;
  }
  return shares;
}

/**
 * The refund to propose to staff for an order. An open order: what its bookings' policies give
 * back if it were cancelled now (what was paid beyond what they cost included), or what was paid
 * beyond what is owed — the larger, never more than was paid. A cancelled order: what was paid
 * less the cancellation fee it keeps (paid is already net of the refunds made), never negative.
 * `cancellation_fee` is what cancelling now would keep under the policy (null when the policy
 * does not allow cancelling now) — or, for a cancelled order, the fee it keeps.
 */
export async function refundProposal(ctx: TenantCtx, orderId: string): Promise<{ amount: number; reason: string; cancellation_fee: number | null }> {
  const o = await orderRow(ctx, orderId);
  if (!o) throw notFound('No order with this id.');
  if (o.status === 'Canceled') {
    const left = Math.max(0, o.paid - o.cancellation_fee);
    if (o.cancellation_fee > 0) {
      const kept = messageMoney(o.cancellation_fee, o.currency);
      return {
        amount: left,
        reason: left > 0 ? `Cancelled under the cancellation policy: its fee of ${kept} is kept, the rest of what was paid is refunded.` : `Cancelled under the cancellation policy: its fee of ${kept} is kept, and the rest is refunded already.`,
        cancellation_fee: o.cancellation_fee,
      };
    }
    return { amount: left, reason: left > 0 ? 'Paid beyond what the order owes now.' : 'Nothing to refund under the cancellation policy now.', cancellation_fee: 0 };
  }
  const terms = termsOf(await openBookingTerms(ctx, orderId), o.paid, o.total);
  const overpaid = Math.max(0, o.paid - o.total);
  const byPolicy = terms.allowed ? terms.refund : 0;
  const fee = terms.allowed ? terms.fee : null;
  if (overpaid >= byPolicy) {
    return { amount: Math.min(overpaid, o.paid), reason: overpaid > 0 ? 'Paid beyond what the order owes now.' : 'Nothing to refund under the cancellation policy now.', cancellation_fee: fee };
  }
  return { amount: Math.min(byPolicy, o.paid), reason: `The cancellation policy: ${terms.reason}`, cancellation_fee: fee };
}
