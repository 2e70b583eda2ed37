import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, date, foreignKey, index, integer, jsonb, pgPolicy, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId, baseAccount, users } from './accounts-schema';
import { experience } from './catalog-schema';
import { tenantPolicies, timestamps } from './columns';
import { partnership, settlement } from './partners-schema';
import { promoCode } from './promo-codes-schema';
import { qrCode } from './qr-codes-schema';
import { store } from './stores-schema';

/** Schedules, slots, carts with their holds, customers, orders and bookings. */

/** An item of a held line: a pricing category or an extra, its quantity and unit price then. */
export interface HeldItem {
  kind: 'category' | 'extra';
  id: string;
  label: string;
  quantity: number;
  unit_price: number;
}
/** An item as sold: with its gross total and the VAT in it (rate in basis points), fixed at sale. */
export interface SoldItem extends HeldItem {
  /**
   * What the line is, as every invoice of it says for ever: the offer's title and its departure's
   * local date and time on the day it was sold (lineDescription() in orders/sale.ts). Lines sold
   * before it was kept have none, and are described from the offer as it is.
   */
  sold_as?: string;
  /** The item's label in the customer's language on the day it was sold (what invoices say); absent: `label`. */
  sold_label?: string;
  total: number;
  tax_rate_bp: number;
  net: number;
  tax: number;
}

export const scheduleRule = pgTable(
  'schedule_rule',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('start_times'),
    valid_from: date('valid_from').notNull(),
    valid_to: date('valid_to'),
    weekdays: integer('weekdays').array().notNull().default(sql`'{}'::integer[]`),
    start_times: text('start_times').array().notNull(),
    closing_time: text('closing_time'),
    capacity: integer('capacity').notNull(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), index('schedule_rule_experience_idx').on(t.account_id, t.experience_id)],
);

export const closedDate = pgTable(
  'closed_date',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    reason: text('reason').notNull().default(''),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('closed_date_key').on(t.account_id, t.experience_id, t.date)],
);

/** The itinerary: what happens when, from the start. */
export const agendaItem = pgTable(
  'agenda_item',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    minutes_from_start: integer('minutes_from_start').notNull().default(0),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), index('agenda_item_experience_idx').on(t.account_id, t.experience_id, t.minutes_from_start)],
);

/**
 * One occurrence of an experience: one capacity pool shared by all pricing categories.
 * `booked` counts seats of confirmed bookings and changes only under this row's lock.
 * `held` counts the seats of every cart line of the slot, kept by a trigger on cart_line
 * (migration 0006), so a hold checks `capacity - booked - held` (capacity, or what its guides
 * can take if less: tourdesk_seats_left, 02-slots.sql) on this one row, like a
 * single-row conditional decrement. It includes expired lines until they are swept; a hold
 * that does not fit sweeps the slot's expired lines and tries once more, and every seat count
 * shown subtracts expired lines, so an expired hold stops counting at once.
 */
export const slot = pgTable(
  'slot',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    rule_id: uuid('rule_id').references(() => scheduleRule.id, { onDelete: 'set null' }),
    starts_at: timestamp('starts_at', { withTimezone: true }).notNull(),
    ends_at: timestamp('ends_at', { withTimezone: true }).notNull(),
    local_date: date('local_date').notNull(),
    local_time: text('local_time').notNull(),
    capacity: integer('capacity').notNull(),
    booked: integer('booked').notNull().default(0),
    held: integer('held').notNull().default(0),
    closed: boolean('closed').notNull().default(false),
    /**
     * The seats its assigned guides can take (issue 34): their number × the offer's
     * `guests_per_guide`; null when the offer needs no guides. Kept by triggers (07-guides.sql):
     * never written by the API. Seats remaining (tourdesk_seats_left) stop at it.
     */
    guide_seats: integer('guide_seats'),
    /** Set by hand on this slot (PATCH /api/start-times/:id/): regenerating its schedule keeps them. */
    capacity_by_hand: boolean('capacity_by_hand').notNull().default(false),
    closed_by_hand: boolean('closed_by_hand').notNull().default(false),
    /** The slot's fixed part as JSON text, written by a trigger (migration 0017); never set by the API. */
    api_head: text('api_head').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('slot_experience_start_key').on(t.account_id, t.experience_id, t.starts_at),
    index('slot_account_day_idx').on(t.account_id, t.local_date),
    index('slot_experience_day_idx').on(t.account_id, t.experience_id, t.local_date),
    check('slot_capacity_check', sql`${t.capacity} >= 0 and ${t.booked} >= 0 and ${t.held} >= 0`),
    // The database itself never holds and books more seats than the slot has, whoever writes.
    check('slot_seats_check', sql`${t.booked} + ${t.held} <= ${t.capacity} and (${t.guide_seats} is null or ${t.booked} + ${t.held} <= ${t.guide_seats})`),
  ],
);

export const cart = pgTable(
  'cart',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A web store's guest cart: its store, and the hash of the secret its page holds (never a cookie). */
    store_id: uuid('store_id'),
    token_hash: text('token_hash'),
    /** The QR code whose scan brought this shopper (kept on the order it becomes). */
    qr_code_id: uuid('qr_code_id').references((): AnyPgColumn => qrCode.id, { onDelete: 'set null' }),
    /** A guest cart's client: a hash of its address (never the address), for the seats one address may hold at once. */
    client_hash: text('client_hash'),
    /** The customer's language (LANGUAGES of the contracts), chosen in the store; kept on the order it becomes. */
    language: text('language').notNull().default('en'),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('cart_user_key').on(t.account_id, t.user_id),
    index('cart_client_idx').on(t.account_id, t.client_hash).where(sql`${t.client_hash} is not null`),
    uniqueIndex('cart_account_key').on(t.account_id, t.id),
    index('cart_store_created_idx').on(t.account_id, t.store_id, t.created_at).where(sql`${t.store_id} is not null`),
    check('cart_owner_check', sql`(${t.user_id} is null) <> (${t.token_hash} is null)`),
  ],
);

/**
 * A line holds its seats until `expires_at`; an expired line stops counting at once. Every
 * reference has its foreign key (its cart, its slot, its organisation; a deleted slot takes its
 * lines with it). A key's check takes a KEY SHARE lock on the slot's row, which does not conflict
 * with the NO KEY UPDATE a hold takes to write `held`; migration 0016 had removed them when holds
 * were one statement each and those share locks piled up as multixacts on the hot row (see
 * ARCHITECTURE.md for the measurement since).
 */
export const cartLine = pgTable(
  'cart_line',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: uuid('account_id').notNull(),
    cart_id: uuid('cart_id').notNull(),
    slot_id: uuid('slot_id').notNull(),
    quantities: jsonb('quantities').$type<Record<string, number>>().notNull(),
    extras: jsonb('extras').$type<Record<string, number>>().notNull().default({}),
    seats: integer('seats').notNull(),
    total: integer('total').notNull(),
    currency: text('currency').notNull(),
    /** What the line sells, item by item, at the prices of the day it was held (tourdesk_price). */
    items: jsonb('items').$type<HeldItem[]>().notNull().default([]),
    /** What it takes from resource pools, {pool id: units} (null: none), set by the database (08-pools.sql). */
    pools: jsonb('pools').$type<Record<string, number>>(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantPolicies(),
    foreignKey({ name: 'cart_line_cart_fk', columns: [t.account_id, t.cart_id], foreignColumns: [cart.account_id, cart.id] }).onDelete('cascade'),
    foreignKey({ name: 'cart_line_slot_fk', columns: [t.slot_id], foreignColumns: [slot.id] }).onDelete('cascade'),
    foreignKey({ name: 'cart_line_account_fk', columns: [t.account_id], foreignColumns: [baseAccount.id] }).onDelete('cascade'),
    index('cart_line_slot_idx').on(t.slot_id, t.expires_at), index('cart_line_cart_idx').on(t.account_id, t.cart_id), index('cart_line_expires_idx').on(t.expires_at),
  ],
);

export const customer = pgTable(
  'customer',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    email: text('email').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    country: text('country'),
    /** For invoices: the company billed (if any), its postal address and VAT number. */
    company: text('company').notNull().default(''),
    address: text('address').notNull().default(''),
    vat_number: text('vat_number').notNull().default(''),
    marketing_consent: boolean('marketing_consent').notNull().default(false),
    notes: text('notes').notNull().default(''),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('customer_email_key').on(t.account_id, sql`lower(${t.email})`)],
);

export const order = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    reference: text('reference').notNull(),
    status: text('status').notNull().default('Created'),
    payment_status: text('payment_status').notNull().default('Not paid'),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customer.id, { onDelete: 'restrict' }),
    /**
     * The customer's details as given with this order (issue 29): what the order, its tickets, its
     * e-mails, its booking page and its reseller show. The customer's record is updated only by a
     * team member's own sale; input from a web store, a partner's API or a reseller's counter never
     * changes it. Null on orders made before they were kept (the customer's record is read then).
     */
    customer_email: text('customer_email'),
    customer_first_name: text('customer_first_name'),
    customer_last_name: text('customer_last_name'),
    customer_phone: text('customer_phone'),
    customer_country: text('customer_country'),
    /** The customer's language (LANGUAGES of the contracts): every e-mail and document to them is in it. */
    language: text('language').notNull().default('en'),
    /** Gross (tax included) total of the lines not cancelled, and its VAT part. */
    total: integer('total').notNull(),
    /** Gross total of every line ever sold in it, cancelled ones included (what a cancelled order was worth). */
    sold_total: integer('sold_total').notNull().default(0),
    tax_total: integer('tax_total').notNull().default(0),
    /**
     * What the organisation keeps of a cancelled order under its cancellation policy (what was paid
     * less the policy's refund): the sum of its lines' shares (booking.cancellation_fee), kept by
     * recomputeOrder(); part of `total` and `tax_total`. 0 for an order cancelled free of charge.
     */
    cancellation_fee: integer('cancellation_fee').notNull().default(0),
    /** Sum of all payments (refunds are negative) and of the refunds alone (as a positive amount). */
    paid: integer('paid').notNull().default(0),
    refunded: integer('refunded').notNull().default(0),
    currency: text('currency').notNull(),
    /** The team member who sold it (the spec's seller). */
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** The store it was sold in (a web order), or null (sold in the back office). */
    store_id: uuid('store_id').references((): AnyPgColumn => store.id, { onDelete: 'restrict' }),
    /** The hash of the secret in the customer's "my booking" link. */
    manage_token_hash: text('manage_token_hash'),
    notes: text('notes').notNull().default(''),
    /** The QR code whose scan brought the customer (from the cart, through payment). */
    qr_code_id: uuid('qr_code_id').references((): AnyPgColumn => qrCode.id, { onDelete: 'set null' }),
    /**
     * A resale: the order lives with the supplier (its slots, its one capacity pool) and names the
     * partner that sold it, under which partnership, and the partner's own reference. The partner
     * reads it too (policy `reseller_read`).
     */
    partnership_id: uuid('partnership_id').references((): AnyPgColumn => partnership.id, { onDelete: 'restrict' }),
    reseller_account_id: uuid('reseller_account_id').references((): AnyPgColumn => baseAccount.id, { onDelete: 'set null' }),
    reseller_reference: text('reseller_reference'),
    /**
     * The promo code the order was sold with (issue 32) and the code as it was typed then (what the
     * order, invoice and e-mails show as "Discount (CODE)"); the discount itself is on its lines
     * (booking.discount).
     */
    promo_code_id: uuid('promo_code_id').references((): AnyPgColumn => promoCode.id, { onDelete: 'set null' }),
    promo_code: text('promo_code'),
    /**
     * Paid by a deposit online (issue 32): the local date the rest is due by, fixed at sale from the
     * earliest departure and the deposit rule; null: due on site (or nothing left). Its reminder's
     * sending is kept in `balance_reminder_sent_at` (once per order).
     */
    balance_due_on: date('balance_due_on'),
    balance_reminder_sent_at: timestamp('balance_reminder_sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('orders_reference_key').on(t.account_id, t.reference),
    index('orders_account_created_idx').on(t.account_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('orders_account_payment_idx').on(t.account_id, t.payment_status, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('orders_account_status_idx').on(t.account_id, t.status, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('orders_account_customer_idx').on(t.account_id, t.customer_id),
    index('orders_account_store_idx').on(t.account_id, t.store_id, t.created_at).where(sql`${t.store_id} is not null`),
    index('orders_account_qr_idx').on(t.account_id, t.qr_code_id).where(sql`${t.qr_code_id} is not null`),
    index('orders_reseller_created_idx').on(t.reseller_account_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.reseller_account_id} is not null`),
    index('orders_balance_due_idx').on(t.account_id, t.balance_due_on).where(sql`${t.balance_due_on} is not null`),
    index('orders_partnership_idx').on(t.account_id, t.partnership_id, t.created_at).where(sql`${t.partnership_id} is not null`),
    pgPolicy('reseller_read', { as: 'permissive', for: 'select', using: sql`${t.reseller_account_id} = app_current_account()` }),
    index('orders_account_promo_idx').on(t.account_id, t.promo_code_id, sql`lower(${t.customer_email})`).where(sql`${t.promo_code_id} is not null`),
    check('orders_status_check', sql`${t.status} in ('Created', 'Confirmed', 'Canceled')`),
    check('orders_payment_status_check', sql`${t.payment_status} in ('Not paid', 'Partially paid', 'Fully paid', 'Refund due', 'Refunded')`),
    check('orders_money_check', sql`${t.total} >= 0 and ${t.sold_total} >= ${t.total} and ${t.tax_total} >= 0 and ${t.refunded} >= 0 and ${t.paid} >= 0`),
    check('orders_cancellation_fee_check', sql`${t.cancellation_fee} >= 0 and ${t.cancellation_fee} <= ${t.total}`),
  ],
);

export const booking = pgTable(
  'booking',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    order_id: uuid('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'restrict' }),
    slot_id: uuid('slot_id')
      .notNull()
      .references(() => slot.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('Confirmed'),
    attendance: text('attendance').notNull().default('Open'),
    ticket_code: text('ticket_code').notNull(),
    quantities: jsonb('quantities').$type<Record<string, number>>().notNull(),
    extras: jsonb('extras').$type<Record<string, number>>().notNull().default({}),
    answers: jsonb('answers').$type<Record<string, string>>().notNull().default({}),
    seats: integer('seats').notNull(),
    /** What it takes from resource pools, {pool id: units} (null: none), set by the database (08-pools.sql). */
    pools: jsonb('pools').$type<Record<string, number>>(),
    /**
     * Fixed when sold: the gross total (VAT included), the VAT rate (basis points), its net and tax
     * parts, and what it sells item by item with the same figures. Never recomputed: a later change
     * of a rate, a price or a name changes no booking; changing the line prices it anew.
     */
    total: integer('total').notNull(),
    tax_rate_bp: integer('tax_rate_bp').notNull().default(0),
    /** Sold before the organisation set its VAT rate: the rate of the day it is invoiced applies then. */
    tax_rate_pending: boolean('tax_rate_pending').notNull().default(false),
    net: integer('net').notNull().default(0),
    tax: integer('tax').notNull().default(0),
    items: jsonb('items').$type<SoldItem[]>().notNull().default([]),
    /**
     * Of a line cancelled with its order under the cancellation policy: its share of the order's
     * cancellation fee (the fee split over the lines it covered pro rata by gross), consideration
     * for this cancelled line and taxed at its rate. 0 otherwise.
     */
    cancellation_fee: integer('cancellation_fee').notNull().default(0),
    /**
     * The promo code's discount on this line (issue 32), gross, fixed at sale: `total` is the items'
     * gross less it, and `tax` the VAT of that discounted gross (vatOf(), sellLine()). 0 otherwise.
     */
    discount: integer('discount').notNull().default(0),
    currency: text('currency').notNull(),
    checked_in_at: timestamp('checked_in_at', { withTimezone: true }),
    /** Who admitted it and on which device (the check-in module's scan; null when undone or set by hand). */
    checked_in_by: uuid('checked_in_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    checked_in_device: text('checked_in_device'),
    canceled_at: timestamp('canceled_at', { withTimezone: true }),
    /** When its customer was reminded of it (the day before). */
    reminder_sent_at: timestamp('reminder_sent_at', { withTimezone: true }),
    /**
     * A resale's line (see orders.partnership_id): the partner that sold it, and what the partner
     * earns of `total` under its contract — fixed when sold, as the price is (commission_bp of the
     * gross, or gross less the contract's net rates). `settlement_id`: the statement that settled it.
     */
    partnership_id: uuid('partnership_id').references((): AnyPgColumn => partnership.id, { onDelete: 'restrict' }),
    reseller_account_id: uuid('reseller_account_id').references((): AnyPgColumn => baseAccount.id, { onDelete: 'set null' }),
    commission: integer('commission').notNull().default(0),
    settlement_id: uuid('settlement_id').references((): AnyPgColumn => settlement.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('booking_ticket_key').on(t.ticket_code),
    index('booking_slot_idx').on(t.account_id, t.slot_id),
    index('booking_order_idx').on(t.account_id, t.order_id),
    index('booking_created_idx').on(t.account_id, t.created_at),
    check('booking_status_check', sql`${t.status} in ('Created', 'Confirmed', 'Canceled')`),
    check('booking_attendance_check', sql`${t.attendance} in ('Open', 'Arrived', 'No show')`),
    check('booking_cancellation_fee_check', sql`${t.cancellation_fee} >= 0 and ${t.cancellation_fee} <= ${t.total}`),
    check('booking_discount_check', sql`${t.discount} >= 0`),
    check('booking_commission_check', sql`${t.commission} >= 0 and ${t.commission} <= ${t.total}`),
    index('booking_partnership_idx').on(t.account_id, t.partnership_id, t.created_at).where(sql`${t.partnership_id} is not null`),
    index('booking_reseller_idx').on(t.reseller_account_id, t.created_at).where(sql`${t.reseller_account_id} is not null`),
    pgPolicy('reseller_read', { as: 'permissive', for: 'select', using: sql`${t.reseller_account_id} = app_current_account()` }),
  ],
);
