import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { order } from './availability-schema';
import { accountId, tenantPolicy } from './columns';
import { users } from './schema';

/** Payments, invoices, the audit trail and idempotency keys. */

/** A payment (positive) or a refund (negative) recorded against an order; never edited. */
export const orderPayment = pgTable(
  'order_payment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    order_id: uuid('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'restrict' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    method: text('method').notNull(),
    reference: text('reference').notNull().default(''),
    recorded_by: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    tenantPolicy(),
    index('order_payment_order_idx').on(t.account_id, t.order_id, t.created_at),
    check('order_payment_amount_check', sql`${t.amount} <> 0`),
    check('order_payment_method_check', sql`${t.method} in ('cash', 'card terminal', 'bank transfer', 'other')`),
  ],
);

/** An order's invoice: a number from the organisation's gapless sequence and what it showed. */
export const invoice = pgTable(
  'invoice',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    order_id: uuid('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'restrict' }),
    number: integer('number').notNull(),
    issued_at: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    /** What the invoice showed when it was issued (the Invoice schema), never changed afterwards. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [tenantPolicy(), uniqueIndex('invoice_number_key').on(t.account_id, t.number), uniqueIndex('invoice_order_key').on(t.account_id, t.order_id)],
);

/** Who changed what in an order, a line, a payment or an invoice, and when. */
export const auditEvent = pgTable(
  'audit_event',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    order_id: uuid('order_id').references(() => order.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    subject_id: uuid('subject_id').notNull(),
    action: text('action').notNull(),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    actor_id: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [tenantPolicy(), index('audit_event_order_idx').on(t.account_id, t.order_id, t.created_at)],
);

/**
 * A request made with an Idempotency-Key: the first one's response is kept and returned to every
 * retry with the same key (and the same body; another body is a 422) for 24 hours.
 */
export const idempotencyKey = pgTable(
  'idempotency_key',
  {
    account_id: accountId(),
    user_id: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    request_hash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [tenantPolicy(), uniqueIndex('idempotency_key_key').on(t.account_id, t.user_id, t.scope, t.key), index('idempotency_key_created_idx').on(t.created_at)],
);
