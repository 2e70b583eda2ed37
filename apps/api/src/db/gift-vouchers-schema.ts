import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId } from './accounts-schema';
import { tenantPolicies, timestamps } from './columns';
import { order } from './availability-schema';
import { orderPayment } from './orders-schema';
import { onlineCheckout } from './payments-schema';
import { store } from './stores-schema';

/**
 * A gift voucher (issue 32): a multi-purpose voucher, a liability of the organisation, spent as a
 * means of payment on its orders (payment method `voucher`). Its `code` is typed by customers and
 * staff and matched without regard to case, unique per organisation. `balance` is what is left; the
 * ledger (`gift_voucher_entry`) holds every change of it and sums to it. Sold in a web store (paid
 * online: `checkout_id`) or issued by staff (`issued_by`, no payment). Delivered by e-mail on
 * `deliver_on` (the organisation's local date) to the recipient, else the buyer; `delivered_at`
 * once the e-mail is queued.
 */
export const giftVoucher = pgTable(
  'gift_voucher',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    code: text('code').notNull(),
    currency: text('currency').notNull(),
    /** What it was worth when issued (minor units). */
    value: integer('value').notNull(),
    balance: integer('balance').notNull(),
    /** active, or cancelled (expired is read from expires_at). */
    status: text('status').notNull().default('active'),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** 'store' (bought in a web store) or 'staff' (issued in the back office). */
    source: text('source').notNull(),
    store_id: uuid('store_id').references(() => store.id, { onDelete: 'set null' }),
    checkout_id: uuid('checkout_id').references((): AnyPgColumn => onlineCheckout.id, { onDelete: 'set null' }),
    issued_by: uuid('issued_by'),
    buyer_name: text('buyer_name').notNull().default(''),
    buyer_email: text('buyer_email').notNull().default(''),
    recipient_name: text('recipient_name').notNull().default(''),
    recipient_email: text('recipient_email').notNull().default(''),
    message: text('message').notNull().default(''),
    /** The customer's language (its e-mail and PDF). */
    language: text('language').notNull().default('en'),
    deliver_on: date('deliver_on', { mode: 'string' }).notNull(),
    delivered_at: timestamp('delivered_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('gift_voucher_code_key').on(t.account_id, sql`lower(${t.code})`),
    uniqueIndex('gift_voucher_checkout_key').on(t.checkout_id),
    index('gift_voucher_account_created_idx').on(t.account_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('gift_voucher_status_check', sql`${t.status} in ('active', 'cancelled')`),
    check('gift_voucher_source_check', sql`${t.source} in ('store', 'staff')`),
    check('gift_voucher_balance_check', sql`${t.value} > 0 and ${t.balance} >= 0 and ${t.balance} <= ${t.value}`),
  ],
);

/**
 * The voucher's ledger: each change of its balance, signed (issue +value, redemption −amount,
 * refund +amount back from an order's refund, cancel −what was left, extend 0 with the new expiry),
 * with the balance after it, who did it and why.
 */
export const giftVoucherEntry = pgTable(
  'gift_voucher_entry',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    voucher_id: uuid('voucher_id')
      .notNull()
      .references(() => giftVoucher.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    amount: integer('amount').notNull(),
    balance_after: integer('balance_after').notNull(),
    order_id: uuid('order_id').references(() => order.id, { onDelete: 'set null' }),
    payment_id: uuid('payment_id').references(() => orderPayment.id, { onDelete: 'set null' }),
    expires_at: timestamp('expires_at', { withTimezone: true }),
    reason: text('reason').notNull().default(''),
    actor_id: uuid('actor_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantPolicies(),
    index('gift_voucher_entry_voucher_idx').on(t.account_id, t.voucher_id, t.created_at),
    index('gift_voucher_entry_created_idx').on(t.account_id, t.created_at),
    check('gift_voucher_entry_kind_check', sql`${t.kind} in ('issue', 'redemption', 'refund', 'cancel', 'extend')`),
  ],
);
