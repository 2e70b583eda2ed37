import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** An organisation (tenant). Every tenant table carries its id as account_id. */
export const baseAccount = pgTable(
  'base_account',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    subdomain: text('subdomain').notNull(),
    kind: text('kind').notNull(),
    time_zone: text('time_zone').notNull().default('UTC'),
    currency: text('currency').notNull().default('EUR'),
    locale: text('locale').notNull().default('en'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('base_account_subdomain_key').on(t.subdomain),
    check('base_account_kind_check', sql`${t.kind} in ('supplier', 'affiliate')`),
    check('base_account_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
  ],
);

/** A person who signs in. One user belongs to exactly one organisation. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: uuid('account_id')
      .notNull()
      .references(() => baseAccount.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    password_hash: text('password_hash'),
    is_active: boolean('is_active').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    index('users_account_id_idx').on(t.account_id, t.id),
  ],
);

/** Platform-wide announcements shown to every signed-in user. */
export const systemNotification = pgTable(
  'system_notification',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    level: text('level').notNull().default('info'),
    published_at: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('system_notification_published_idx').on(t.published_at.desc(), t.id.desc()),
    check('system_notification_level_check', sql`${t.level} in ('info', 'warning', 'critical')`),
  ],
);
