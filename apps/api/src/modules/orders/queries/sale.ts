import { and, eq, inArray, sql } from 'drizzle-orm';
import { baseAccount, booking, experience, slot, type HeldItem } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';
import { execute } from '../../../db/execute';

/** What a sale is priced and taxed from: tourdesk_price(), the VAT rates of the day, the cancellation fees kept. */

/** A line priced by tourdesk_price() (which checks the slot and the quantities): its seats, total, offer, currency and items. */
export async function priceOf(ctx: TenantCtx, slotId: string, quantities: Record<string, number>, extras: Record<string, number>) {
  const result = (await execute<{ seats: number; total: number; experience_id: string; currency: string; items: HeldItem[] }>(ctx.tx, sql`select * from tourdesk_price(${ctx.accountId}::uuid, ${slotId}::uuid, ${JSON.stringify(quantities)}::jsonb, ${JSON.stringify(extras)}::jsonb)`));
  return result.rows[0]!;
}

/** Each experience's own VAT rate and type, with the organisation's rates by type and its rate (one query). */
export function vatRateSources(ctx: TenantCtx, experienceIds: string[]) {
  return ctx.tx
    .select({ id: experience.id, own: experience.vat_rate_bp, type: experience.type, byType: baseAccount.vat_rates_by_type, account: baseAccount.vat_rate_bp })
    .from(experience)
    .innerJoin(baseAccount, eq(baseAccount.id, experience.account_id))
    .where(and(eq(experience.account_id, ctx.accountId), inArray(experience.id, [...new Set(experienceIds)])));
}

/** The cancellation fee kept on the order's cancelled lines, summed per VAT rate of those lines. */
export function cancellationFeesByRate(ctx: TenantCtx, orderId: string) {
  return ctx.tx
    .select({ rate: booking.tax_rate_bp, gross: sql<number>`sum(${booking.cancellation_fee})::int` })
    .from(booking)
    .where(and(eq(booking.account_id, ctx.accountId), eq(booking.order_id, orderId), eq(booking.status, 'Canceled'), sql`${booking.cancellation_fee} > 0`))
    .groupBy(booking.tax_rate_bp)
    .orderBy(booking.tax_rate_bp);
}

/** The start of each of some slots, and the organisation's time zone: what sold lines are described by (one query). */
export async function departuresOf(ctx: TenantCtx, slotIds: string[]) {
  const rows = await ctx.tx
    .select({ id: slot.id, starts_at: slot.starts_at, zone: baseAccount.time_zone, time_format: baseAccount.time_format, experience_id: slot.experience_id, local_date: slot.local_date, local_time: slot.local_time })
    .from(slot)
    .innerJoin(baseAccount, eq(baseAccount.id, slot.account_id))
    .where(and(eq(slot.account_id, ctx.accountId), inArray(slot.id, slotIds)));
  return new Map(rows.map((r) => [r.id, r]));
}
