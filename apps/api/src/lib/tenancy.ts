import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * Runs `fn` in a transaction scoped to one organisation, at two depths:
 * the caller's queries filter by account_id, and underneath, the transaction runs as the
 * `tourdesk_app` role with `app.account_id` set, so PostgreSQL row-level security hides every
 * other organisation's rows even from a query that forgot its filter.
 */
export function inTenant<T>(db: Db, accountId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.account_id', ${accountId}, true)`);
    await tx.execute(sql`set local role tourdesk_app`);
    return fn(tx as unknown as Db);
  });
}
