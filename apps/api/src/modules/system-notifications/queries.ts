import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { systemNotification } from '../../db/schema';

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
