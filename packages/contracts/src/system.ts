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
