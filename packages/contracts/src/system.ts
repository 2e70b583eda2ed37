import { z } from 'zod';
import { paginated } from './pagination';

export const ZHealth = z
  .object({
    status: z.enum(['ok', 'degraded']),
    database: z.object({
      ok: z.boolean(),
      engine: z.enum(['pglite', 'postgres']),
      version: z.string().nullable(),
      latency_ms: z.number().nullable(),
    }),
    uptime_s: z.number(),
    version: z.string(),
  })
  .meta({ id: 'Health' });
export type THealth = z.infer<typeof ZHealth>;

export const SYSTEM_NOTIFICATION_LEVELS = ['info', 'warning', 'critical'] as const;

export const ZSystemNotification = z
  .object({
    id: z.uuid(),
    title: z.string(),
    body: z.string(),
    level: z.enum(SYSTEM_NOTIFICATION_LEVELS),
    published_at: z.iso.datetime(),
  })
  .meta({ id: 'SystemNotification' });
export type TSystemNotification = z.infer<typeof ZSystemNotification>;

export const ZSystemNotificationList = paginated(ZSystemNotification).meta({ id: 'SystemNotificationList' });
export type TSystemNotificationList = z.infer<typeof ZSystemNotificationList>;

export const ZSystemNotificationListQuery = z.object({
  level: z.enum(SYSTEM_NOTIFICATION_LEVELS).optional(),
});

export const ZIdParam = z.object({ id: z.uuid({ error: 'Not a valid id.' }) });

/**
 * A job of the organisation whose retries are spent (an e-mail the SMTP server never took): shown
 * to its Owners, who may send it again.
 */
export const ZFailedJob = z
  .object({
    id: z.uuid(),
    queue: z.string(),
    /** What it was: for an e-mail, its subject and recipient. */
    summary: z.string(),
    recipient: z.string().nullable(),
    attempts: z.number().int(),
    error: z.string(),
    created_at: z.iso.datetime(),
    failed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'FailedJob' });
export type TFailedJob = z.infer<typeof ZFailedJob>;

/** The bell: how many announcements came since the user last opened them (or joined). */
export const ZNotificationsUnread = z.object({ unread: z.number().int(), seen_at: z.iso.datetime().nullable() }).meta({ id: 'NotificationsUnread' });
export type TNotificationsUnread = z.infer<typeof ZNotificationsUnread>;
