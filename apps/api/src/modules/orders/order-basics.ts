import { and, eq } from 'drizzle-orm';
import { auditEvent, order } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';

/** What every part of the orders module uses: the order's lock, the audit trail, a person's name. */

/** The order row, locked for the rest of the transaction (payments and line changes serialise on it). */
export async function lockOrder(ctx: TenantCtx, id: string) {
  const [row] = await ctx.tx.select().from(order).where(and(eq(order.account_id, ctx.accountId), eq(order.id, id))).for('update');
  if (!row) throw notFound('No order with this id.');
  return row;
}

/** One who/when/what entry of an order's audit trail; the actor is the signed-in user. */
export async function recordAudit(ctx: TenantCtx, e: { order: string | null; subject: 'order' | 'line' | 'payment' | 'invoice'; subjectId: string; action: string; changes?: Record<string, unknown> }) {
  await ctx.tx.insert(auditEvent).values({ account_id: ctx.accountId, order_id: e.order, subject: e.subject, subject_id: e.subjectId, action: e.action, changes: e.changes ?? {}, actor_id: ctx.userId ?? null });
}

export const personName = (first: string | null, last: string | null, email: string | null) => [first, last].filter(Boolean).join(' ') || email || '';
