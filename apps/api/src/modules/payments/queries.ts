import { and, eq } from 'drizzle-orm';
import type { TenantCtx } from '../../lib/crud';
import { onlineCheckout } from '../../db/schema';

/**
 * The row of an online payment, locked: whoever finishes a payment (Stripe's event, the customer's
 * page asking, an expiry) holds it, so a paid session makes one order, never an order and a refund.
 */
export async function lockCheckout(ctx: TenantCtx, where: { id?: string; session?: string }) {
  const [row] = await ctx.tx
    .select()
    .from(onlineCheckout)
    .where(and(eq(onlineCheckout.account_id, ctx.accountId), where.id ? eq(onlineCheckout.id, where.id) : eq(onlineCheckout.session_id, where.session!)))
    .for('update');
  return row;
}
