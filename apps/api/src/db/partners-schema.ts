import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, date, index, integer, jsonb, pgPolicy, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId, baseAccount, users } from './accounts-schema';
import { experience } from './catalog-schema';
import { tenantPolicies, timestamps } from './columns';

/**
 * Partners: a supplier (its offers, its slots, its one capacity pool) and a reseller (sells them
 * for commission) under one contract. A partnership belongs to both organisations: each sees it
 * (row-level security on either side's id), neither sees the other's other partners.
 *
 * Invited by either side: by the other's subdomain (`reseller_account_id` or `supplier_account_id`
 * known at once) or by e-mail (the other side is known when it accepts with the invitation's token).
 * Status: Invited → Active (accepted) or Declined; Active ↔ Suspended; Ended (final).
 */
const bothSides = (supplier = sql`supplier_account_id`, reseller = sql`reseller_account_id`) => [
  pgPolicy('partner_isolation', {
    as: 'permissive',
    for: 'all',
    using: sql`${supplier} = app_current_account() or ${reseller} = app_current_account()`,
    withCheck: sql`${supplier} = app_current_account() or ${reseller} = app_current_account()`,
  }),
  pgPolicy('server_access', { as: 'permissive', for: 'all', to: 'tourdesk_server', using: sql`true`, withCheck: sql`true` }),
];

export const partnership = pgTable(
  'partnership',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    supplier_account_id: uuid('supplier_account_id').references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' }),
    reseller_account_id: uuid('reseller_account_id').references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' }),
    /** The side that sent the invitation (it may edit the contract until it is accepted). */
    invited_by_account_id: uuid('invited_by_account_id')
      .notNull()
      .references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' }),
    invited_by_user_id: uuid('invited_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** An invitation by e-mail: the address, and the hash of the token in its link (null once answered). */
    invite_email: text('invite_email'),
    invite_token_hash: text('invite_token_hash'),
    status: text('status').notNull().default('Invited'),
    /**
     * The contract (one per partnership, both sides see the same): `commission` — the reseller sells
     * at the supplier's retail price and keeps `commission_bp` of it; `net` — the reseller owes the
     * supplier the net rate per pricing category (partnership_experience.net_rates, else the pricing
     * rate's net price) and keeps the rest. Who collects the customer's payment: the reseller (it
     * owes the supplier the net) or the supplier (it owes the reseller the commission).
     */
    pricing: text('pricing').notNull().default('commission'),
    commission_bp: integer('commission_bp').notNull().default(0),
    payment_collector: text('payment_collector').notNull().default('reseller'),
    valid_from: date('valid_from', { mode: 'string' }),
    valid_to: date('valid_to', { mode: 'string' }),
    /** The supplier's currency when the contract was made (its prices', its settlements'). */
    currency: text('currency').notNull(),
    notes: text('notes').notNull().default(''),
    responded_at: timestamp('responded_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...bothSides(),
    index('partnership_supplier_idx').on(t.supplier_account_id, t.status, t.created_at),
    index('partnership_reseller_idx').on(t.reseller_account_id, t.status, t.created_at),
    uniqueIndex('partnership_pair_key')
      .on(t.supplier_account_id, t.reseller_account_id)
      .where(sql`${t.status} in ('Invited', 'Active', 'Suspended') and ${t.supplier_account_id} is not null and ${t.reseller_account_id} is not null`),
    uniqueIndex('partnership_invite_key').on(t.invite_token_hash).where(sql`${t.invite_token_hash} is not null`),
    check('partnership_status_check', sql`${t.status} in ('Invited', 'Active', 'Declined', 'Suspended', 'Ended')`),
    check('partnership_pricing_check', sql`${t.pricing} in ('commission', 'net')`),
    check('partnership_collector_check', sql`${t.payment_collector} in ('reseller', 'supplier')`),
    check('partnership_commission_check', sql`${t.commission_bp} between 0 and 10000`),
    check('partnership_sides_check', sql`${t.supplier_account_id} is distinct from ${t.reseller_account_id}`),
    check('partnership_known_check', sql`${t.supplier_account_id} is not null or ${t.reseller_account_id} is not null`),
    check('partnership_accepted_check', sql`${t.status} in ('Invited', 'Declined') or (${t.supplier_account_id} is not null and ${t.reseller_account_id} is not null)`),
    check('partnership_dates_check', sql`${t.valid_to} is null or ${t.valid_from} is null or ${t.valid_to} >= ${t.valid_from}`),
    check('partnership_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/**
 * The supplier's offers a contract shares, each with its net rates per pricing category (minor
 * units; a category missing falls back to the pricing rate's net price). `account_id` is the
 * supplier's (the offer's owner).
 */
export const partnershipExperience = pgTable(
  'partnership_experience',
  {
    partnership_id: uuid('partnership_id')
      .notNull()
      .references(() => partnership.id, { onDelete: 'cascade' }),
    account_id: accountId(),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    net_rates: jsonb('net_rates').$type<Record<string, number>>().notNull().default({}),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Both sides read what the contract shares (the partnership's own policy decides who sees it).
    pgPolicy('partner_isolation', {
      as: 'permissive',
      for: 'all',
      using: sql`exists (select 1 from partnership p where p.id = ${t.partnership_id})`,
      withCheck: sql`${t.account_id} = app_current_account()`,
    }),
    pgPolicy('server_access', { as: 'permissive', for: 'all', to: 'tourdesk_server', using: sql`true`, withCheck: sql`true` }),
    primaryKey({ columns: [t.partnership_id, t.experience_id] }),
    index('partnership_experience_offer_idx').on(t.account_id, t.experience_id),
  ],
);

/**
 * A key for the public booking API and the OCTO API, issued by the supplier to a partner (on the
 * partner's page): it acts for that partnership only (its offers, its rates). Only a SHA-256 hash of
 * the secret is kept; `prefix` (its first characters) names it in lists. Looked up by hash outside
 * a tenant (as tourdesk_server), then every call runs in the supplier's tenant.
 */
export const apiKey = pgTable(
  'api_key',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    partnership_id: uuid('partnership_id')
      .notNull()
      .references(() => partnership.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secret_hash: text('secret_hash').notNull(),
    created_by: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    last_used_at: timestamp('last_used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [...tenantPolicies(), uniqueIndex('api_key_secret_key').on(t.secret_hash), index('api_key_partnership_idx').on(t.account_id, t.partnership_id)],
);

/**
 * A settlement statement: per partnership and period, what was sold through the partner (gross),
 * the commission, the supplier's net, and who owes whom — fixed when it is made, the sums of its
 * stored lines (settlement_line, db/settlements-schema.ts; `bookings` counts them), never changed
 * after (a later change of a line is credited on the next statement). Its bookings are marked with
 * it, so no booking is taken twice; Open until marked Settled.
 */
export const settlement = pgTable(
  'settlement',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partnership_id: uuid('partnership_id')
      .notNull()
      .references(() => partnership.id, { onDelete: 'restrict' }),
    supplier_account_id: uuid('supplier_account_id')
      .notNull()
      .references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' }),
    reseller_account_id: uuid('reseller_account_id')
      .notNull()
      .references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    period_from: date('period_from', { mode: 'string' }).notNull(),
    period_to: date('period_to', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    bookings: integer('bookings').notNull().default(0),
    gross: integer('gross').notNull().default(0),
    commission: integer('commission').notNull().default(0),
    supplier_net: integer('supplier_net').notNull().default(0),
    /** What the reseller pays the supplier (positive) or the supplier pays the reseller (negative). */
    reseller_owes: integer('reseller_owes').notNull().default(0),
    status: text('status').notNull().default('Open'),
    settled_at: timestamp('settled_at', { withTimezone: true }),
    settled_by: uuid('settled_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    ...bothSides(),
    uniqueIndex('settlement_number_key').on(t.supplier_account_id, t.number),
    index('settlement_partnership_idx').on(t.partnership_id, t.period_from),
    check('settlement_status_check', sql`${t.status} in ('Open', 'Settled')`),
    check('settlement_period_check', sql`${t.period_to} >= ${t.period_from}`),
  ],
);

/**
 * An OCTO booking (a reseller's reservation through the OCTO API), by the UUID the reseller gives:
 * ON_HOLD holds its seats through its cart (expiring as carts do), CONFIRMED is its order, then
 * CANCELLED. In the supplier's tenant; the UUID makes every call idempotent.
 */
export const octoBooking = pgTable(
  'octo_booking',
  {
    /** The reseller's UUID: unique per supplier (the key is (account_id, uuid)), so a key learns nothing of other suppliers' UUIDs. */
    uuid: uuid('uuid').notNull(),
    account_id: accountId(),
    partnership_id: uuid('partnership_id')
      .notNull()
      .references(() => partnership.id, { onDelete: 'cascade' }),
    api_key_id: uuid('api_key_id').references(() => apiKey.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('ON_HOLD'),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    slot_id: uuid('slot_id').notNull(),
    cart_id: uuid('cart_id'),
    cart_line_id: uuid('cart_line_id'),
    order_id: uuid('order_id'),
    booking_id: uuid('booking_id'),
    reseller_reference: text('reseller_reference'),
    /** The unit items as the reseller sent them (ids of units per item), to answer in OCTO's shape. */
    unit_items: jsonb('unit_items').$type<{ uuid: string | null; unitId: string; resellerReference: string | null }[]>().notNull().default([]),
    contact: jsonb('contact').$type<Record<string, unknown>>().notNull().default({}),
    /** Answers to the offer's booking questions given while reserving or changing it (octo/questions), by question id; the confirm books them. */
    answers: jsonb('answers').$type<Record<string, string>>().notNull().default({}),
    notes: text('notes'),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    cancellation_reason: text('cancellation_reason'),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    primaryKey({ name: 'octo_booking_pkey', columns: [t.account_id, t.uuid] }),
    index('octo_booking_partnership_idx').on(t.account_id, t.partnership_id, t.created_at),
    index('octo_booking_reseller_ref_idx').on(t.account_id, t.partnership_id, t.reseller_reference),
    check('octo_booking_status_check', sql`${t.status} in ('ON_HOLD', 'CONFIRMED', 'CANCELLED', 'EXPIRED')`),
  ],
);
