import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { isErrorEnvelope } from '@tourdesk/contracts';

/**
 * What a failed call can be, in RTK Query's own terms:
 * - `TIMEOUT_ERROR`: the request was aborted by its timeout;
 * - `FETCH_ERROR`: the network call failed;
 * - `PARSING_ERROR`: the body could not be parsed (keeps `originalStatus` and the raw text in `data`);
 * - a number: an HTTP error with the parsed body in `data` (our `{ type, errors }` envelope).
 */
export type ApiError = FetchBaseQueryError | SerializedError | undefined;

const isFetchError = (error: ApiError): error is FetchBaseQueryError =>
  typeof error === 'object' && error !== null && 'status' in error;

/** The messages to show for a failed call: one per item of the errors list, with an optional context. */
export function errorMessages(error: ApiError, context?: string): string[] {
  const prefix = context ? `${context}: ` : '';
  if (!error) return [];
  if (!isFetchError(error)) return [`${prefix}${error.message ?? 'An error occured!'}`];
  switch (error.status) {
    case 'TIMEOUT_ERROR':
      return [`${prefix}The server took too long to answer. Please try again.`];
    case 'FETCH_ERROR':
      return [`${prefix}Could not reach the server. Check your connection and try again.`];
    case 'PARSING_ERROR':
      return [`${prefix}The server sent an answer that could not be read (HTTP ${error.originalStatus}).`];
    case 'CUSTOM_ERROR':
      return [`${prefix}${error.error}`];
    default: {
      const data = error.data;
      const messages: string[] = [];
      if (isErrorEnvelope(data)) messages.push(...data.errors.map((item) => `${prefix}${item.detail}`));
      // A single error text, when a body carries one.
      if (data && typeof data === 'object' && 'error' in data && typeof data.error === 'string') {
        messages.push(`${prefix}${data.error}`);
      }
      return messages.length > 0 ? messages : [`${prefix}The request failed (HTTP ${error.status}).`];
    }
  }
}

/** Field errors from a validation envelope, keyed by `attr`, for forms to show next to fields. */
export function fieldErrors(error: ApiError): Record<string, string> {
  if (!isFetchError(error) || !isErrorEnvelope(error.data)) return {};
  const out: Record<string, string> = {};
  for (const item of error.data.errors) if (item.attr && !(item.attr in out)) out[item.attr] = item.detail;
  return out;
}

/** The items of an error envelope (code, detail, attr), for a page that answers one code its own way. */
export function errorItems(error: ApiError) {
  return isFetchError(error) && isErrorEnvelope(error.data) ? error.data.errors : [];
}
