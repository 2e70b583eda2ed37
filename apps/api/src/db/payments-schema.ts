import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { cart, order } from './availability-schema';
import { accountId } from './accounts-schema';
import { tenantPolicies, timestamps } from './columns';
import { store } from './stores-schema';
import { partnership } from './partners-schema';

/**
 * Money in online: the organisation's connected payment account (Stripe Connect), the web store's
 * online checkouts (a Stripe Checkout Session per payment attempt), and the events Stripe sent,
 * each processed once.
 */

/** The organisation's Stripe account and its state as Stripe last told it. */
export const paymentAccount = pgTable(
  'payment_account',
  {
    account_id: accountId().primaryKey(),
    provider: text('provider').notNull().default('stripe'),
    external_id: text('external_id').notNull(),
    details_submitted: boolean('details_submitted').notNull().default(false),
    charges_enabled: boolean('charges_enabled').notNull().default(false),
    payouts_enabled: boolean('payouts_enabled').notNull().default(false),
    /** What Stripe still needs before it pays out (its requirements.currently_due). */
    requirements: text('requirements').array().notNull().default(sql`'{}'::text[]`),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('payment_account_external_key').on(t.external_id)],
);

/**
 * One attempt to pay online for a web store's guest cart: the lines and the customer's details it
 * will book once Stripe says it is paid (by a webhook, or by retrieving the session), its Checkout
 * Session, and what came of it.
 */
export const onlineCheckout = pgTable(
  'online_checkout',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    /** The store the cart was paid in; null for a payment link's balance (an order of any seller). */
    store_id: uuid('store_id').references(() => store.id, { onDelete: 'restrict' }),
    cart_id: uuid('cart_id').references(() => cart.id, { onDelete: 'set null' }),
    /** A reseller's store selling this organisation's offers: the contract the paid order is resold under. */
    partnership_id: uuid('partnership_id').references((): AnyPgColumn => partnership.id, { onDelete: 'set null' }),
    lines: uuid('lines').array().notNull(),
    /** What each line held, to hold it again if its hold ran out before the payment arrived. */
    held: jsonb('held').$type<{ line: string; slot: string; quantities: Record<string, number>; extras: Record<string, number> }[]>().notNull().default([]),
    customer: jsonb('customer').$type<Record<string, unknown>>().notNull(),
    answers: jsonb('answers').$type<Record<string, string>>().notNull().default({}),
    /** Charged online: the order's total, or its deposit (onlineAmount()). */
    amount: integer('amount').notNull(),
    /** The order's total it books (issue 32: a promo code's discount taken, a deposit may make `amount` less); null: `amount`. */
    order_total: integer('order_total'),
    /** The promo code the order is written with. */
    promo_code: text('promo_code'),
    /** A gift voucher the order spends when it is written (its code as typed, and what it pays): the card pays the rest, or its deposit. */
    voucher_code: text('voucher_code'),
    voucher_amount: integer('voucher_amount'),
    /** The order's balance due date when only a deposit is charged (null: on site or nothing left). */
    balance_due_on: date('balance_due_on'),
    currency: text('currency').notNull(),
    application_fee: integer('application_fee').notNull().default(0),
    connected_account: text('connected_account').notNull(),
    session_id: text('session_id'),
    payment_intent: text('payment_intent'),
    /** open → paid (the order made), or expired, failed, refunded (paid too late: the seats were gone). */
    status: text('status').notNull().default('open'),
    order_id: uuid('order_id').references(() => order.id, { onDelete: 'set null' }),
    /** Paying an existing order's balance through a payment link (no cart, no lines): the payment is recorded on order_id. */
    payment_link_id: uuid('payment_link_id').references((): AnyPgColumn => paymentLink.id, { onDelete: 'restrict' }),
    /**
     * A gift voucher bought in the web store (modules/gift-vouchers): what to issue once paid (no
     * cart, no lines, no order); the voucher names this row (gift_voucher.checkout_id).
     */
    voucher: jsonb('voucher').$type<Record<string, unknown>>(),
    manage_token_hash: text('manage_token_hash').notNull(),
    /** The secret itself, until the confirmation e-mail that carries it is queued (then cleared). */
    manage_token: text('manage_token'),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('online_checkout_session_key').on(t.session_id),
    index('online_checkout_store_idx').on(t.account_id, t.store_id, t.created_at),
    index('online_checkout_order_idx').on(t.account_id, t.order_id),
    check('online_checkout_status_check', sql`${t.status} in ('open', 'paid', 'expired', 'failed', 'refunded')`),
  ],
);

/**
 * A payment link staff e-mailed for an order's balance: its address carries a secret (only its hash
 * is kept); opening it makes a Checkout session for the balance at that moment (online_checkout).
 */
export const paymentLink = pgTable(
  'payment_link',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    order_id: uuid('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    /** Where it was sent, and the balance then (what is paid is the balance when the customer opens it). */
    email: text('email').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    sent_by: uuid('sent_by'),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('payment_link_token_key').on(t.token_hash), index('payment_link_order_idx').on(t.account_id, t.order_id)],
);

/** Every Stripe event received (its id is Stripe's): processed once, through the job queue. */
export const stripeEvent = pgTable('stripe_event', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** The connected account it is about, for Connect events. */
  stripe_account: text('stripe_account'),
  payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
  received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processed_at: timestamp('processed_at', { withTimezone: true }),
});
