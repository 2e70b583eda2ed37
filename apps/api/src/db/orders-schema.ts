import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { accountId, users } from './accounts-schema';
import { order } from './availability-schema';
import { tenantPolicies } from './columns';

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
    /** A refund (negative amount): the payment it gives money back from, and why. */
    refund_of: uuid('refund_of').references((): AnyPgColumn => orderPayment.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull().default(''),
    /** An online payment's or refund's id at the provider (Stripe's payment intent or refund id): recorded once. */
    provider_ref: text('provider_ref'),
    /**
     * Where the money stands at the provider: `succeeded` (every payment, and a refund given back),
     * `pending` (a refund the provider has not finished: counted as refunded, as the provider counts
     * it), `failed` (a refund the provider could not make: its amount is back in the order's paid,
     * and it counts nowhere). Only an online refund is ever pending or failed.
     */
    status: text('status').notNull().default('succeeded'),
    recorded_by: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantPolicies(),
    index('order_payment_order_idx').on(t.account_id, t.order_id, t.created_at),
    /** The accounting export's payments of a period. */
    index('order_payment_created_idx').on(t.account_id, t.created_at),
    check('order_payment_amount_check', sql`${t.amount} <> 0`),
    index('order_payment_refund_idx').on(t.refund_of),
    check('order_payment_method_check', sql`${t.method} in ('cash', 'card terminal', 'bank transfer', 'other', 'online', 'voucher')`),
    check('order_payment_status_check', sql`${t.status} = 'succeeded' or (${t.status} in ('pending', 'failed') and ${t.amount} < 0 and ${t.method} = 'online')`),
    uniqueIndex('order_payment_provider_ref_key').on(t.provider_ref),
  ],
);

/**
 * An invoice or a credit note of an order. Its number comes from the organisation's gapless
 * sequence for its series (INV for invoices, CN for credit notes) and year (the organisation's local
 * year on the day it was issued); what it showed is stored in `data` and never changed. A credit
 * note cancels an earlier invoice of the same order (`credits_invoice_id`), negated line by line;
 * an order's current invoice is its newest invoice that no credit note cancels.
 */
export const invoice = pgTable(
  'invoice',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    order_id: uuid('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull().default('invoice'),
    series: text('series').notNull().default('INV'),
    year: integer('year').notNull(),
    number: integer('number').notNull(),
    /** The invoice this credit note cancels (credit notes only). */
    credits_invoice_id: uuid('credits_invoice_id').references((): AnyPgColumn => invoice.id, { onDelete: 'restrict' }),
    issued_at: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    /** The organisation's local date when it was issued: the invoice date. */
    issued_on: date('issued_on').notNull(),
    /**
     * The customer's language the document was issued in (the order's, LANGUAGES of the contracts):
     * its PDF is drawn in it on every download, so a later change of the order's language changes no
     * issued document.
     */
    language: text('language').notNull().default('en'),
    /** What the invoice showed when it was issued (the Invoice schema), never changed afterwards. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('invoice_number_key').on(t.account_id, t.series, t.year, t.number),
    index('invoice_order_idx').on(t.account_id, t.order_id, t.issued_at),
    /** The accounting export's documents of a period, in their order (issued_on, series, year, number). */
    index('invoice_issued_idx').on(t.account_id, t.issued_on, t.series, t.year, t.number),
    uniqueIndex('invoice_credited_key').on(t.credits_invoice_id),
    check('invoice_language_check', sql`${t.language} in ('en', 'de', 'fr', 'it', 'es')`),
    check('invoice_kind_check', sql`(${t.kind} = 'invoice' and ${t.series} = 'INV' and ${t.credits_invoice_id} is null) or (${t.kind} = 'credit_note' and ${t.series} = 'CN' and ${t.credits_invoice_id} is not null)`),
  ],
);

/**
 * The next number of each of an organisation's invoice series per year. Taken by an UPDATE (or the
 * first INSERT) of its row in the issuing transaction: the row lock serialises issuers and a rollback
 * gives the number back, so numbers have no gaps.
 */
export const invoiceSequence = pgTable(
  'invoice_sequence',
  {
    account_id: accountId(),
    series: text('series').notNull(),
    year: integer('year').notNull(),
    next_number: integer('next_number').notNull(),
  },
  (t) => [...tenantPolicies(), primaryKey({ name: 'invoice_sequence_pkey', columns: [t.account_id, t.series, t.year] })],
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
  (t) => [...tenantPolicies(), index('audit_event_order_idx').on(t.account_id, t.order_id, t.created_at)],
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
  (t) => [...tenantPolicies(), uniqueIndex('idempotency_key_key').on(t.account_id, t.user_id, t.scope, t.key), index('idempotency_key_created_idx').on(t.created_at)],
);
