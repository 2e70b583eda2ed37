import { and, asc, eq } from 'drizzle-orm';
import { auditEvent, users } from '../../../db/schema';
import type { TenantCtx } from '../../../lib/crud';

/** The audit trail of orders, their lines, payments and invoices. */

/** Inserts one audit event. */
export async function insertAuditEvent(ctx: TenantCtx, values: Omit<typeof auditEvent.$inferInsert, 'account_id'>) {
  await ctx.tx.insert(auditEvent).values({ ...values, account_id: ctx.accountId });
}

/** The order's audit events, oldest first, with the actor's name. */
export function auditOfOrder(ctx: TenantCtx, orderId: string) {
  return ctx.tx
    .select({ e: auditEvent, first: users.first_name, last: users.last_name, email: users.email })
    .from(auditEvent)
    .leftJoin(users, eq(users.id, auditEvent.actor_id))
    .where(and(eq(auditEvent.account_id, ctx.accountId), eq(auditEvent.order_id, orderId)))
    .orderBy(asc(auditEvent.created_at), asc(auditEvent.id));
}
