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

/** `GET /api/health/live`: the process runs and answers (asks nothing of the database). */
export const ZHealthLive = z
  .object({
    status: z.literal('ok'),
    uptime_s: z.number(),
    version: z.string(),
  })
  .meta({ id: 'HealthLive' });
export type THealthLive = z.infer<typeof ZHealthLive>;

/**
 * `GET /api/health/ready`: whether a load balancer should send this process traffic — the database
 * answers, it has every migration this version bundles, and the process is not shutting down.
 * 200 when `status` is `ready`, 503 otherwise.
 */
export const ZHealthReady = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    database: z.object({
      ok: z.boolean(),
      engine: z.enum(['pglite', 'postgres']),
      latency_ms: z.number().nullable(),
    }),
    migrations: z.object({
      ok: z.boolean(),
      /** Migrations (and the definitions' fingerprint) the code has and the database lacks; null when the database did not answer. */
      pending: z.number().int().nullable(),
    }),
    shutting_down: z.boolean(),
  })
  .meta({ id: 'HealthReady' });
export type THealthReady = z.infer<typeof ZHealthReady>;

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
