import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { idempotencyKey } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';

/**
 * `Idempotency-Key` on a write (order create, payment create, checkout), with Stripe's semantics:
 * the first request with a key runs and its response is kept in the same transaction; a retry with
 * the same key and body gets that response again (with the header Idempotent-Replayed: true) and
 * changes nothing; the same key with another body is a 422; a key is kept 24 hours, after which it
 * is forgotten and may be used again (purgeIdempotencyKeys() deletes old ones). Keys are per user
 * and per kind of request (`scope`); a request is its path and its body, so a key sent again for
 * another order is a 422 too.
 *
 * Concurrent retries: the key's row is inserted first. PostgreSQL makes a second insert of the
 * same key wait until the first transaction ends; if it committed, the second finds the kept
 * response; if it rolled back (the request failed), the second runs as if first.
 */

/** How long a key's response is kept, in hours (Stripe's 24 h). */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** The optional header, for the routes' schemas (and the OpenAPI document). */
export const idempotencyHeader = z.object({ 'idempotency-key': z.string().optional() });
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

export async function idempotent<T>(
  ctx: TenantCtx,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  /** The status of a success: a number, or worked out from the result (a refund still pending at the provider: 202). */
  statusOf: number | ((result: T) => number),
  run: () => Promise<T>,
): Promise<T> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    const result = await run();
    reply.status(typeof statusOf === 'number' ? statusOf : statusOf(result));
    return result;
  }
  const key = Array.isArray(header) ? header[0]! : header;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) throw new AppError('invalid', 'An Idempotency-Key is 1 to 200 visible characters.', 'Idempotency-Key');
  // The request is its path and its body: the same key sent for another order is another request (422).
  const hash = createHash('sha256').update(`${request.url.split('?')[0]}\n${canonical(request.body ?? null)}`).digest('hex');
  const who = { account_id: ctx.accountId, user_id: ctx.userId!, scope, key };
  // A new key, or one older than 24 hours (forgotten: taken over as new); a younger one is kept.
  const inserted = await ctx.tx
    .insert(idempotencyKey)
    .values({ ...who, request_hash: hash, status: 0, response: sql`'null'::jsonb` })
    .onConflictDoUpdate({
      target: [idempotencyKey.account_id, idempotencyKey.user_id, idempotencyKey.scope, idempotencyKey.key],
      set: { request_hash: hash, status: 0, response: sql`'null'::jsonb`, created_at: sql`now()` },
      setWhere: sql`${idempotencyKey.created_at} <= now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})`,
    })
    .returning({ key: idempotencyKey.key });
  if (inserted.length === 0) {
    const [kept] = await ctx.tx
      .select()
      .from(idempotencyKey)
      .where(and(eq(idempotencyKey.account_id, who.account_id), eq(idempotencyKey.user_id, who.user_id), eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key)));
    if (kept!.request_hash !== hash) {
      throw new AppError('idempotency_error', 'This Idempotency-Key was already used with a different request body: use a new key for a new request.', 'Idempotency-Key');
    }
    reply.header('idempotent-replayed', 'true');
    reply.status(kept!.status);
    return kept!.response as T;
  }
  const result = await run();
  const status = typeof statusOf === 'number' ? statusOf : statusOf(result);
  await ctx.tx
    .update(idempotencyKey)
    .set({ status, response: result as object })
    .where(and(eq(idempotencyKey.account_id, who.account_id), eq(idempotencyKey.user_id, who.user_id), eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key)));
  reply.status(status);
  return result;
}

/** Forgets keys older than 24 hours (run with the periodic sweep); answers how many went. */
export async function purgeIdempotencyKeys(db: Db) {
  const result = (await db.execute(sql`delete from ${idempotencyKey} where created_at <= now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})`)) as unknown as { rowCount?: number; affectedRows?: number };
  return Number(result.rowCount ?? result.affectedRows ?? 0);
}
