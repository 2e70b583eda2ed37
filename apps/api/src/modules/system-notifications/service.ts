import type { FastifyRequest } from 'fastify';
import type { TPaginationQuery, TSystemNotification, TSystemNotificationList } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { systemNotification } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { paginate } from '../../lib/pagination';
import * as q from './queries';

type Row = typeof systemNotification.$inferSelect;

const toDto = (row: Row): TSystemNotification => ({
  id: row.id,
  title: row.title,
  body: row.body,
  level: row.level as TSystemNotification['level'],
  published_at: row.published_at.toISOString(),
});

export function listSystemNotifications(
  db: Db,
  request: FastifyRequest,
  query: TPaginationQuery & q.NotificationFilter,
): Promise<TSystemNotificationList> {
  return paginate(
    request,
    query,
    () => q.countNotifications(db, query),
    async (limit, offset) => (await q.listNotifications(db, query, limit, offset)).map(toDto),
  );
}

export async function getSystemNotification(db: Db, id: string): Promise<TSystemNotification> {
  const row = await q.findNotification(db, id);
  if (!row) throw notFound('No system notification with this id.');
  return toDto(row);
}
