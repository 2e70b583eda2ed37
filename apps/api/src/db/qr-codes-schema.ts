import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accountId } from './accounts-schema';
import { experience } from './catalog-schema';
import { tenantPolicies, timestamps } from './columns';
import { partnership } from './partners-schema';
import { store } from './stores-schema';

/**
 * A QR code printed on a flyer: it leads (through /q/{code} on the organisation's host, which
 * counts the scan) to a store, an offer in a store, or a partner's store selling the offer. The
 * order its scan leads to records it (cart.qr_code_id → orders.qr_code_id) from the scan through
 * payment. Ownership: Internal (the organisation's own campaign) or External (given to a partner).
 */
export const qrCode = pgTable(
  'qr_code',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    /** The short code of its address, unique across the platform. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    campaign: text('campaign').notNull().default(''),
    ownership: text('ownership').notNull().default('Internal'),
    target: text('target').notNull(),
    store_id: uuid('store_id').references(() => store.id, { onDelete: 'cascade' }),
    experience_id: uuid('experience_id').references(() => experience.id, { onDelete: 'cascade' }),
    partnership_id: uuid('partnership_id').references(() => partnership.id, { onDelete: 'cascade' }),
    scans: integer('scans').notNull().default(0),
    last_scanned_at: timestamp('last_scanned_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('qr_code_code_key').on(t.code),
    index('qr_code_account_created_idx').on(t.account_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('qr_code_ownership_check', sql`${t.ownership} in ('Internal', 'External')`),
    check('qr_code_target_check', sql`${t.target} in ('store', 'experience', 'partner_store')`),
  ],
);

/** Scans of a QR code per local day (the list's figures and a chart; one row per code and day). */
export const qrScanDay = pgTable(
  'qr_scan_day',
  {
    account_id: accountId(),
    qr_code_id: uuid('qr_code_id')
      .notNull()
      .references(() => qrCode.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    scans: integer('scans').notNull().default(0),
  },
  (t) => [...tenantPolicies(), primaryKey({ columns: [t.qr_code_id, t.day] }), index('qr_scan_day_account_idx').on(t.account_id, t.day)],
);
