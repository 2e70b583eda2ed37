import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { systemNotification, users } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';

export interface NotificationFilter {
  level?: string;
}

function where(filter: NotificationFilter): SQL | undefined {
  return and(filter.level ? eq(systemNotification.level, filter.level) : undefined);
}

export async function countNotifications(db: Db, filter: NotificationFilter) {
  const [row] = await db.select({ n: count() }).from(systemNotification).where(where(filter));
  return row?.n ?? 0;
}

export function listNotifications(db: Db, filter: NotificationFilter, limit: number, offset: number) {
  return db
    .select()
    .from(systemNotification)
    .where(where(filter))
    .orderBy(desc(systemNotification.published_at), desc(systemNotification.id))
    .limit(limit)
    .offset(offset);
}

export async function findNotification(db: Db, id: string) {
  const [row] = await db.select().from(systemNotification).where(eq(systemNotification.id, id));
  return row;
}

/** Announcements published since the user last opened them (never opened: those of the last 30 days), up to now. */
export async function unreadOf(ctx: TenantCtx, userId: string) {
  const [me] = await ctx.tx.select({ seen: users.notifications_seen_at }).from(users).where(and(eq(users.account_id, ctx.accountId), eq(users.id, userId)));
  const since = me?.seen ?? new Date(Date.now() - 30 * 86_400_000);
  const [row] = await ctx.tx
    .select({ n: count() })
    .from(systemNotification)
    .where(and(sql`${systemNotification.published_at} > ${since.toISOString()}::timestamptz`, sql`${systemNotification.published_at} <= now()`));
  return { unread: Number(row?.n ?? 0), seen_at: me?.seen?.toISOString() ?? null };
}

export async function markSeen(ctx: TenantCtx, userId: string) {
  await ctx.tx.update(users).set({ notifications_seen_at: new Date() }).where(and(eq(users.account_id, ctx.accountId), eq(users.id, userId)));
}
