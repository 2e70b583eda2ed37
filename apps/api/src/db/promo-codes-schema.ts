import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId } from './accounts-schema';
import { tenantPolicies, timestamps } from './columns';
import { store } from './stores-schema';

/**
 * A promo code (issue 32): a discount an organisation gives on its own sales — a percentage
 * (`percent_bp`, basis points) or a fixed amount (`amount`, minor units of the organisation's
 * currency) off the gross of the items it is valid for. Its `code` is typed by customers and staff
 * and matched without regard to case, unique per organisation. Empty `experience_ids` /
 * `category_ids`: every offer / every pricing category. Windows are local dates of the organisation,
 * both ends included (null: open). `uses` counts the orders that took it, raised in the checkout's
 * transaction by a conditional UPDATE (never past `max_uses`); per customer, the orders with the
 * customer's e-mail that used it are counted under that row's lock.
 */
export const promoCode = pgTable(
  'promo_code',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    /** 'percent' (percent_bp of the eligible gross) or 'amount' (a fixed amount off, never more than the eligible gross). */
    kind: text('kind').notNull(),
    percent_bp: integer('percent_bp').notNull().default(0),
    amount: integer('amount').notNull().default(0),
    experience_ids: uuid('experience_ids').array().notNull().default(sql`'{}'::uuid[]`),
    category_ids: uuid('category_ids').array().notNull().default(sql`'{}'::uuid[]`),
    valid_from: date('valid_from', { mode: 'string' }),
    valid_until: date('valid_until', { mode: 'string' }),
    departure_from: date('departure_from', { mode: 'string' }),
    departure_until: date('departure_until', { mode: 'string' }),
    /** The smallest order (gross of every line, before the discount) it applies to; 0: any. */
    min_order: integer('min_order').notNull().default(0),
    max_uses: integer('max_uses'),
    max_uses_per_customer: integer('max_uses_per_customer'),
    /** Only in this web store (null: every store and the counter). */
    store_id: uuid('store_id').references(() => store.id, { onDelete: 'cascade' }),
    active: boolean('active').notNull().default(true),
    uses: integer('uses').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('promo_code_code_key').on(t.account_id, sql`lower(${t.code})`),
    index('promo_code_account_created_idx').on(t.account_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('promo_code_kind_check', sql`(${t.kind} = 'percent' and ${t.percent_bp} between 1 and 10000 and ${t.amount} = 0) or (${t.kind} = 'amount' and ${t.amount} > 0 and ${t.percent_bp} = 0)`),
    check('promo_code_uses_check', sql`${t.uses} >= 0 and (${t.max_uses} is null or ${t.uses} <= ${t.max_uses})`),
    check('promo_code_limits_check', sql`${t.min_order} >= 0 and (${t.max_uses} is null or ${t.max_uses} > 0) and (${t.max_uses_per_customer} is null or ${t.max_uses_per_customer} > 0)`),
  ],
);
