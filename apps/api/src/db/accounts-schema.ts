import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { tenantPolicies, timestamps, translations, translationsCheck } from './columns';

/**
 * Organisations and what every other table hangs from: plans, the organisation itself (and the
 * columns that point at it and at a user: accountId(), userId()), roles, users, their sessions,
 * identities and one-time tokens; the platform's own settings, counters and notifications.
 */

/** Plans: which subscription features an account has. Reference data, seeded at start. */
export const subscriptionTier = pgTable('subscription_tier', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  kind: text('kind').notNull(),
  features: text('features').array().notNull(),
  monthly_price: integer('monthly_price').notNull().default(0),
  currency: text('currency').notNull().default('EUR'),
  sort_order: integer('sort_order').notNull().default(0),
  /** The platform's fee on each online payment of an organisation on this plan, in basis points. */
  application_fee_bp: integer('application_fee_bp').notNull().default(0),
  /** The price of a year, paid at once (0: not sold by the year). */
  yearly_price: integer('yearly_price').notNull().default(0),
  /** Days free before the first payment, for an organisation that never had a trial. */
  trial_days: integer('trial_days').notNull().default(0),
  /** What the plan allows at most (a missing key: no limit): offers, stores, team_members, bookings_per_month. */
  limits: jsonb('limits').$type<Partial<Record<'offers' | 'stores' | 'team_members' | 'bookings_per_month', number>>>().notNull().default({}),
});

/** The platform's Stripe product of each plan (made on first use; plans themselves are the owner's to write). */
export const billingProduct = pgTable('billing_product', {
  tier_id: text('tier_id')
    .primaryKey()
    .references(() => subscriptionTier.id, { onDelete: 'cascade' }),
  stripe_product_id: text('stripe_product_id').notNull(),
});

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
    /** The languages the organisation sells in (LANGUAGES of the contracts), its first the fallback of every translated text. */
    languages: text('languages').array().notNull().default(sql`'{en}'::text[]`),
    subscription_tier_id: text('subscription_tier_id').references(() => subscriptionTier.id),
    /**
     * The subscription behind the plan (Stripe Billing on the platform's account): none (a free
     * plan, or granted), trialing, active, past_due or canceled; kept current by Stripe's events.
     */
    subscription_status: text('subscription_status').notNull().default('none'),
    subscription_interval: text('subscription_interval'),
    subscription_period_end: timestamp('subscription_period_end', { withTimezone: true }),
    trial_ends_at: timestamp('trial_ends_at', { withTimezone: true }),
    /** Once trialled, never again. */
    trial_used: boolean('trial_used').notNull().default(false),
    stripe_customer_id: text('stripe_customer_id'),
    stripe_subscription_id: text('stripe_subscription_id'),
    /** How long a cart holds its seats (the spec's MIN 10 to MAX 60 minutes). */
    hold_minutes: integer('hold_minutes').notNull().default(15),
    default_cutoff_minutes: integer('default_cutoff_minutes').notNull().default(0),
    /** Invoicing: the seller's legal and billing details and its VAT rate in basis points (810 = 8.1%). */
    legal_name: text('legal_name').notNull().default(''),
    billing_address: text('billing_address').notNull().default(''),
    vat_number: text('vat_number').notNull().default(''),
    billing_email: text('billing_email').notNull().default(''),
    vat_rate_bp: integer('vat_rate_bp').notNull().default(0),
    /** Product configuration: how times read (24h or 12h), new offers' defaults, VAT by offer type, what tickets show. */
    time_format: text('time_format').notNull().default('24h'),
    default_capacity: integer('default_capacity').notNull().default(10),
    default_cancellation_policy_id: uuid('default_cancellation_policy_id').references((): AnyPgColumn => cancellationPolicy.id, { onDelete: 'set null' }),
    /** VAT in basis points per offer type ({ "Rental": 770 }); an offer's own rate first, then its type's, then vat_rate_bp. */
    vat_rates_by_type: jsonb('vat_rates_by_type').$type<Record<string, number>>().notNull().default({}),
    /** How long a gift voucher is valid from its issue, in months (modules/gift-vouchers). */
    voucher_validity_months: integer('voucher_validity_months').notNull().default(36),
    ticket_fields: text('ticket_fields').array().notNull().default(sql`'{meeting_point,customer_name,items,balance_due,order_reference}'::text[]`),
    /** When the organisation put its getting-started checklist away (the dashboard's onboarding). */
    onboarding_dismissed_at: timestamp('onboarding_dismissed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(sql`id`),
    uniqueIndex('base_account_subdomain_key').on(t.subdomain),
    check('base_account_kind_check', sql`${t.kind} in ('supplier', 'affiliate')`),
    check('base_account_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('base_account_voucher_validity_check', sql`${t.voucher_validity_months} between 1 and 120`),
    check('base_account_hold_check', sql`${t.hold_minutes} between 10 and 60`),
    check('base_account_time_format_check', sql`${t.time_format} in ('24h', '12h')`),
    check('base_account_languages_check', sql`cardinality(${t.languages}) between 1 and 5 and ${t.languages} <@ array['en', 'de', 'fr', 'it', 'es']::text[]`),
    check('base_account_default_capacity_check', sql`${t.default_capacity} between 1 and 10000`),
    check('base_account_vat_check', sql`${t.vat_rate_bp} between 0 and 10000`),
  ],
);

/** The owning organisation: every tenant table has it; deleting the organisation deletes its rows. */
export const accountId = () =>
  uuid('account_id')
    .notNull()
    .references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' });

/**
 * A cancellation policy (the catalogue's): here because each organisation names its default one
 * (base_account.default_cancellation_policy_id), a pair of tables that reference each other.
 */
export const cancellationPolicy = pgTable(
  'cancellation_policy',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    rules: jsonb('rules').$type<{ hours_before: number; refund_percent: number }[]>().notNull().default([]),
    /** `name` and `description` per language. */
    translations: translations<{ name?: string; description?: string }>(),
    ...timestamps,
  },
  (t) => [...tenantPolicies(), index('cancellation_policy_account_idx').on(t.account_id, t.name), translationsCheck('cancellation_policy', t.translations)],
);

/** A named set of permission sets inside one organisation. */
export const role = pgTable(
  'role',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    name: text('name').notNull(),
    permission_set_ids: text('permission_set_ids').array().notNull().default(sql`'{}'::text[]`),
    is_owner: boolean('is_owner').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('role_account_name_key').on(t.account_id, sql`lower(${t.name})`),
  ],
);

/** A person who signs in. One user belongs to exactly one organisation. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    email: text('email').notNull(),
    first_name: text('first_name').notNull().default(''),
    last_name: text('last_name').notNull().default(''),
    password_hash: text('password_hash'),
    is_active: boolean('is_active').notNull().default(false),
    role_id: uuid('role_id').references(() => role.id, { onDelete: 'restrict' }),
    /** Set for a member invited by e-mail until they accept. */
    invited_at: timestamp('invited_at', { withTimezone: true }),
    activated_at: timestamp('activated_at', { withTimezone: true }),
    last_login: timestamp('last_login', { withTimezone: true }),
    password_changed_at: timestamp('password_changed_at', { withTimezone: true }),
    /** When the address in `email` was proved to reach the user (activation, an accepted invitation, a confirmed change); null: never. */
    email_verified_at: timestamp('email_verified_at', { withTimezone: true }),
    /** A new address asked for (set e-mail, reset e-mail), taken into `email` only once the link sent to it is followed. */
    pending_email: text('pending_email'),
    /** When the user last opened the platform's notifications (the bell counts the ones after). */
    notifications_seen_at: timestamp('notifications_seen_at', { withTimezone: true }),
    /** The back office's language for this user (en or de); null: the browser's. */
    language: text('language'),
    ...timestamps,
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    index('users_account_id_idx').on(t.account_id, t.id),
    index('users_role_idx').on(t.account_id, t.role_id),
    check('users_language_check', sql`${t.language} in ('en', 'de')`),
  ],
);

/** The user a row belongs to; deleting the user deletes it. */
export const userId = () =>
  uuid('user_id')
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' });

/**
 * A signed-in browser. The refresh token is `{session id}.{secret}`; only the secret's hash is
 * kept, and each refresh replaces it. Presenting an older secret is a replay: the session is revoked.
 */
export const authSession = pgTable(
  'auth_session',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    user_id: userId(),
    token_hash: text('token_hash').notNull(),
    previous_token_hash: text('previous_token_hash'),
    rotated_at: timestamp('rotated_at', { withTimezone: true }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    revoked_reason: text('revoked_reason'),
    user_agent: text('user_agent'),
    ip: text('ip'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [...tenantPolicies(), index('auth_session_user_idx').on(t.account_id, t.user_id)],
);

/**
 * A user's sign-in identity at an OpenID Connect provider: the provider's issuer and the subject it
 * gives the user. Sign-in matches on these, never on the e-mail alone (which a provider may let
 * its users change); the first sign-in links the identity to the account of its verified e-mail.
 */
export const userIdentity = pgTable(
  'user_identity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    user_id: userId(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantPolicies(),
    uniqueIndex('user_identity_subject_key').on(t.issuer, t.subject),
    uniqueIndex('user_identity_user_issuer_key').on(t.user_id, t.issuer),
  ],
);

/** One-time links and codes: activation, password reset, invitation, e-mail reset, a new address's confirmation, sign-in hand-off. */
export const actionToken = pgTable(
  'action_token',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    account_id: accountId(),
    user_id: userId(),
    purpose: text('purpose').notNull(),
    token_hash: text('token_hash').notNull(),
    payload: jsonb('payload').$type<Record<string, string>>().notNull().default({}),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantPolicies(),
    index('action_token_user_idx').on(t.account_id, t.user_id, t.purpose),
    check('action_token_purpose_check', sql`${t.purpose} in ('activation', 'password_reset', 'invitation', 'email_reset', 'email_confirm', 'handoff')`),
  ],
);

/** Fixed-window counters shared by every API instance (sign-in throttling). */
export const rateLimit = pgTable('rate_limit', {
  key: text('key').primaryKey(),
  window_start: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** Platform settings kept in the database so every instance agrees (the token signing key). */
export const systemSetting = pgTable('system_setting', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * When each periodic job last ran, shared by every API instance: an instance claims a run by
 * moving `last_run_at` forward only if the last run is old enough (one conditional UPDATE), so
 * two instances never run the same day's job twice.
 */
export const scheduledJob = pgTable('scheduled_job', {
  name: text('name').primaryKey(),
  last_run_at: timestamp('last_run_at', { withTimezone: true }).notNull(),
});

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
    index('system_notification_published_idx').on(t.published_at.desc().nullsFirst(), t.id.desc().nullsFirst()),
    check('system_notification_level_check', sql`${t.level} in ('info', 'warning', 'critical')`),
  ],
);
