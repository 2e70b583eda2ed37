import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { transaction } from '../db/execute';

/**
 * Runs `fn` in a transaction scoped to one organisation, at two depths:
 * the caller's queries filter by account_id, and underneath, the transaction runs as the
 * `tourdesk_app` role with `app.account_id` set, so PostgreSQL row-level security hides every
 * other organisation's rows even from a query that forgot its filter.
 */
export interface TenantOptions {
  /**
   * One snapshot for the whole transaction (REPEATABLE READ): every query sees the database as the
   * first one did, so a list read in several pages (a CSV export) neither repeats nor skips a row
   * that another transaction writes meanwhile. Only for reading: a write that meets a row changed
   * since the snapshot fails instead of waiting.
   */
  snapshot?: boolean;
  /** A read-only transaction (BEGIN READ ONLY): what runs on the replica's connections (`tenantRead()`). */
  readOnly?: boolean;
}

export function inTenant<T>(db: Db, accountId: string, fn: (tx: Db) => Promise<T>, options: TenantOptions = {}): Promise<T> {
  return transaction(db, async (tx) => {
    // Must be the transaction's first statement.
    if (options.snapshot) await tx.execute(sql`set transaction isolation level repeatable read`);
    // One round trip: the tenant, the role (as SET LOCAL ROLE would) and a lock timeout, for this
    // transaction only. No lock is ever waited for longer than 5 s.
    await tx.execute(
      sql`select set_config('app.account_id', ${accountId}, true), set_config('role', 'tourdesk_app', true), set_config('lock_timeout', '5s', true)`,
    );
    return fn(tx);
  }, options.readOnly ? { accessMode: 'read only' } : undefined);
}
