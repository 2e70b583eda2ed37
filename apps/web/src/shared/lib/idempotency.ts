import type { ApiError } from '../api/errors';

/** The submission a payment form sent last: its body and the Idempotency-Key it went with. */
export interface Submission {
  body: string;
  key: string;
}

/**
 * One Idempotency-Key per submission: the very same body sent again after a failure that got no
 * definitive answer (network, timeout, 5xx) is a retry and keeps its key; anything else is new.
 */
export function keyFor(previous: Submission | null, body: string, makeKey: () => string = () => crypto.randomUUID()): Submission {
  return previous && previous.body === body ? previous : { body, key: makeKey() };
}

/** Whether a failed call may have been applied without our knowing: then a retry reuses the key. */
export const unanswered = (error: ApiError) =>
  typeof error === 'object' && error !== null && 'status' in error && (typeof error.status !== 'number' || error.status >= 500);
