import { and, asc, eq, sql } from 'drizzle-orm';
import { orderPayment, users } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';

/** An order's payments and refunds. */

/** Payments with who recorded them and, for each, how much was refunded from it (one query). */
function selectPayments(ctx: TenantCtx, orderId: string, id?: string) {
  // A failed refund gave nothing back: it counts nowhere (a pending one counts).
  const refunds = sql<number>`coalesce((select -sum(r.amount) from ${orderPayment} r where r.refund_of = ${orderPayment.id} and r.status <> 'failed'), 0)::int`;
  return ctx.tx
    .select({ p: orderPayment, first: users.first_name, last: users.last_name, email: users.email, refunded: refunds })
    .from(orderPayment)
    .leftJoin(users, eq(users.id, orderPayment.recorded_by))
    .where(and(eq(orderPayment.account_id, ctx.accountId), eq(orderPayment.order_id, orderId), id ? eq(orderPayment.id, id) : undefined));
}
export type PaymentRow = Awaited<ReturnType<typeof selectPayments>>[number];

/** The order's payments and refunds, oldest first, each with what was refunded from it. */
export function paymentsOfOrder(ctx: TenantCtx, orderId: string) {
  return selectPayments(ctx, orderId).orderBy(asc(orderPayment.created_at), asc(orderPayment.id));
}

/** One payment of the order, with what was refunded from it; undefined when not the order's. */
export async function paymentOfOrder(ctx: TenantCtx, orderId: string, id: string) {
  const [r] = await selectPayments(ctx, orderId, id);
  return r;
}

/** One payment of the order, locked FOR UPDATE (two refunds of it are checked one after the other). */
export async function lockPaymentOfOrder(ctx: TenantCtx, orderId: string, id: string) {
  const [r] = await selectPayments(ctx, orderId, id).for('update', { of: orderPayment });
  return r;
}

/** Inserts a payment or a refund; answers its row. */
export async function insertPayment(ctx: TenantCtx, values: Omit<typeof orderPayment.$inferInsert, 'account_id'>) {
  const [p] = await ctx.tx
    .insert(orderPayment)
    .values({ ...values, account_id: ctx.accountId })
    .returning();
  return p!;
}

/** The order's payment or refund with this provider reference (Stripe's refund id), locked FOR UPDATE. */
export async function lockPaymentByProviderRef(ctx: TenantCtx, orderId: string, providerRef: string) {
  const [p] = await ctx.tx
    .select()
    .from(orderPayment)
    .where(and(eq(orderPayment.account_id, ctx.accountId), eq(orderPayment.order_id, orderId), eq(orderPayment.provider_ref, providerRef)))
    .for('update');
  return p;
}

/** Sets a refund's status at the provider (pending → succeeded or failed). */
export async function setPaymentStatus(ctx: TenantCtx, id: string, status: 'succeeded' | 'failed') {
  await ctx.tx.update(orderPayment).set({ status }).where(and(eq(orderPayment.account_id, ctx.accountId), eq(orderPayment.id, id)));
}
