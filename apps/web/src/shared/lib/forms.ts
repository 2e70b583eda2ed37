import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { fieldErrors, type ApiError } from '../api/errors';

/** Puts the server's field errors (`attr`) next to the matching form fields. */
export function applyFieldErrors<T extends FieldValues>(error: ApiError, setError: UseFormSetError<T>, fields: readonly string[]) {
  for (const [attr, message] of Object.entries(fieldErrors(error))) {
    if (fields.includes(attr)) setError(attr as Path<T>, { type: 'server', message });
  }
}
