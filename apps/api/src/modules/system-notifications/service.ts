import type { TSystemNotification } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { systemNotification } from '../../db/schema';
import { notFound } from '../../lib/errors';
import * as q from './queries';

type Row = typeof systemNotification.$inferSelect;

const toDto = (row: Row): TSystemNotification => ({
  id: row.id,
  title: row.title,
  body: row.body,
  level: row.level as TSystemNotification['level'],
  published_at: row.published_at.toISOString(),
});

/** How many announcements match the filter. */
export const countSystemNotifications = q.countNotifications;

/** One page of announcements, newest first, as the API shows them. */
export async function systemNotificationPage(db: Db, filter: q.NotificationFilter, limit: number, offset: number): Promise<TSystemNotification[]> {
  return (await q.listNotifications(db, filter, limit, offset)).map(toDto);
}

export async function getSystemNotification(db: Db, id: string): Promise<TSystemNotification> {
  const row = await q.findNotification(db, id);
  if (!row) throw notFound('No system notification with this id.');
  return toDto(row);
}

/** How many announcements came since the user last opened them (the bell). */
export const unreadOf = q.unreadOf;

/** The user has opened the announcements: the bell counts from now. */
export const markSeen = q.markSeen;
