import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookDelivery, webhookEndpoint, webhookEvent } from '../../db/webhooks-schema';
import { JOB_SCHEMA } from '../../lib/jobs';
import { execute, transaction } from '../../db/execute';

/** The webhooks module's only database access. Tenant work gets a tenant transaction; the worker's functions run as the server (every organisation, filtered by account). */

export type EndpointRow = typeof webhookEndpoint.$inferSelect;
export type DeliveryRow = typeof webhookDelivery.$inferSelect;

const endpointOf = (account: string, id: string) => and(eq(webhookEndpoint.account_id, account), eq(webhookEndpoint.id, id));

export async function countEndpoints(tx: Db, account: string) {
  const [row] = await tx.select({ n: count() }).from(webhookEndpoint).where(eq(webhookEndpoint.account_id, account));
  return row!.n;
}

export function pageEndpoints(tx: Db, account: string, limit: number, offset: number) {
  return tx.select().from(webhookEndpoint).where(eq(webhookEndpoint.account_id, account)).orderBy(asc(webhookEndpoint.created_at), asc(webhookEndpoint.id)).limit(limit).offset(offset);
}

export async function endpointById(tx: Db, account: string, id: string) {
  const [row] = await tx.select().from(webhookEndpoint).where(endpointOf(account, id));
  return row ?? null;
}

export async function insertEndpoint(tx: Db, values: typeof webhookEndpoint.$inferInsert) {
  const [row] = await tx.insert(webhookEndpoint).values(values).returning();
  return row!;
}

export async function updateEndpoint(tx: Db, account: string, id: string, patch: Partial<typeof webhookEndpoint.$inferInsert>) {
  const [row] = await tx
    .update(webhookEndpoint)
    .set({ ...patch, updated_at: new Date() })
    .where(endpointOf(account, id))
    .returning();
  return row ?? null;
}

export async function deleteEndpoint(tx: Db, account: string, id: string) {
  const rows = await tx.delete(webhookEndpoint).where(endpointOf(account, id)).returning({ id: webhookEndpoint.id });
  return rows.length > 0;
}

/** The organisation's enabled endpoints that subscribe to `type`. */
export function subscribedEndpoints(tx: Db, account: string, type: string) {
  return tx
    .select({ id: webhookEndpoint.id })
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.account_id, account), eq(webhookEndpoint.enabled, true), sql`${type} = any(${webhookEndpoint.event_types})`));
}

/** Which of these event types some enabled endpoint of the organisation subscribes to (one query). */
export async function typesSubscribed(tx: Db, account: string, types: string[]) {
  const rows = await tx
    .select({ types: webhookEndpoint.event_types })
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.account_id, account), eq(webhookEndpoint.enabled, true), sql`${webhookEndpoint.event_types} && ${`{${types.join(',')}}`}::text[]`));
  return new Set(rows.flatMap((r) => r.types).filter((t) => types.includes(t)));
}

export async function insertEvent(tx: Db, values: typeof webhookEvent.$inferInsert) {
  const [row] = await tx.insert(webhookEvent).values(values).returning({ id: webhookEvent.id });
  return row!.id;
}

export function insertDeliveries(tx: Db, rows: (typeof webhookDelivery.$inferInsert)[]) {
  return tx.insert(webhookDelivery).values(rows).returning({ id: webhookDelivery.id });
}

export async function setDeliveryJob(tx: Db, id: string, jobId: string | null) {
  await tx.update(webhookDelivery).set({ job_id: jobId }).where(eq(webhookDelivery.id, id));
}

const deliveriesOf = (account: string, endpoint: string) => and(eq(webhookDelivery.account_id, account), eq(webhookDelivery.endpoint_id, endpoint));

export async function countDeliveries(tx: Db, account: string, endpoint: string) {
  const [row] = await tx.select({ n: count() }).from(webhookDelivery).where(deliveriesOf(account, endpoint));
  return row!.n;
}

/** An endpoint's deliveries, newest first (webhook_delivery_endpoint_idx). */
export function pageDeliveries(tx: Db, account: string, endpoint: string, limit: number, offset: number) {
  return tx
    .select({ d: webhookDelivery, type: webhookEvent.type })
    .from(webhookDelivery)
    .innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.event_id))
    .where(deliveriesOf(account, endpoint))
    .orderBy(desc(webhookDelivery.created_at), desc(webhookDelivery.seq))
    .limit(limit)
    .offset(offset);
}

export async function deliveryById(tx: Db, account: string, endpoint: string, id: string) {
  const [row] = await tx
    .select({ d: webhookDelivery, type: webhookEvent.type })
    .from(webhookDelivery)
    .innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.event_id))
    .where(and(deliveriesOf(account, endpoint), eq(webhookDelivery.id, id)));
  return row ?? null;
}

// --- the worker (as the server) -------------------------------------------------------------------

/** A delivery with what sending it needs, and whether an earlier delivery of its order to its endpoint is still pending. */
export async function deliveryToSend(db: Db, account: string, id: string) {
  const [row] = await db
    .select({
      d: webhookDelivery,
      url: webhookEndpoint.url,
      enabled: webhookEndpoint.enabled,
      secret_sealed: webhookEndpoint.secret_sealed,
      payload: webhookEvent.payload,
      blocked: sql<boolean>`exists (
        select 1 from ${webhookDelivery} e
        where e.account_id = ${webhookDelivery.account_id} and e.endpoint_id = ${webhookDelivery.endpoint_id}
          and e.order_key = ${webhookDelivery.order_key} and e.status = 'pending' and e.seq < ${webhookDelivery.seq})`,
    })
    .from(webhookDelivery)
    .innerJoin(webhookEndpoint, eq(webhookEndpoint.id, webhookDelivery.endpoint_id))
    .innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.event_id))
    .where(and(eq(webhookDelivery.account_id, account), eq(webhookDelivery.id, id)));
  return row ?? null;
}

export async function recordAttempt(
  tx: Db,
  id: string,
  values: { status: 'pending' | 'succeeded' | 'failed'; attempts: number; http_status: number | null; response: string | null; duration_ms: number | null; last_attempt_at: Date | null; job_id?: string | null },
) {
  await tx.update(webhookDelivery).set(values).where(eq(webhookDelivery.id, id));
}

/** The job of the next pending delivery of the same order to the same endpoint, if any. */
export async function nextInLine(tx: Db, d: DeliveryRow) {
  if (!d.order_key) return null;
  const [row] = await tx
    .select({ job_id: webhookDelivery.job_id })
    .from(webhookDelivery)
    .where(and(eq(webhookDelivery.account_id, d.account_id), eq(webhookDelivery.endpoint_id, d.endpoint_id), eq(webhookDelivery.order_key, d.order_key), eq(webhookDelivery.status, 'pending'), gt(webhookDelivery.seq, d.seq)))
    .orderBy(asc(webhookDelivery.seq))
    .limit(1);
  return row?.job_id ?? null;
}

/** Moves a waiting job's start to now (the delivery it waited for is done). */
export async function startJobNow(tx: Db, jobId: string) {
  await tx.execute(sql`update ${sql.raw(`${JOB_SCHEMA}.job`)} set start_after = now() where id = ${jobId}::uuid and state in ('created', 'retry')`);
}

/**
 * Deliveries written by a change whose caller had no job queue at hand (ctx without `jobs`): each
 * is given a job id here, claimed in the same statement, so two sweeps never both send one.
 */
export async function claimOrphans(tx: Db) {
  const rows = (await execute<{ id: string; account_id: string; job_id: string }>(tx, sql`
    update ${webhookDelivery} set job_id = gen_random_uuid()
    where id in (
      select id from ${webhookDelivery}
      where status = 'pending' and job_id is null and created_at < now() - interval '5 seconds'
      order by seq limit 500 for update skip locked)
    returning id, account_id, job_id`));
  return rows.rows;
}

/** A transaction of the server's (every organisation): the sweep claims and sends in one. */
export const asServer = <T>(db: Db, fn: (tx: Db) => Promise<T>) => transaction(db, fn);

/** Deliveries done (succeeded or failed) more than `days` ago, then the events left without a delivery; answers how many deliveries went. */
export async function purgeDone(db: Db, days: number) {
  const gone = (await execute(db, sql`
    delete from ${webhookDelivery} where status <> 'pending' and created_at < now() - make_interval(days => ${days}::int) returning id`));
  await db.execute(sql`
    delete from ${webhookEvent} e where e.created_at < now() - make_interval(days => ${days}::int)
      and not exists (select 1 from ${webhookDelivery} d where d.event_id = e.id)`);
  return gone.rows.length;
}
