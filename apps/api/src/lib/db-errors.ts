/** A PostgreSQL error's code, whether the driver's error arrives bare or wrapped by Drizzle. */
export const pgErrorCode = (error: unknown): string | undefined => pgError(error)?.code;

export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
export const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === '23503';

/** The fields of the PostgreSQL error itself, whether bare or wrapped by Drizzle. */
export function pgError(error: unknown): { code: string; message: string; detail?: string; hint?: string; constraint?: string; column?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return current as { code: string; message: string; detail?: string; hint?: string; constraint?: string; column?: string };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Whether the error is a connection to the database lost or refused (the server or PgBouncer
 * restarting, a failover), not the statement's: SQLSTATE class 08, 57P01–57P03 (shut down, crashed,
 * not accepting connections yet), a refused or reset socket, or pg's "Connection terminated" and
 * "… not queryable" (Drizzle's ROLLBACK after the lost statement fails with it, and is what it throws).
 * Bare or wrapped by Drizzle. The request answers 503 and may be sent again; the job queue's own
 * statements go again (lib/jobs.ts).
 */
export function isConnectionLost(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (/^(08...|57P0[1-3])$/.test(code) || ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code))) return true;
    // pg's own words: the socket ended, or a statement (a transaction's ROLLBACK) sent on a client whose socket already had.
    if (current instanceof Error && /^(Connection terminated|Client has encountered a connection error and is not queryable)/.test(current.message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
