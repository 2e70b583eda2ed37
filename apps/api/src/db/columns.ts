import { sql } from 'drizzle-orm';
import { type AnyPgColumn, pgPolicy, timestamp, uuid } from 'drizzle-orm/pg-core';
// A cycle on purpose: the references below are resolved lazily, after both modules loaded.
import { baseAccount, users } from './schema';

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

/** The owning organisation: every tenant table has it; deleting the organisation deletes its rows. */
export const accountId = () =>
  uuid('account_id')
    .notNull()
    .references((): AnyPgColumn => baseAccount.id, { onDelete: 'cascade' });
export const userId = () =>
  uuid('user_id')
    .notNull()
    .references((): AnyPgColumn => users.id, { onDelete: 'cascade' });

export const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

