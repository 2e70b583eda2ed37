import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@tourdesk/contracts';
import type { TenantCtx } from '../../lib/crud';
import { QUEUES } from '../../lib/jobs';
import * as q from './queries';

/**
 * The one way a module tells the organisation's webhook endpoints that something happened, in the
 * transaction of the change: nothing is written when no enabled endpoint subscribes to `type`
 * (one indexed query); otherwise the message `{ type, timestamp, data }` is fixed now (`data()`,
 * the API's own shape of the order or booking as the change left it) and one delivery per endpoint
 * is written with its job. A rolled-back change leaves neither; a committed one is delivered at
 * least once. `orderId` orders the deliveries: an order's events reach an endpoint in the order
 * they happened (service.ts, deliver()).
 *
 * This module imports no other module: the caller builds `data` (orders/webhook-events.ts).
 */
export async function emitEvent(ctx: TenantCtx, type: WebhookEventType, orderId: string | null, data: () => Promise<unknown>) {
  const endpoints = await q.subscribedEndpoints(ctx.tx, ctx.accountId, type);
  if (endpoints.length === 0) return;
  const payload = { type, timestamp: new Date().toISOString(), data: await data() };
  const eventId = await q.insertEvent(ctx.tx, { id: randomUUID(), account_id: ctx.accountId, type, payload });
  const rows = await q.insertDeliveries(
    ctx.tx,
    endpoints.map((e) => ({ account_id: ctx.accountId, endpoint_id: e.id, event_id: eventId, order_key: orderId })),
  );
  // Without the queue at hand (a job's or a partner's transaction) the sweep sends them within a minute.
  if (!ctx.jobs) return;
  for (const { id } of rows) await q.setDeliveryJob(ctx.tx, id, await ctx.jobs.sendIn(ctx.tx, QUEUES.webhook, deliveryJob(ctx.accountId, id)));
}

/**
 * Which of these event types some enabled endpoint of the organisation subscribes to (one query): a
 * change that must be quick later (a sale, under its slots' locks: orders/records.ts) asks first and
 * calls emitEvent() only for those.
 */
export async function typesListenedTo(ctx: TenantCtx, types: WebhookEventType[]): Promise<Set<string>> {
  return q.typesSubscribed(ctx.tx, ctx.accountId, types);
}

/** A delivery job's data: the organisation (the failed-jobs index reads `account`) and the delivery. */
export const deliveryJob = (account: string, delivery: string) => ({ account, delivery, subject: 'webhook' });
export type DeliveryJob = ReturnType<typeof deliveryJob>;
