import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId } from './accounts-schema';
import { experience, image } from './catalog-schema';
import { type DepositRuleJson, tenantPolicies, timestamps, translations, translationsCheck } from './columns';
import { partnership } from './partners-schema';

/**
 * Stores: where an organisation sells online, each at /s/{slug}/ on the organisation's host, with
 * the offers it shows, in its order, and what its customers see.
 */
export const store = pgTable(
  'store',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    active: boolean('active').notNull().default(true),
    currency: text('currency').notNull(),
    logo_image_id: uuid('logo_image_id').references(() => image.id, { onDelete: 'set null' }),
    primary_color: text('primary_color').notNull().default('#1c7ed6'),
    intro: text('intro').notNull().default(''),
    terms_url: text('terms_url').notNull().default(''),
    contact_email: text('contact_email').notNull().default(''),
    contact_phone: text('contact_phone').notNull().default(''),
    payment_options: text('payment_options').array().notNull().default(sql`'{pay_on_site}'::text[]`),
    /** The sites that may show it in a frame (its Content-Security-Policy's frame-ancestors). */
    embed_origins: text('embed_origins').array().notNull().default(sql`'{}'::text[]`),
    /** An e-mail to the organisation for every booking made in it. */
    notify_new_bookings: boolean('notify_new_bookings').notNull().default(false),
    notify_email: text('notify_email').notNull().default(''),
    /** How long seats offered to a waiting list's entry are held for it (modules/waitlist), in minutes. */
    waitlist_hold_minutes: integer('waitlist_hold_minutes').notNull().default(720),
    /** The deposit asked for when paying online (issue 32; ZDepositRule) for offers without their own; null: the whole total. */
    deposit: jsonb('deposit').$type<DepositRuleJson>(),
    /** How many days before an order's balance is due its reminder is e-mailed (the job balance-reminders). */
    balance_reminder_days: integer('balance_reminder_days').notNull().default(3),
    /** Gift vouchers (modules/gift-vouchers): sold here (paid online), at these fixed amounts and/or an amount of the customer's own between min and max (0: none). */
    sells_vouchers: boolean('sells_vouchers').notNull().default(false),
    voucher_amounts: integer('voucher_amounts').array().notNull().default(sql`'{5000,10000,20000}'::integer[]`),
    voucher_min: integer('voucher_min').notNull().default(0),
    voucher_max: integer('voucher_max').notNull().default(0),
    /** Its name and intro in the organisation's other languages (issue 30): { "de": { "intro": "…" } }; localize() serves them. */
    translations: translations<{ name: string; intro: string }>(),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    translationsCheck('store', t.translations),
    uniqueIndex('store_slug_key').on(t.account_id, t.slug),
    uniqueIndex('store_account_key').on(t.account_id, t.id),
    index('store_account_created_idx').on(t.account_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('store_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('store_voucher_range_check', sql`${t.voucher_min} >= 0 and ${t.voucher_max} >= 0 and (${t.voucher_max} = 0 or ${t.voucher_max} >= ${t.voucher_min})`),
    check('store_waitlist_hold_check', sql`${t.waitlist_hold_minutes} between 15 and 10080`),
    check('store_balance_reminder_check', sql`${t.balance_reminder_days} between 1 and 60`),
  ],
);

/** The offers a store shows, in its order. */
export const storeExperience = pgTable(
  'store_experience',
  {
    account_id: accountId(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => store.id, { onDelete: 'cascade' }),
    experience_id: uuid('experience_id')
      .notNull()
      .references(() => experience.id, { onDelete: 'cascade' }),
    /**
     * Set when the offer is a partner's (a supplier's offer this reseller sells under their
     * contract): the experience is then the supplier's, and the line goes when the partnership does.
     */
    partnership_id: uuid('partnership_id').references((): AnyPgColumn => partnership.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [...tenantPolicies(), primaryKey({ columns: [t.store_id, t.experience_id] }), index('store_experience_order_idx').on(t.account_id, t.store_id, t.position)],
);

/** A visit of a store's pages by one browser session (counted once a day per visit id). */
export const storeVisit = pgTable(
  'store_visit',
  {
    account_id: accountId(),
    store_id: uuid('store_id')
      .notNull()
      .references(() => store.id, { onDelete: 'cascade' }),
    visit_id: text('visit_id').notNull(),
    day: text('day').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [...tenantPolicies(), primaryKey({ columns: [t.store_id, t.day, t.visit_id] }), index('store_visit_day_idx').on(t.account_id, t.store_id, t.day)],
);
