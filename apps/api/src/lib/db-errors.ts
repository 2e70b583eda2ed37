/** A PostgreSQL error's code, whether the driver's error arrives bare or wrapped by Drizzle. */
export const pgErrorCode = (error: unknown): string | undefined => pgError(error)?.code;

export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';
export const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === '23503';

/** The fields of the PostgreSQL error itself, whether bare or wrapped by Drizzle. */
export function pgError(error: unknown): { code: string; message: string; hint?: string; constraint?: string; column?: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return current as { code: string; message: string; hint?: string; constraint?: string; column?: string };
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
