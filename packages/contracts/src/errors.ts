import { z } from 'zod';

/**
 * The one error envelope every API error uses:
 * `{ type, errors: [{ code, detail, attr }] }`.
 * - `validation_error`: 400 with one item per bad field, `attr` naming it (dotted path).
 * - `client_error`: any other 4xx.
 * - `server_error`: 5xx; the detail never carries internals.
 */
import { ERROR_TYPES } from './error-envelope';

export { ERROR_TYPES, isErrorEnvelope, type TErrorType } from './error-envelope';

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

