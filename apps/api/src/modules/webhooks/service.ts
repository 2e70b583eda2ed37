import { randomBytes } from 'node:crypto';
import type { TWebhookDelivery, TWebhookEndpoint, TWebhookEndpointInput, TWebhookEndpointPatch, WebhookEventType } from '@tourdesk/contracts';
import type { Db } from '../../db/client';
import type { TenantCtx } from '../../lib/crud';
import { notFound } from '../../lib/errors';
import { QUEUES, type Jobs } from '../../lib/jobs';
import { inTenant } from '../../lib/tenancy';
import { checkEndpointUrl } from './address';
import { deliveryJob, type DeliveryJob } from './events';
import * as q from './queries';
import { sendSigned } from './send';

/**
 * Endpoints (an Owner's), their deliveries, and the delivery job. Retries: a failed attempt is
 * tried again after `retryDelay · 2^(n−1)` seconds (n the attempts so far, plus up to a tenth at
 * random), `retryLimit` times — with the defaults (20 s, 12) about 23 hours in all; then the
 * delivery is `failed` (an Owner resends it from the endpoint's page).
 */
export interface WebhookSettings {
  allowPrivate: boolean;
  retryLimit: number;
  retryDelaySeconds: number;
}

type Sealer = Pick<Jobs, 'seal' | 'open'>;
type Input = Required<Omit<TWebhookEndpointInput, 'description' | 'enabled'>> & { description: string; enabled: boolean };
type Patch = { [K in keyof TWebhookEndpointPatch]?: Exclude<TWebhookEndpointPatch[K], undefined> };

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const hintOf = (secret: string) => `${secret.slice(0, 10)}…`;

const presentEndpoint = (e: q.EndpointRow): TWebhookEndpoint => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: e.event_types as WebhookEventType[],
  enabled: e.enabled,
  secret_hint: e.secret_hint,
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

const presentDelivery = ({ d, type }: { d: q.DeliveryRow; type: string }): TWebhookDelivery => ({
  id: d.id,
  message_id: d.event_id,
  event_type: type as WebhookEventType,
  status: d.status as TWebhookDelivery['status'],
  attempts: d.attempts,
  http_status: d.http_status,
  response: d.response,
  duration_ms: d.duration_ms,
  created_at: d.created_at.toISOString(),
  last_attempt_at: d.last_attempt_at?.toISOString() ?? null,
});

async function endpoint404(ctx: TenantCtx, id: string) {
  const row = await q.endpointById(ctx.tx, ctx.accountId, id);
  if (!row) throw notFound('No webhook endpoint with this id.');
  return row;
}

export const countEndpoints = (ctx: TenantCtx) => q.countEndpoints(ctx.tx, ctx.accountId);
export const pageEndpoints = async (ctx: TenantCtx, limit: number, offset: number) => (await q.pageEndpoints(ctx.tx, ctx.accountId, limit, offset)).map(presentEndpoint);
export const getEndpoint = async (ctx: TenantCtx, id: string) => presentEndpoint(await endpoint404(ctx, id));

/** A new endpoint; its secret is answered this once. */
export async function createEndpoint(ctx: TenantCtx, sealer: Sealer, settings: WebhookSettings, input: Input) {
  checkEndpointUrl(input.url, settings.allowPrivate);
  const secret = newSecret();
  const row = await q.insertEndpoint(ctx.tx, {
    account_id: ctx.accountId,
    url: input.url,
    description: input.description,
    event_types: input.event_types,
    enabled: input.enabled,
    secret_sealed: sealer.seal(secret),
    secret_hint: hintOf(secret),
  });
  return { ...presentEndpoint(row), secret };
}

export async function updateEndpoint(ctx: TenantCtx, settings: WebhookSettings, id: string, patch: Patch) {
  await endpoint404(ctx, id);
  if (patch.url !== undefined) checkEndpointUrl(patch.url, settings.allowPrivate);
  return presentEndpoint((await q.updateEndpoint(ctx.tx, ctx.accountId, id, patch))!);
}

/** A new secret, answered this once; the old one signs nothing from now on. */
export async function rotateSecret(ctx: TenantCtx, sealer: Sealer, id: string) {
  await endpoint404(ctx, id);
  const secret = newSecret();
  const row = await q.updateEndpoint(ctx.tx, ctx.accountId, id, { secret_sealed: sealer.seal(secret), secret_hint: hintOf(secret) });
  return { ...presentEndpoint(row!), secret };
}

export async function deleteEndpoint(ctx: TenantCtx, id: string) {
  if (!(await q.deleteEndpoint(ctx.tx, ctx.accountId, id))) throw notFound('No webhook endpoint with this id.');
}

export async function countDeliveries(ctx: TenantCtx, endpoint: string) {
  await endpoint404(ctx, endpoint);
  return q.countDeliveries(ctx.tx, ctx.accountId, endpoint);
}
export const pageDeliveries = async (ctx: TenantCtx, endpoint: string, limit: number, offset: number) => (await q.pageDeliveries(ctx.tx, ctx.accountId, endpoint, limit, offset)).map(presentDelivery);

/**
 * Sends a delivery's message again (same message id, so a receiver that keeps ids sees a repeat):
 * a new delivery, after the pending ones of its order.
 */
export async function resendDelivery(ctx: TenantCtx, jobs: Jobs, endpoint: string, id: string) {
  const found = await q.deliveryById(ctx.tx, ctx.accountId, endpoint, id);
  if (!found) throw notFound('No delivery with this id for this endpoint.');
  const [row] = await q.insertDeliveries(ctx.tx, [{ account_id: ctx.accountId, endpoint_id: endpoint, event_id: found.d.event_id, order_key: found.d.order_key }]);
  await q.setDeliveryJob(ctx.tx, row!.id, await jobs.sendIn(ctx.tx, QUEUES.webhook, deliveryJob(ctx.accountId, row!.id)));
  return presentDelivery((await q.deliveryById(ctx.tx, ctx.accountId, endpoint, row!.id))!);
}

// --- the worker -----------------------------------------------------------------------------------

/** Seconds before attempt n + 1 after n failed ones. */
export const backoffSeconds = (n: number, baseSeconds: number) => Math.round(baseSeconds * 2 ** (n - 1) * (1 + Math.random() / 10));
/** A moment as pg-boss's startAfter (a Date: a number of seconds does not pass through a drizzle transaction's parameters). */
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);
/**
 * While an earlier delivery of the same order is pending: looked at again after this, or at once
 * when that one is done (it wakes the next); the wait only covers a wake lost to a crash.
 */
const WAIT_SECONDS = 600;

/**
 * One attempt at a delivery (the job's data names it). Skipped when the delivery is done or this
 * job is not its current one (a job replaced by a later one); put back while an earlier delivery
 * of its order to its endpoint is pending (so an order's events arrive in order). After the attempt,
 * in one transaction: its outcome, and either the next attempt's job (with backoff) or, once the
 * delivery is done, the next delivery of its order woken.
 */
export async function deliver(db: Db, jobs: Jobs, settings: WebhookSettings, job: DeliveryJob, jobId: string) {
  const found = await q.deliveryToSend(db, job.account, job.delivery);
  if (!found || found.d.status !== 'pending' || (found.d.job_id !== null && found.d.job_id !== jobId)) return { skipped: true };
  const { d } = found;
  if (found.blocked) {
    const later = await inTenantOf(db, d, async (tx) => {
      const id = await jobs.sendIn(tx, QUEUES.webhook, deliveryJob(d.account_id, d.id), { startAfter: inSeconds(WAIT_SECONDS) });
      await q.setDeliveryJob(tx, d.id, id);
      return id;
    });
    // The earlier one finished meanwhile (and woke the job this one replaced): go on now.
    if (later && !(await q.deliveryToSend(db, d.account_id, d.id))?.blocked) {
      await q.startJobNow(db, later);
      jobs.wake(QUEUES.webhook);
    }
    return { waiting: true };
  }
  const secret = openSecret(jobs, found.secret_sealed);
  const attempt = !found.enabled
    ? { ok: false, http_status: null, response: 'The endpoint is disabled.', duration_ms: 0 }
    : secret === null
      ? { ok: false, http_status: null, response: 'The endpoint has no signing secret that opens: rotate its secret.', duration_ms: 0 }
      : await sendSigned(found.url, secret, { id: d.event_id, body: JSON.stringify(found.payload) }, { allowPrivate: settings.allowPrivate });
  const attempts = d.attempts + 1;
  const final = attempt.ok || !found.enabled || secret === null || attempts > settings.retryLimit;
  const outcome = { attempts, http_status: attempt.http_status, response: attempt.response, duration_ms: attempt.duration_ms, last_attempt_at: new Date() };
  await inTenantOf(db, d, async (tx) => {
    if (final) {
      await q.recordAttempt(tx, d.id, { ...outcome, status: attempt.ok ? 'succeeded' : 'failed' });
      const next = await q.nextInLine(tx, d);
      return next ? [next] : [];
    }
    const again = await jobs.sendIn(tx, QUEUES.webhook, deliveryJob(d.account_id, d.id), { startAfter: inSeconds(backoffSeconds(attempts, settings.retryDelaySeconds)) });
    await q.recordAttempt(tx, d.id, { ...outcome, status: 'pending', job_id: again });
    return [];
  }).then(async (wake) => {
    // Waking a job is the server's (tenant work only adds jobs).
    for (const next of wake) await q.startJobNow(db, next);
  });
  if (final) jobs.wake(QUEUES.webhook);
  return { ok: attempt.ok, status: attempt.http_status, attempts };
}

/**
 * The endpoint's secret, or null when it has none that opens: the demo's endpoint is seeded
 * without one (the seed has no key to seal with), and a secret sealed with a key since dropped
 * from JWT_SECRET no longer opens. Rotating the secret gives it one.
 */
function openSecret(jobs: Sealer, sealed: string) {
  if (!sealed) return null;
  try {
    return jobs.open(sealed);
  } catch {
    return null;
  }
}

const inTenantOf = <T>(db: Db, d: q.DeliveryRow, fn: (tx: Db) => Promise<T>) => inTenant(db, d.account_id, fn);

/** Sends the deliveries written without a job (emitEvent without the queue), once each. */
export async function sweepOrphans(db: Db, jobs: Jobs) {
  const claimed = await q.asServer(db, async (tx) => {
    const rows = await q.claimOrphans(tx);
    for (const r of rows) await jobs.sendIn(tx, QUEUES.webhook, deliveryJob(r.account_id, r.id), { id: r.job_id });
    return rows.length;
  });
  if (claimed) jobs.wake(QUEUES.webhook);
  return claimed;
}

/** How long a finished delivery stays listed on its endpoint's page. */
export const KEEP_DAYS = 30;
export const purgeOldDeliveries = (db: Db) => q.purgeDone(db, KEEP_DAYS);
