import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { idempotencyKey } from '../../db/schema';
import type { TenantCtx } from '../../lib/crud';
import { AppError } from '../../lib/errors';

/**
 * `Idempotency-Key` on a write: the first request with a key runs and its response is kept in the
 * same transaction; a retry with the same key and body gets that response again (with the
 * header Idempotent-Replayed: true) and changes nothing; the same key with another body is a 409.
 *
 * Concurrent retries: the key's row is inserted first. PostgreSQL makes a second insert of the
 * same key wait until the first transaction ends; if it committed, the second finds the kept
 * response; if it rolled back (the request failed), the second runs as if first.
 */
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

/**
 * Test-only switch: with the guard off, a request looks for its key first and writes it only after
 * running (check, then act), and concurrent retries each run — test/orders.int.test.ts proves it.
 */
export const idempotencyGuard = { enabled: true };

export async function idempotent<T>(
  ctx: TenantCtx,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  status: number,
  run: () => Promise<T>,
): Promise<T> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    const result = await run();
    reply.status(status);
    return result;
  }
  const key = Array.isArray(header) ? header[0]! : header;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) throw new AppError('invalid', 'An Idempotency-Key is 1 to 200 visible characters.', 'Idempotency-Key');
  const hash = createHash('sha256').update(canonical(request.body ?? null)).digest('hex');
  const who = { account_id: ctx.accountId, user_id: ctx.userId!, scope, key };
  if (!idempotencyGuard.enabled) {
    const [seen] = await ctx.tx.select().from(idempotencyKey).where(and(eq(idempotencyKey.account_id, who.account_id), eq(idempotencyKey.user_id, who.user_id), eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key)));
    if (seen) {
      reply.status(seen.status);
      return seen.response as T;
    }
    const result = await run();
    await ctx.tx.insert(idempotencyKey).values({ ...who, request_hash: hash, status, response: result as object }).onConflictDoNothing();
    reply.status(status);
    return result;
  }
  const inserted = await ctx.tx
    .insert(idempotencyKey)
    .values({ ...who, request_hash: hash, status: 0, response: sql`'null'::jsonb` })
    .onConflictDoNothing()
    .returning({ key: idempotencyKey.key });
  if (inserted.length === 0) {
    const [kept] = await ctx.tx
      .select()
      .from(idempotencyKey)
      .where(and(eq(idempotencyKey.account_id, who.account_id), eq(idempotencyKey.user_id, who.user_id), eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key)));
    if (kept!.request_hash !== hash) {
      throw new AppError('conflict', 'This Idempotency-Key was already used for a different request.', 'Idempotency-Key');
    }
    reply.header('idempotent-replayed', 'true');
    reply.status(kept!.status);
    return kept!.response as T;
  }
  const result = await run();
  await ctx.tx
    .update(idempotencyKey)
    .set({ status, response: result as object })
    .where(and(eq(idempotencyKey.account_id, who.account_id), eq(idempotencyKey.user_id, who.user_id), eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key)));
  reply.status(status);
  return result;
}
