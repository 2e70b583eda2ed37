import { z } from 'zod';

/**
 * The one error envelope every API error uses:
 * `{ type, errors: [{ code, detail, attr }] }`.
 * - `validation_error`: 400 with one item per bad field, `attr` naming it (dotted path).
 * - `client_error`: any other 4xx.
 * - `server_error`: 5xx; the detail never carries internals.
 */
export const ERROR_TYPES = ['validation_error', 'client_error', 'server_error'] as const;
export type TErrorType = (typeof ERROR_TYPES)[number];

export const ZErrorItem = z.object({
  code: z.string(),
  detail: z.string(),
  attr: z.string().nullable(),
});
export type TErrorItem = z.infer<typeof ZErrorItem>;

export const ZErrorEnvelope = z
  .object({
    type: z.enum(ERROR_TYPES),
    errors: z.array(ZErrorItem).min(1),
  })
  .meta({ id: 'ErrorEnvelope' });
export type TErrorEnvelope = z.infer<typeof ZErrorEnvelope>;

export function isErrorEnvelope(value: unknown): value is TErrorEnvelope {
  return ZErrorEnvelope.safeParse(value).success;
}
