import { sql } from 'drizzle-orm';
import { check, jsonb, pgPolicy, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Row-level security: every tenant table has these policies. `tenant_isolation` (for every role):
 * `app_current_account()` reads the per-transaction setting `app.account_id` (see
 * src/lib/tenancy.ts); with no setting, no row matches. Tenant work runs as the `tourdesk_app`
 * role, which is not the tables' owner, so the policy applies to it. `server_access` lets the
 * application's own role, `tourdesk_server`, see every organisation's rows outside a tenant's
 * transaction: only the flows that must find the tenant (sign-in by e-mail, a token by id,
 * sign-up, background jobs) query there.
 */
export const tenantPolicies = (column = sql`account_id`) => [
  pgPolicy('tenant_isolation', {
    as: 'permissive',
    for: 'all',
    using: sql`${column} = app_current_account()`,
    withCheck: sql`${column} = app_current_account()`,
  }),
  pgPolicy('server_access', { as: 'permissive', for: 'all', to: 'tourdesk_server', using: sql`true`, withCheck: sql`true` }),
];

export const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};


/**
 * A row's texts in other languages (issue 30): `{"de": {"title": "…"}, "fr": {…}}`, a language's
 * object holding only the fields translated; the row's own columns are its organisation's main
 * language. Read through localize() (packages/contracts/src/i18n/localize.ts). A language the
 * organisation stops selling in keeps its texts here (not served).
 */
export const translations = <T = Record<string, unknown>>() => jsonb('translations').$type<Partial<Record<'en' | 'de' | 'fr' | 'it' | 'es', Partial<T>>>>().notNull().default({});
/** Only known languages as keys of `translations`, each an object. */
export const translationsCheck = (table: string, column: AnyPgColumn) =>
  check(
    `${table}_translations_check`,
    sql`jsonb_typeof(${column}) = 'object' and (${column} - array['en', 'de', 'fr', 'it', 'es']::text[]) = '{}'::jsonb and not jsonb_path_exists(${column}, '$.* ? (@.type() != "object")')`,
  );

/** A deposit rule as stored (ZDepositRule of the contracts, validated before it is written). */
export type DepositRuleJson = { kind: 'percent' | 'amount'; value: number; balance_due_days: number | null };
