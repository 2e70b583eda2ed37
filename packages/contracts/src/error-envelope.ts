/**
 * The error envelope's kinds, and the check that a value is one: without zod, since the back
 * office reads every failed answer with it from its first page load (its schema, ZErrorEnvelope,
 * is in errors.ts; `errors.test.ts` checks the two agree).
 */
export const ERROR_TYPES = ['validation_error', 'client_error', 'server_error'] as const;
export type TErrorType = (typeof ERROR_TYPES)[number];

interface Envelope {
  type: TErrorType;
  errors: { code: string; detail: string; attr: string | null }[];
}

export function isErrorEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { type?: unknown; errors?: unknown };
  if (!ERROR_TYPES.includes(v.type as TErrorType) || !Array.isArray(v.errors) || v.errors.length === 0) return false;
  return v.errors.every((e: unknown) => {
    if (typeof e !== 'object' || e === null) return false;
    const item = e as { code?: unknown; detail?: unknown; attr?: unknown };
    return typeof item.code === 'string' && typeof item.detail === 'string' && (item.attr === null || typeof item.attr === 'string');
  });
}
