import type { SQLWrapper } from 'drizzle-orm';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Typed doors to what Drizzle types loosely for a Db that may be either engine: a raw statement's
 * result and a transaction's handle. Queries files (and the database layer) call these instead of
 * casting at every call.
 */

/**
 * A raw statement's result, as both drivers answer it: node-postgres' QueryResult and PGlite's
 * Results both carry `rows`; a write's count is `rowCount` (node-postgres) or `affectedRows`
 * (PGlite).
 */
export interface RawResult<T> {
  rows: T[];
  rowCount?: number | null;
  affectedRows?: number;
}

/**
 * Runs a raw statement. `T` is the row its select (or returning) list makes: the caller's word,
 * checked by nothing, so it stays beside the SQL. (Db's execute() answers `unknown`, as it covers
 * both drivers: this is the one place that says what it is.)
 */
export async function execute<T = unknown>(db: Db, query: SQLWrapper): Promise<RawResult<T>> {
  return (await db.execute(query)) as RawResult<T>;
}

/** The rows of a raw statement (see execute()). */
export async function rowsOf<T>(db: Db, query: SQLWrapper): Promise<T[]> {
  return (await execute<T>(db, query)).rows;
}

/** How many rows a raw write touched, whichever driver ran it. */
export const touched = (result: RawResult<unknown>) => Number(result.rowCount ?? result.affectedRows ?? 0);

/**
 * Runs `fn` in a transaction, or in a savepoint when `db` is one already, with its handle typed as
 * the Db the code passes around.
 */
export function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>, config?: PgTransactionConfig): Promise<T> {
  // Drizzle types the handle as a PgTransaction, a PgDatabase like Db (the copies of this wrapper
  // each cast it through unknown).
  return db.transaction((tx) => fn(tx as Db), config);
}
