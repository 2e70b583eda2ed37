import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId } from './accounts-schema';
import { cart, order, slot } from './availability-schema';
import { tenantPolicies, timestamps } from './columns';
import { store } from './stores-schema';

/**
 * A departure's waiting list (issue 32, modules/waitlist): who asked for seats of a sold-out slot,
 * in the order they joined (`created_at`, then `id`). When seats free up, the first entry whose
 * seats fit is offered them: a guest cart of its store holding the seats until `offered_until`
 * (`cart_id`), and an e-mail with the link that opens that cart. Statuses: waiting → offered →
 * booked (its order) or expired (the hold ran out, the next is offered); removed by staff.
 */
export const waitlistEntry = pgTable(
  'waitlist_entry',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    slot_id: uuid('slot_id')
      .notNull()
      .references(() => slot.id, { onDelete: 'cascade' }),
    /** The store it was joined in: its offer's link opens there. */
    store_id: uuid('store_id')
      .notNull()
      .references(() => store.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    seats: integer('seats').notNull(),
    /** The seats by pricing category the customer asked for (their offer is priced so); null: `seats` of the full ticket. */
    quantities: jsonb('quantities').$type<Record<string, number>>(),
    /** The page's language when joining (LANGUAGES of the contracts): its e-mail speaks it. */
    language: text('language').notNull().default('en'),
    status: text('status').notNull().default('waiting'),
    /** The cart holding the seats offered (a guest cart of `store_id`); its line's expiry is `offered_until`. */
    cart_id: uuid('cart_id').references(() => cart.id, { onDelete: 'set null' }),
    offered_at: timestamp('offered_at', { withTimezone: true }),
    offered_until: timestamp('offered_until', { withTimezone: true }),
    order_id: uuid('order_id').references(() => order.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    index('waitlist_entry_slot_idx').on(t.account_id, t.slot_id, t.created_at, t.id),
    index('waitlist_entry_cart_idx').on(t.account_id, t.cart_id).where(sql`${t.cart_id} is not null`),
    // Finds, across organisations, the slots whose list has work (the job waitlist-offers).
    index('waitlist_entry_open_idx').on(t.status, t.slot_id).where(sql`${t.status} in ('waiting', 'offered')`),
    // One place on a departure's list per e-mail address while it waits or is offered seats.
    uniqueIndex('waitlist_entry_email_key').on(t.account_id, t.slot_id, sql`lower(${t.email})`).where(sql`${t.status} in ('waiting', 'offered')`),
    check('waitlist_entry_seats_check', sql`${t.seats} between 1 and 100`),
    check('waitlist_entry_status_check', sql`${t.status} in ('waiting', 'offered', 'booked', 'expired', 'removed')`),
  ],
);
