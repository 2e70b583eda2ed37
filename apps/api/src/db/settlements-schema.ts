import { sql } from 'drizzle-orm';
import { type AnyPgColumn, check, index, integer, jsonb, pgPolicy, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { baseAccount } from './accounts-schema';
import { booking, type SoldItem } from './availability-schema';
import { settlement } from './partners-schema';

/**
 * A line of a settlement statement, written once when the statement is made and never changed: the
 * figures the resold line (`booking_id`) was settled at — its status then, gross, commission,
 * supplier net, cancellation fee, seats, in the statement's currency — and what names it (order
 * reference, offer, slot, store, items). The statement's figures are the sum of its lines.
 *
 * `kind`: `sale`, the line's figures as they count then; `reversal`, the credit of a sale line of an
 * earlier statement whose resold line was cancelled or changed after it (every figure negated,
 * `reverses_line_id` naming it), written on the next statement of the partnership and followed by a
 * new `sale` line when the resold line still counts for something (a cancellation fee kept). The
 * sum of a resold line's statement lines is what it has been settled at so far.
 *
 * Both sides of the partnership read it, as they read the statement (partner_isolation).
 */
export const settlementLine = pgTable(
  'settlement_line',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    settlement_id: uuid('settlement_id')
      .notNull()
      .references(() => settlement.id, { onDelete: 'cascade' }),
    supplier_account_id: uuid('supplier_account_id')
      .notNull()
      .references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' }),
    reseller_account_id: uuid('reseller_account_id')
      .notNull()
      .references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' }),
    /** Its place on the statement (from 1). */
    position: integer('position').notNull(),
    kind: text('kind').notNull().default('sale'),
    reverses_line_id: uuid('reverses_line_id').references((): AnyPgColumn => settlementLine.id, { onDelete: 'restrict' }),
    booking_id: uuid('booking_id').references((): AnyPgColumn => booking.id, { onDelete: 'set null' }),
    order_id: uuid('order_id').notNull(),
    order_reference: text('order_reference').notNull(),
    reseller_reference: text('reseller_reference'),
    experience_id: uuid('experience_id').notNull(),
    slot_id: uuid('slot_id').notNull(),
    store_id: uuid('store_id'),
    items: jsonb('items').$type<Pick<SoldItem, 'kind' | 'label' | 'quantity'>[]>().notNull().default([]),
    /** When the resold line was sold. */
    sold_at: timestamp('sold_at', { withTimezone: true }).notNull(),
    /** The resold line's status when this line was written. */
    status: text('status').notNull(),
    seats: integer('seats').notNull(),
    currency: text('currency').notNull(),
    gross: integer('gross').notNull(),
    commission: integer('commission').notNull(),
    supplier_net: integer('supplier_net').notNull(),
    cancellation_fee: integer('cancellation_fee').notNull().default(0),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    pgPolicy('partner_isolation', {
      as: 'permissive',
      for: 'all',
      using: sql`${t.supplier_account_id} = app_current_account() or ${t.reseller_account_id} = app_current_account()`,
      withCheck: sql`${t.supplier_account_id} = app_current_account() or ${t.reseller_account_id} = app_current_account()`,
    }),
    pgPolicy('server_access', { as: 'permissive', for: 'all', to: 'tourdesk_server', using: sql`true`, withCheck: sql`true` }),
    index('settlement_line_settlement_idx').on(t.settlement_id, t.position),
    index('settlement_line_booking_idx').on(t.booking_id),
    index('settlement_line_reverses_idx').on(t.reverses_line_id),
    check('settlement_line_kind_check', sql`${t.kind} in ('sale', 'reversal')`),
    check('settlement_line_reversal_check', sql`(${t.kind} = 'reversal') = (${t.reverses_line_id} is not null)`),
    check('settlement_line_net_check', sql`${t.supplier_net} = ${t.gross} - ${t.commission}`),
  ],
);
