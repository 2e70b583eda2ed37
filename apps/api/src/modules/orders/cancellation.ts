import { and, asc, eq } from 'drizzle-orm';
import { booking, cancellationPolicy, experience, order, slot } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';

/**
 * The cancellation policy, one rule for everyone who reads it: the customer's booking page (what
 * cancelling now would refund) and the order's payments tab (the refund it proposes to staff).
 */
export interface CancellationTerms {
  allowed: boolean;
  refund: number;
  reason: string;
}
type Rule = { hours_before: number; refund_percent: number };

/**
 * What the cancellation policy allows now: the rule of the latest start among the order's open
 * bookings' earliest start (the most hours before it that the rules name), its refund of what was
 * paid; nothing without a policy or once a booking has started.
 */
export function cancellationTerms(
  rules: Rule[] | null,
  earliestStart: Date | null,
  paid: number,
  now = new Date(),
): CancellationTerms {
  if (!earliestStart) return { allowed: false, refund: 0, reason: 'Nothing left to cancel.' };
  if (!rules || rules.length === 0) return { allowed: false, refund: 0, reason: 'This booking cannot be cancelled online: contact us.' };
  const hours = (earliestStart.getTime() - now.getTime()) / 3_600_000;
  if (hours <= 0) return { allowed: false, refund: 0, reason: 'This booking has started.' };
  const rule = [...rules].sort((a, b) => b.hours_before - a.hours_before).find((r) => hours >= r.hours_before);
  const percent = rule?.refund_percent ?? 0;
  const refund = Math.floor((Math.max(paid, 0) * percent) / 100);
  if (paid <= 0) return { allowed: true, refund: 0, reason: 'You can cancel free of charge: nothing has been paid yet.' };
  return { allowed: true, refund, reason: percent > 0 ? `Cancel now and ${percent} % of what you paid is refunded.` : 'Cancel now: no refund at this point.' };
}


/** Of several policies, per number of hours the least refund any of them gives. */
export function strictest(policies: Rule[][]) {
  const hours = [...new Set(policies.flat().map((r) => r.hours_before))];
  const percentAt = (rules: Rule[], h: number) =>
    [...rules].sort((a, b) => b.hours_before - a.hours_before).find((r) => h >= r.hours_before)?.refund_percent ?? 0;
  return hours.map((h) => ({ hours_before: h, refund_percent: Math.min(...policies.map((p) => percentAt(p, h))) }));
}


/**
 * The refund to propose to staff for an order: what was paid beyond what is owed (a cancelled
 * order), or what its bookings' policies give back if it were cancelled now — the larger, never
 * more than was paid.
 */
export async function refundProposal(ctx: TenantCtx, orderId: string): Promise<{ amount: number; reason: string }> {
  const [o] = await ctx.tx.select().from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, orderId)));
  if (!o) throw notFound('No order with this id.');
  const rows = await ctx.tx
    .select({ status: booking.status, starts: slot.starts_at, rules: cancellationPolicy.rules })
    .from(booking)
    .innerJoin(slot, eq(slot.id, booking.slot_id))
    .innerJoin(experience, eq(experience.id, booking.experience_id))
    .leftJoin(cancellationPolicy, eq(cancellationPolicy.id, experience.cancellation_policy_id))
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId)))
    .orderBy(asc(slot.starts_at));
  const overpaid = Math.max(0, o.paid - o.total);
  const open = rows.filter((r) => r.status !== 'Canceled');
  const policies = open.map((r) => r.rules);
  const terms = open.length && policies.every((p) => p && p.length) ? cancellationTerms(strictest(policies as Rule[][]), open[0]!.starts, o.paid) : null;
  const byPolicy = terms?.allowed ? terms.refund : 0;
  if (overpaid >= byPolicy) {
    return { amount: Math.min(overpaid, o.paid), reason: overpaid > 0 ? 'Paid beyond what the order owes now.' : 'Nothing to refund under the cancellation policy now.' };
  }
  return { amount: Math.min(byPolicy, o.paid), reason: `The cancellation policy: ${terms!.reason}` };
}
