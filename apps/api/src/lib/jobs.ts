import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Db, SqlExecutor } from '../db/client';
import { jobFailures } from './metrics';
import { isConnectionLost } from './db-errors';
import type { Sealer } from './sealed';
import { execute } from '../db/execute';

/**
 * Work that must not be lost, in PostgreSQL, with pg-boss 10 (schema `pgboss`): e-mail, the expiry
 * sweep of held seats, the daily extension of schedules, forgetting old idempotency keys. A job
 * is a row: written in the transaction of the change that causes it (an e-mail is sent only if
 * its sign-up committed, and always then), fetched with SKIP LOCKED by one worker of one process
 * of the whole deployment, retried with exponential backoff when its handler throws, kept as
 * `failed` once its retries are spent (an Owner sees their organisation's failed e-mails).
 * Recurring jobs are cron schedules that pg-boss sends once per minute slot for the whole cluster.
 *
 * The same jobs run on both engines: on a PostgreSQL server pg-boss speaks through the app's pool
 * (as tourdesk_server); on PGlite through the one embedded connection (`Database.sql`), in the
 * one process there is. The schema and the queues are installed by the owner during the
 * migration run (installJobs below), so the application's role needs no DDL.
 */

export const JOB_SCHEMA = 'pgboss';

export interface QueueSpec {
  name: string;
  /** When set, sent by pg-boss's clock on this cron schedule (UTC), once for the cluster. */
  cron?: string;
  options: Omit<PgBoss.Queue, 'name'>;
}

/** Every queue, with its retry policy. */
export const QUEUES = {
  /**
   * One e-mail: retried with backoff for hours (30 s, 1, 2, 4, 8 … minutes), so an SMTP outage
   * delays mail but loses none. Its expiry (after which pg-boss would try it again) is far longer
   * than any attempt can last (the mailer's timeouts), so two attempts never overlap.
   */
  email: { name: 'email-send', options: { retryLimit: 12, retryDelay: 15, retryBackoff: true, expireInSeconds: 900 } },
  /** A web order's e-mails (confirmation with tickets, the store's new-booking note, the reminder): composed when sent. */
  orderMail: { name: 'order-mail', options: { retryLimit: 12, retryDelay: 15, retryBackoff: true, expireInSeconds: 900 } },
  /**
   * One attempt at one webhook delivery (modules/webhooks): the module retries a failed delivery
   * itself with backoff (the next attempt is a new job); pg-boss's retries cover a crashed attempt.
   */
  webhook: { name: 'webhook-delivery', options: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 } },
  /** Sends the webhook deliveries written without a job (a change whose caller had no queue at hand). */
  webhookSweep: { name: 'webhook-sweep', cron: '* * * * *', options: { retryLimit: 0, expireInSeconds: 300 } },
  /** Forgets webhook deliveries done for 30 days, and events no delivery names any more. */
  webhookPurge: { name: 'webhook-purge', cron: '37 3 * * *', options: { retryLimit: 1, expireInSeconds: 900 } },
  /** One Stripe event (stored once by the webhook), handled once. */
  stripeEvent: { name: 'stripe-event', options: { retryLimit: 8, retryDelay: 10, retryBackoff: true, expireInSeconds: 600 } },
  /** Ends the platform's own trials that are over (the organisation drops to its free plan). */
  trials: { name: 'plans-end-trials', cron: '11 * * * *', options: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 } },
  /** Queues the reminders of bookings that start within a day. */
  reminders: { name: 'booking-reminders', cron: '*/15 * * * *', options: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 } },
  /** Queues the e-mails of deposits' balances due soon, each order once (modules/payments/reminders.ts). */
  balanceReminders: { name: 'balance-reminders', cron: '*/30 * * * *', options: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600 } },
  /** Deletes expired cart lines (they stop counting at once; this keeps the tables small). */
  holdsSweep: { name: 'holds-sweep', cron: '* * * * *', options: { retryLimit: 0, expireInSeconds: 300 } },
  /** A gift voucher's e-mail (modules/gift-vouchers): the voucher with its PDF on its delivery date (sent with startAfter), or the buyer's receipt; composed when sent. */
  voucherMail: { name: 'gift-voucher-mail', options: { retryLimit: 12, retryDelay: 15, retryBackoff: true, expireInSeconds: 900 } },
  /** A waiting list's offer of seats (modules/waitlist): composed when sent, its link's secret sealed. */
  waitlistMail: { name: 'waitlist-mail', options: { retryLimit: 12, retryDelay: 15, retryBackoff: true, expireInSeconds: 900 } },
  /** Offers freed seats to waiting lists, and the next entry when an offer's hold ran out (modules/waitlist). */
  waitlistOffers: { name: 'waitlist-offers', cron: '* * * * *', options: { retryLimit: 0, expireInSeconds: 300 } },
  /** Extends every schedule to the selling horizon when the last run is a day old. */
  horizon: { name: 'slots-extend-horizon', cron: '7 * * * *', options: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 1800 } },
  /** Re-encodes, once, stored originals uploaded before uploads were stripped of EXIF and GPS data. */
  imagesStrip: { name: 'images-strip-metadata', cron: '*/10 * * * *', options: { retryLimit: 2, retryDelay: 60, expireInSeconds: 900 } },
  /** Forgets rate-limit counters no window still needs (sign-in, partner keys, the web store). */
  countersPurge: { name: 'rate-limit-purge', cron: '41 * * * *', options: { retryLimit: 1, expireInSeconds: 600 } },
  /** Forgets Idempotency-Keys older than 24 hours. */
  idempotencyPurge: { name: 'idempotency-purge', cron: '23 * * * *', options: { retryLimit: 1, expireInSeconds: 600 } },
} as const satisfies Record<string, QueueSpec>;

/** The e-mail jobs' format (`v`, lib/mailer.ts StoredMail): jobs without it were queued before links were made at send time. */
export const MAIL_FORMAT = 2;

/** `text` with $n parameters as a drizzle SQL fragment (so it can run inside a drizzle transaction). */
export function positional(text: string, values: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`));
  return sql.join(chunks, sql.raw(''));
}

/** A transaction as pg-boss's `db` option: jobs sent through it commit or roll back with the transaction. */
export const inTransaction = (tx: Db): SqlExecutor => ({
  executeSql: async (text, values) => (await execute(tx, positional(text, values))),
});

/**
 * Installs or upgrades pg-boss's schema and makes every queue (with its current options), as the
 * owner, during the migration run. An index serves an organisation's failed e-mails.
 */
export async function installJobs(owner: SqlExecutor) {
  const boss = new PgBoss({ db: owner as PgBoss.Db, schema: JOB_SCHEMA, migrate: true, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  try {
    for (const q of Object.values(QUEUES)) {
      if (await boss.getQueue(q.name)) await boss.updateQueue(q.name, { name: q.name, ...q.options });
      else await boss.createQueue(q.name, { name: q.name, ...q.options });
    }
    // pg-boss's own queue for cron sends, which its clock would otherwise make at start.
    if (!(await boss.getQueue('__pgboss__send-it'))) await boss.createQueue('__pgboss__send-it');
    await owner.executeSql(`create index if not exists job_failed_by_account on ${JOB_SCHEMA}.job ((data->>'account'), completed_on desc, id desc) where state = 'failed'`);
    await forgetOldMailJobs(owner);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

/**
 * Forgets the e-mail jobs of the old formats (no `v`, lib/mailer.ts StoredMail), which carried the
 * message with its one-time link, sealed or, before that, in the clear: every one already sent,
 * failed or archived, and any still waiting whose text is in the clear (the worker would refuse it).
 * One still waiting with a sealed text is left to be sent (a reset asked for during the deployment),
 * and forgotten by the next run or pg-boss's own retention. Run with every migration run.
 */
export async function forgetOldMailJobs(owner: SqlExecutor) {
  const old = `name = '${QUEUES.email.name}' and not (data ? 'v')`;
  const deleted = await owner.executeSql(`delete from ${JOB_SCHEMA}.job where ${old} and (state not in ('created', 'retry', 'active') or data ? 'text') returning id`);
  const archived = await owner.executeSql(`delete from ${JOB_SCHEMA}.archive where ${old} returning id`);
  return deleted.rows.length + archived.rows.length;
}

/**
 * The queue's statements go again while the connection is lost, for up to 30 s (a primary's or
 * PgBouncer's restart takes seconds). pg-boss 10 does not wait for the statement that marks a job
 * done or failed (manager.js: `this.complete(…)` unawaited): failing, it was a rejection nobody
 * handled, which ends the process (`npm run chaos`: an API process died at each restart), and it
 * left the job active until it expired, to run again then (an e-mail sent twice). Sent again, the
 * statements are safe: marking done or failed changes only a job still active, maintenance is
 * idempotent, and a fetch whose answer was lost leaves its job to expire as before.
 */
async function againWhileConnectionLost<R>(statement: () => Promise<R>): Promise<R> {
  const until = Date.now() + 30_000;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
    try {
      return await statement();
    } catch (error) {
      if (!isConnectionLost(error) || Date.now() + delay > until) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

export type JobHandler<T> = (data: T, job: PgBoss.Job<T>) => Promise<unknown>;

export interface Jobs {
  /** Sends a job outside any transaction. */
  send<T extends object>(queue: QueueSpec, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  /** Sends a job inside the caller's transaction. */
  sendIn<T extends object>(tx: Db, queue: QueueSpec, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  /** Runs `handler` for the queue's jobs in this process (one at a time). */
  work<T>(queue: QueueSpec, handler: JobHandler<T>): Promise<void>;
  /** Asks this process's workers of a queue to look for jobs now (after a commit that sent some). */
  wake(queue: QueueSpec): void;
  /** A secret as a job may carry it: sealed (lib/sealed.ts), so the queue's tables never hold it; `open` in the worker. */
  seal(value: string): string;
  open(sealed: string): string;
  /** Jobs by queue and state (created, retry, active, failed): the queue's depth, for /metrics. */
  counts(): Promise<{ queue: string; state: string; count: number }[]>;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss in this process over the application's connections: its clock (cron sends, once
 * for the cluster), its maintenance, and the workers registered with work().
 */
export async function startJobs(executor: SqlExecutor, log: FastifyBaseLogger, { stopTimeoutMs, sealer }: { stopTimeoutMs: number; sealer: Sealer }): Promise<Jobs> {
  // pg-boss's stop() resolves once no worker holds a job, which misses a fetch still in flight: the
  // job it brings back is run after the stop, and pg-boss completes it without awaiting, so on
  // connections closed by then the completion fails as an unhandled rejection and the job stays
  // active until it expires. Counting pg-boss's statements and our handlers lets stop() wait for both.
  let busy = 0;
  const track = async <R>(work: () => Promise<R>) => {
    busy += 1;
    try {
      return await work();
    } finally {
      busy -= 1;
    }
  };
  const boss = new PgBoss({
    db: { executeSql: (text, values) => track(() => againWhileConnectionLost(() => executor.executeSql(text, values))) } satisfies SqlExecutor as PgBoss.Db,
    schema: JOB_SCHEMA,
    migrate: false,
    supervise: true,
    schedule: true,
    // A failed job is kept, visible, for 14 days before it is archived.
    archiveFailedAfterSeconds: 14 * 86_400,
  });
  boss.on('error', (err) => log.warn({ err }, 'job queue error'));
  await boss.start();
  for (const q of Object.values(QUEUES) as QueueSpec[]) {
    if (q.cron) await boss.schedule(q.name, q.cron);
  }
  const workers = new Map<string, string>();
  return {
    send: (queue, data, options = {}) => boss.send(queue.name, data, options),
    sendIn: (tx, queue, data, options = {}) => boss.send(queue.name, data, { ...options, db: inTransaction(tx) as PgBoss.Db }),
    async work<T>(queue: QueueSpec, handler: JobHandler<T>) {
      const id = await boss.work<T>(queue.name, { batchSize: 1, pollingIntervalSeconds: 2 }, ([job]) =>
        track(async () => {
          try {
            return await handler(job!.data, job!);
          } catch (err) {
            jobFailures.inc({ queue: queue.name });
            log.warn({ queue: queue.name, job: job!.id, error: (err as Error).message }, 'job failed; it is retried with backoff until its retries are spent');
            throw err;
          }
        }),
      );
      workers.set(queue.name, id);
    },
    wake(queue) {
      const id = workers.get(queue.name);
      if (id) boss.notifyWorker(id);
    },
    seal: (value) => sealer.seal(value),
    open: (sealed) => sealer.open(sealed),
    async counts() {
      const { rows } = await executor.executeSql(
        `select name as queue, state::text as state, count(*)::int as count from ${JOB_SCHEMA}.job where state in ('created', 'retry', 'active', 'failed') and name not like '\\_\\_pgboss%' group by 1, 2`,
        [],
      );
      return rows as { queue: string; state: string; count: number }[];
    },
    // Jobs still running when the process stops are given back to the queue after this wait.
    // then for a fetch in flight, the job it brings and that job's completion (see `busy` above).
    async stop() {
      const until = Date.now() + stopTimeoutMs;
      await boss.stop({ graceful: true, wait: true, timeout: stopTimeoutMs });
      while (busy > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    },
  };
}
