import { sql } from 'drizzle-orm';
import { check, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId, userId } from './accounts-schema';
import { slot } from './availability-schema';
import { tenantPolicies, timestamps } from './columns';

/** Guides (issue 34, modules/guides): who guides, their days off, and who guides which departure. */

/** A team member who guides: one row per member at most; deleting the row (or the user) stops it. */
export const guide = pgTable(
  'guide',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    user_id: userId(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), uniqueIndex('guide_user_key').on(t.account_id, t.user_id)],
);

/** Days a guide is off, from one local date to another (both included). */
export const guideDayOff = pgTable(
  'guide_day_off',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    user_id: userId(),
    starts_on: date('starts_on').notNull(),
    ends_on: date('ends_on').notNull(),
    note: text('note').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    index('guide_day_off_user_idx').on(t.account_id, t.user_id, t.starts_on),
    check('guide_day_off_dates_check', sql`${t.ends_on} >= ${t.starts_on}`),
  ],
);

/**
 * A guide assigned to a departure, with the departure's UTC window copied from the slot (a slot's
 * times never change). The exclusion constraint `guide_assignment_no_overlap` (migration 0066,
 * btree_gist: drizzle-kit cannot declare it) makes two overlapping departures for one guide
 * impossible, whoever writes: `(account_id =, user_id =, tstzrange(starts_at, ends_at) &&)`.
 */
export const guideAssignment = pgTable(
  'guide_assignment',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    slot_id: uuid('slot_id')
      .notNull()
      .references(() => slot.id, { onDelete: 'cascade' }),
    user_id: userId(),
    starts_at: timestamp('starts_at', { withTimezone: true }).notNull(),
    ends_at: timestamp('ends_at', { withTimezone: true }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('guide_assignment_slot_user_key').on(t.account_id, t.slot_id, t.user_id),
    index('guide_assignment_user_idx').on(t.account_id, t.user_id, t.starts_at),
    check('guide_assignment_window_check', sql`${t.ends_at} > ${t.starts_at}`),
  ],
);
