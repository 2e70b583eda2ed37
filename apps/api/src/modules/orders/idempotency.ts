import { createHash } from 'node:crypto';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import * as q from './queries/idempotency';

/**
 * `Idempotency-Key` on a write (order create, payment create, checkout), with Stripe's semantics:
 * the first request with a key runs and its response is kept in the same transaction; a retry with
 * the same key and body gets that response again (with the header Idempotent-Replayed: true) and
 * changes nothing; the same key with another body is a 422; a key is kept 24 hours, after which it
 * is forgotten and may be used again (purgeIdempotencyKeys() deletes old ones). Keys are per user
 * and per kind of request (`scope`); a request is its path and its body, so a key sent again for
 * another order is a 422 too. The routes reach it through idempotent() (idempotency-routes.ts),
 * which reads the header and writes the status.
 *
 * Concurrent retries: the key's row is inserted first. PostgreSQL makes a second insert of the
 * same key wait until the first transaction ends; if it committed, the second finds the kept
 * response; if it rolled back (the request failed), the second runs as if first.
 */

export { IDEMPOTENCY_KEY_HOURS, purgeIdempotencyKeys } from './queries/idempotency';

/** JSON with object keys sorted: the same request with its keys in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A request sent with a key: the key, the request's path (without its query) and its body. */
export interface KeyedRequest {
  key: string;
  path: string;
  body: unknown;
}

/** The answer to a keyed request: the result and its status, and whether they are the kept ones (a replay). */
export interface KeyedAnswer<T> {
  result: T;
  status: number;
  replayed: boolean;
}

/**
 * Runs `run` once per key: the first request with the key runs and its result and status are kept;
 * a retry with the same request answers them again (`replayed`); another request with it is a 422.
 */
export async function runOnce<T>(
  ctx: TenantCtx,
  scope: string,
  request: KeyedRequest,
  /** The status of a success: a number, or worked out from the result (a refund still pending at the provider: 202). */
  statusOf: number | ((result: T) => number),
  run: () => Promise<T>,
): Promise<KeyedAnswer<T>> {
  const { key } = request;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) throw new AppError('invalid', 'An Idempotency-Key is 1 to 200 visible characters.', 'Idempotency-Key');
  // The request is its path and its body: the same key sent for another order is another request (422).
  const hash = createHash('sha256').update(`${request.path}\n${canonical(request.body ?? null)}`).digest('hex');
  const who = { account_id: ctx.accountId, user_id: ctx.userId!, scope, key };
  // A new key, or one older than 24 hours (forgotten: taken over as new); a younger one is kept.
  if (!(await q.claimKey(ctx, who, hash))) {
    const kept = await q.keptKey(ctx, who);
    if (kept.request_hash !== hash) {
      throw new AppError('idempotency_error', 'This Idempotency-Key was already used with a different request body: use a new key for a new request.', 'Idempotency-Key');
    }
    return { result: kept.response as T, status: kept.status, replayed: true };
  }
  const result = await run();
  const status = typeof statusOf === 'number' ? statusOf : statusOf(result);
  await q.keepResponse(ctx, who, status, result);
  return { result, status, replayed: false };
}
