import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accountId } from './accounts-schema';
import { tenantPolicies, timestamps } from './columns';

/**
 * Outgoing webhooks (modules/webhooks): an Owner's endpoints, the events that happened (one row per
 * event, its payload fixed in the transaction of the change) and each event's delivery to each
 * endpoint subscribed to it (status, attempts, the endpoint's last answer).
 */
export const webhookEndpoint = pgTable(
  'webhook_endpoint',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    event_types: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** The signing secret (whsec_…), sealed (lib/sealed.ts): the table and its backups never hold it. */
    secret_sealed: text('secret_sealed').notNull(),
    /** Its first characters, shown to tell secrets apart. */
    secret_hint: text('secret_hint').notNull(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), index('webhook_endpoint_account_created_idx').on(t.account_id, t.created_at, t.id)],
);

export const webhookEvent = pgTable(
  'webhook_event',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    type: text('type').notNull(),
    /** The message as sent: { type, timestamp, data }. */
    payload: jsonb('payload').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [...tenantPolicies(), index('webhook_event_account_idx').on(t.account_id, t.created_at)],
);

export const webhookDelivery = pgTable(
  'webhook_delivery',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    endpoint_id: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoint.id, { onDelete: 'cascade' }),
    event_id: uuid('event_id')
      .notNull()
      .references(() => webhookEvent.id, { onDelete: 'cascade' }),
    /** The order the event is about: deliveries of one order to one endpoint go out in `seq` order. */
    order_key: uuid('order_key'),
    /** Written order across the deployment (an identity): a later event has a higher number. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    http_status: integer('http_status'),
    response: text('response'),
    duration_ms: integer('duration_ms'),
    last_attempt_at: timestamp('last_attempt_at', { withTimezone: true }),
    /** The pg-boss job that delivers it now (woken when the delivery before it is done). */
    job_id: uuid('job_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantPolicies(),
    index('webhook_delivery_endpoint_idx').on(t.account_id, t.endpoint_id, t.created_at.desc(), t.seq.desc()),
    index('webhook_delivery_pending_idx').on(t.account_id, t.endpoint_id, t.order_key, t.seq).where(sql`status = 'pending'`),
    check('webhook_delivery_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);
