import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId, users } from './accounts-schema';
import { booking } from './availability-schema';
import { tenantPolicies } from './columns';

/** What a scan at the door came to (`check_in_scan.result`). */
export const SCAN_RESULTS = ['admitted', 'already_checked_in', 'wrong_day', 'wrong_departure', 'canceled', 'unconfirmed', 'unknown'] as const;

/**
 * Every scan a check-in device sent, once: the device makes the scan's id, so a batch sent again
 * (the network dropped before the answer) finds its scans here and changes nothing. `scanned_at` is
 * the device's clock when the ticket was read (a scan made offline arrives later); the earliest scan
 * of a ticket is the one that admitted it. `result` is what the server decided for this scan.
 */
export const checkInScan = pgTable(
  'check_in_scan',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    scan_id: uuid('scan_id').notNull(),
    device_id: text('device_id').notNull(),
    user_id: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    booking_id: uuid('booking_id').references(() => booking.id, { onDelete: 'cascade' }),
    ticket_code: text('ticket_code').notNull(),
    scanned_at: timestamp('scanned_at', { withTimezone: true }).notNull(),
    received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    result: text('result').notNull(),
    override: boolean('override').notNull().default(false),
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('check_in_scan_key').on(t.account_id, t.scan_id),
    index('check_in_scan_booking_idx').on(t.account_id, t.booking_id, t.scanned_at),
    check('check_in_scan_result_check', sql.raw(`result in (${SCAN_RESULTS.map((r) => `'${r}'`).join(', ')})`)),
  ],
);
